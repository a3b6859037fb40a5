package org.itsrt.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlowPredictorsTest {
    private static final Path TINY = TestBundles.dir(TestBundles.TINY_FEATURES);

    @Test
    void predictorsOfOneFactoryShareWeightsButNotState() {
        TestBundles.Reference reference = TestBundles.Reference.of(TINY);
        try (FlowPredictorFactory factory = FlowPredictors.factory(TINY, PredictorOptions.reference())) {
            assertThat(factory.engine()).isEqualTo(Engine.KERNEL);
            KernelPredictor first = (KernelPredictor) factory.newPredictor();
            KernelPredictor second = (KernelPredictor) factory.newPredictor();
            assertThat(first.network()).isSameAs(second.network());

            float alone = first.predict(reference.windows().get(5));
            float[] batch = new float[40];
            second.predict(reference.windows().subList(0, 40), batch);
            assertThat(first.predict(reference.windows().get(5))).isEqualTo(alone);
            first.close();
            assertThat(second.predict(reference.windows().get(5))).isEqualTo(alone);
        }
    }

    @Test
    void everyEngineGivesFlowOnTheOriginalScale() {
        TestBundles.Reference reference = TestBundles.Reference.of(TINY);
        for (Engine engine : Engine.values()) {
            try (FlowPredictor predictor =
                    FlowPredictors.open(TINY, PredictorOptions.reference().withEngine(engine))) {
                assertThat(predictor.engine()).isEqualTo(engine);
                float flow = predictor.predict(reference.windows().get(0));
                float scaled = predictor.predictScaled(new FeatureEncoder(
                                predictor.bundle().model(), predictor.bundle().scaler())
                        .encode(reference.windows().get(0)));
                assertThat((double) flow)
                        .isCloseTo(scaled * 326.0 + 83.0, org.assertj.core.api.Assertions.within(1e-3));
            }
        }
    }

    @Test
    void aClosedTensorFlowPredictorRefusesToPredict() {
        FlowPredictor predictor = FlowPredictors.open(
                TINY, PredictorOptions.reference().withEngine(Engine.TENSORFLOW).withTensorFlowThreads(0, 0));
        ReadingWindow window = TestBundles.Reference.of(TINY).windows().get(0);
        predictor.predict(window);
        predictor.close();
        predictor.close();

        assertThatThrownBy(() -> predictor.predict(window))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the tensorflow predictor is closed");
    }

    @Test
    void anOutputTooSmallForTheBatchIsRefused() {
        try (FlowPredictor predictor = FlowPredictors.open(TINY, PredictorOptions.reference())) {
            ReadingWindow window = ReadingWindow.flowOnly(new double[12], Instant.parse("2018-03-21T12:00:00Z"));
            assertThatThrownBy(() -> predictor.predict(List.of(window, window), new float[1]))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("2 predictions do not fit an output of 1");
        }
    }
}
