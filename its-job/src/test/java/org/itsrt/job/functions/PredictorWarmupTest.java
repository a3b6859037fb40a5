package org.itsrt.job.functions;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.itsrt.model.Engine;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.FlowPredictors;
import org.itsrt.model.ModelBundle;
import org.itsrt.model.PredictorOptions;
import org.itsrt.model.ReadingWindow;
import org.junit.jupiter.api.Test;

class PredictorWarmupTest {

    private static final Path TINY_MODEL = Path.of(System.getProperty("itsrt.repo.root", ".."))
            .resolve("its-model/src/test/resources/models/tiny-features");

    @Test
    void everyEighthCallIsABatchSoTheBatchedLoopsAreCompiledToo() {
        try (FlowPredictor kernel =
                FlowPredictors.open(TINY_MODEL, PredictorOptions.reference().withEngine(Engine.KERNEL_INT8))) {
            List<Integer> batchSizes = new ArrayList<>();
            FlowPredictor counting = new Counting(kernel, batchSizes);

            PredictorWarmup.Result result = PredictorWarmup.run(counting, 800);

            assertThat(batchSizes).hasSize(800);
            assertThat(batchSizes.stream().filter(n -> n == PredictorWarmup.BATCH))
                    .hasSize(100);
            assertThat(batchSizes.stream().filter(n -> n == 1)).hasSize(700);
            assertThat(result.calls()).isEqualTo(800);
            assertThat(result.settledAfter()).isBetween(0, 800);
            assertThat(result.lastBlockMedianUs()).isPositive();
        }
    }

    @Test
    void noCallsNoWarmup() {
        assertThat(PredictorWarmup.run(null, 0)).isNull();
    }

    @Test
    void theCurveSettlesWhereTheBlockMediansStayNearTheLastOne() {
        long[] nanos = new long[700];
        for (int i = 0; i < nanos.length; i++) {
            // Interpreted, then C1, then C2 from batch-1 call 300 on.
            nanos[i] = i < 100 ? 5_000_000 : i < 300 ? 400_000 : 200_000 + (i % 7) * 1_000;
        }

        PredictorWarmup.Result result = PredictorWarmup.curve(nanos, 800, 42);

        assertThat(result.firstBlockMedianUs()).isEqualTo(5_000.0);
        assertThat(result.lastBlockMedianUs()).isBetween(200.0, 207.0);
        // Block 3 (batch-1 calls 300..399) is the first fast one: about warm-up call 343.
        assertThat(result.settledAfter()).isEqualTo(343);
        assertThat(result.settledLate()).isFalse();

        long[] stillFalling = new long[700];
        for (int i = 0; i < stillFalling.length; i++) {
            stillFalling[i] = 1_000_000 - i * 1_000L;
        }
        assertThat(PredictorWarmup.curve(stillFalling, 800, 42).settledLate()).isTrue();
    }

    /** Passes calls on and records each call's batch size. */
    private record Counting(FlowPredictor delegate, List<Integer> batchSizes) implements FlowPredictor {
        @Override
        public Engine engine() {
            return delegate.engine();
        }

        @Override
        public ModelBundle bundle() {
            return delegate.bundle();
        }

        @Override
        public float predict(ReadingWindow window) {
            batchSizes.add(1);
            return delegate.predict(window);
        }

        @Override
        public void predict(List<ReadingWindow> windows, float[] out) {
            batchSizes.add(windows.size());
            delegate.predict(windows, out);
        }

        @Override
        public float predictScaled(float[] scaledInput) {
            return delegate.predictScaled(scaledInput);
        }

        @Override
        public void predictScaled(float[] scaledInputs, int count, float[] scaledOut) {
            delegate.predictScaled(scaledInputs, count, scaledOut);
        }

        @Override
        public void close() {}
    }
}
