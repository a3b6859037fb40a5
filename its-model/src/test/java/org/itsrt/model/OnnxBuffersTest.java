package org.itsrt.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ONNX Runtime's input and output buffers grow by doubling, and every batch size reads its own windows. */
class OnnxBuffersTest {

    @Test
    void batchesGrowingOneWindowAtATimeDoubleTheBuffersAndEachEqualsItsWindowsAlone() {
        String bundle = TestBundles.all().findFirst().orElseThrow();
        TestBundles.Reference reference = TestBundles.Reference.of(TestBundles.dir(bundle));
        try (FlowPredictor predictor = FlowPredictors.open(
                TestBundles.dir(bundle), PredictorOptions.reference().withEngine(Engine.ONNX))) {
            OnnxPredictor onnx = (OnnxPredictor) predictor;
            double flowSpan = predictor.bundle().scaler().flow().max()
                    - predictor.bundle().scaler().flow().min();
            int largest = Math.min(40, reference.count());
            int grown = 0;
            for (int size = 1; size <= largest; size++) {
                int before = onnx.capacity();
                List<ReadingWindow> windows = reference.windows().subList(0, size);
                float[] batch = new float[size];
                predictor.predict(windows, batch);
                if (onnx.capacity() != before) {
                    grown++;
                    assertThat(onnx.capacity()).as("batch of %d", size).isEqualTo(Math.max(size, 2 * before));
                }
                for (int i = 0; i < size; i++) {
                    assertThat(batch[i])
                            .as("window %d of a batch of %d", i, size)
                            .isCloseTo(predictor.predict(windows.get(i)), within((float) (1e-6 * flowSpan)));
                }
            }
            // 1 -> 2 -> 4 -> ... : one growth per doubling up to the largest batch.
            int doublings = 32 - Integer.numberOfLeadingZeros(largest - 1);
            assertThat(grown).isEqualTo(doublings);
            assertThat(onnx.capacity()).isEqualTo(Integer.highestOneBit(largest - 1) * 2);
        }
    }
}
