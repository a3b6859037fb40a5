package org.itsrt.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every engine against the bundle's reference.json and against each other, on the two tiny
 * bundles and on the shipped model when it is present.
 */
class PredictorReferenceTest {
    private static final Map<String, FlowPredictor> OPEN = new HashMap<>();

    static List<String> bundles() {
        return TestBundles.all().toList();
    }

    static List<String> anyNetwork() {
        return TestBundles.anyNetwork().toList();
    }

    @AfterAll
    static void closeAll() {
        OPEN.values().forEach(FlowPredictor::close);
        OPEN.clear();
    }

    /** One predictor per bundle and engine setup, opened once for all tests of this class. */
    private static FlowPredictor predictor(String bundle, PredictorOptions options) {
        Path dir = TestBundles.dir(bundle);
        return OPEN.computeIfAbsent(bundle + " " + options, key -> FlowPredictors.open(dir, options));
    }

    private static FlowPredictor tensorflow(String bundle) {
        return predictor(bundle, PredictorOptions.reference().withEngine(Engine.TENSORFLOW));
    }

    private static FlowPredictor kernel(String bundle, boolean vectorApi) {
        return predictor(
                bundle, PredictorOptions.reference().withEngine(Engine.KERNEL).withKernelVectorApi(vectorApi));
    }

    @ParameterizedTest
    @MethodSource("anyNetwork")
    void tensorflowReproducesKeras(String bundle) {
        TestBundles.Reference reference = TestBundles.Reference.of(TestBundles.dir(bundle));
        FlowPredictor tf = tensorflow(bundle);
        double flowSpan =
                tf.bundle().scaler().flow().max() - tf.bundle().scaler().flow().min();

        float[] scaled = predictScaled(tf, encode(tf, reference.windows()), reference.count());

        double worst = 0;
        for (int i = 0; i < reference.count(); i++) {
            assertThat((double) scaled[i])
                    .as("window %d", i)
                    .isCloseTo(reference.lstmScaled()[i], within(1e-4));
            assertThat((double) tf.predict(reference.windows().get(i)))
                    .as("window %d, veh/5 min", i)
                    .isCloseTo(reference.lstmFlow()[i], within(1e-4 * flowSpan));
            worst = Math.max(worst, Math.abs(scaled[i] - reference.lstmScaled()[i]));
        }
        System.out.printf(
                "%s: max |tensorflow - keras| on %d reference windows, scaled: %.3g%n",
                tf.bundle().model().name(), reference.count(), worst);
    }

    @ParameterizedTest
    @MethodSource("bundles")
    void theKernelEqualsTensorFlowOnTheReference(String bundle) {
        TestBundles.Reference reference = TestBundles.Reference.of(TestBundles.dir(bundle));
        FlowPredictor tf = tensorflow(bundle);
        float[] inputs = encode(tf, reference.windows());
        float[] expected = predictScaled(tf, inputs, reference.count());

        for (boolean vectorApi : new boolean[] {true, false}) {
            assertEqualOneAtATime(kernel(bundle, vectorApi), inputs, expected, 1e-5, "reference");
        }
    }

    @ParameterizedTest
    @MethodSource("bundles")
    void theKernelEqualsTensorFlowOnRandomInputs(String bundle) {
        FlowPredictor tf = tensorflow(bundle);
        int count = 300;
        float[] inputs = randomInputs(tf.bundle().model(), count, new Random(20180328L));
        float[] expected = predictScaled(tf, inputs, count);

        for (boolean vectorApi : new boolean[] {true, false}) {
            assertEqualOneAtATime(kernel(bundle, vectorApi), inputs, expected, 1e-5, "random");
            assertThat(predictScaled(kernel(bundle, vectorApi), inputs, count))
                    .as("kernel (vector API %s), one batch of %d", vectorApi, count)
                    .containsExactly(expected, within(1e-5f));
        }
    }

    @ParameterizedTest
    @MethodSource("anyNetwork")
    void onnxRuntimeEqualsTensorFlowOnTheReferenceAndOnRandomInputs(String bundle) {
        TestBundles.Reference reference = TestBundles.Reference.of(TestBundles.dir(bundle));
        FlowPredictor tf = tensorflow(bundle);
        FlowPredictor onnx = predictor(bundle, PredictorOptions.reference().withEngine(Engine.ONNX));
        float[] inputs = encode(tf, reference.windows());
        assertEqualOneAtATime(onnx, inputs, predictScaled(tf, inputs, reference.count()), 1e-5, "reference");

        int count = 300;
        float[] random = randomInputs(tf.bundle().model(), count, new Random(20180328L));
        float[] expected = predictScaled(tf, random, count);
        assertEqualOneAtATime(onnx, random, expected, 1e-5, "random");
        assertThat(predictScaled(onnx, random, count))
                .as("onnx, one batch of %d", count)
                .containsExactly(expected, within(1e-5f));
    }

    @ParameterizedTest
    @MethodSource("anyNetwork")
    void linearReproducesPython(String bundle) {
        TestBundles.Reference reference = TestBundles.Reference.of(TestBundles.dir(bundle));
        FlowPredictor linear = predictor(bundle, PredictorOptions.reference().withEngine(Engine.LINEAR));

        float[] scaled = predictScaled(linear, encode(linear, reference.windows()), reference.count());

        double worst = 0;
        for (int i = 0; i < reference.count(); i++) {
            assertThat((double) scaled[i])
                    .as("window %d", i)
                    .isCloseTo(reference.linearScaled()[i], within(1e-5));
            worst = Math.max(worst, Math.abs(scaled[i] - reference.linearScaled()[i]));
        }
        System.out.printf(
                "%s: max |linear - python| on %d reference windows, scaled: %.3g%n",
                linear.bundle().model().name(), reference.count(), worst);
    }

    @ParameterizedTest
    @MethodSource("bundles")
    void aBatchEqualsOneWindowAtATime(String bundle) {
        TestBundles.Reference reference = TestBundles.Reference.of(TestBundles.dir(bundle));
        List<FlowPredictor> predictors = List.of(
                tensorflow(bundle),
                kernel(bundle, true),
                kernel(bundle, false),
                predictor(bundle, PredictorOptions.reference().withEngine(Engine.ONNX)),
                predictor(bundle, PredictorOptions.reference().withEngine(Engine.LINEAR)));
        double flowSpan = predictors.get(0).bundle().scaler().flow().max()
                - predictors.get(0).bundle().scaler().flow().min();

        for (FlowPredictor predictor : predictors) {
            for (int size : new int[] {1, 3, 6, 64, reference.count()}) {
                List<ReadingWindow> windows = reference.windows().subList(reference.count() - size, reference.count());
                float[] batch = new float[size];
                predictor.predict(windows, batch);
                for (int i = 0; i < size; i++) {
                    assertThat(batch[i])
                            .as("%s, window %d of a batch of %d", predictor.engine(), i, size)
                            .isCloseTo(predictor.predict(windows.get(i)), within((float) (1e-6 * flowSpan)));
                }
            }
            float[] fromArray = new float[2];
            predictor.predict(
                    new ReadingWindow[] {
                        reference.windows().get(0), reference.windows().get(1)
                    },
                    fromArray);
            assertThat(fromArray[1])
                    .isCloseTo(predictor.predict(reference.windows().get(1)), within((float) (1e-6 * flowSpan)));
        }
    }

    private static void assertEqualOneAtATime(
            FlowPredictor predictor, float[] inputs, float[] expected, double tolerance, String what) {
        int width = inputs.length / expected.length;
        float[] one = new float[width];
        double worst = 0;
        for (int i = 0; i < expected.length; i++) {
            System.arraycopy(inputs, i * width, one, 0, width);
            float actual = predictor.predictScaled(one);
            worst = Math.max(worst, Math.abs(actual - expected[i]));
            assertThat(actual)
                    .as("%s %s, %s window %d", predictor.engine(), mathOf(predictor), what, i)
                    .isCloseTo(expected[i], within((float) tolerance));
        }
        System.out.printf(
                "%s: max |%s%s - tensorflow| on %d %s windows, scaled: %.3g%n",
                predictor.bundle().model().name(), predictor.engine(), mathOf(predictor), expected.length, what, worst);
    }

    private static String mathOf(FlowPredictor predictor) {
        return predictor instanceof KernelPredictor kernel ? " (" + kernel.mathDescription() + ")" : "";
    }

    static float[] encode(FlowPredictor predictor, List<ReadingWindow> windows) {
        FeatureEncoder encoder = new FeatureEncoder(
                predictor.bundle().model(), predictor.bundle().scaler());
        float[] inputs = new float[windows.size() * encoder.inputWidth()];
        for (int i = 0; i < windows.size(); i++) {
            encoder.encode(windows.get(i), inputs, i * encoder.inputWidth());
        }
        return inputs;
    }

    static float[] predictScaled(FlowPredictor predictor, float[] inputs, int count) {
        float[] out = new float[count];
        predictor.predictScaled(inputs, count, out);
        return out;
    }

    /** Scaled inputs a little beyond the training range; time of day as a consistent sin/cos pair. */
    static float[] randomInputs(ModelSpec model, int count, Random random) {
        List<Feature> features = model.features();
        float[] inputs = new float[count * model.inputWidth()];
        int at = 0;
        for (int n = 0; n < count; n++) {
            for (int t = 0; t < model.window(); t++) {
                double angle = 2 * Math.PI * random.nextDouble();
                for (Feature feature : features) {
                    inputs[at++] = (float)
                            switch (feature) {
                                case FLOW, SPEED -> -0.1 + 1.2 * random.nextDouble();
                                case TOD_SIN -> Math.sin(angle);
                                case TOD_COS -> Math.cos(angle);
                            };
                }
            }
        }
        return inputs;
    }
}
