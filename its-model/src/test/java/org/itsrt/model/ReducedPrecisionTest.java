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
 * The reduced-precision kernels ({@code kernel-bf16}, {@code kernel-int8}) against the float32
 * kernel, the exact reference, on each bundle's reference windows and on random inputs.
 *
 * <p>The tolerances, on the scaled axis (1 = the flow range of the training data): a bfloat16
 * weight is off by at most 2^-9 (0.2 %) of itself, an int8 weight by at most half a step of
 * 1/127 of its column's largest weight (0.4 % of that). Errors of that size in every weight of
 * four layers move the output by a fraction of a percent of its range. The bounds below are about
 * twice the largest difference measured on the three bundles (printed by the test; 1.6e-3 for
 * both on tiny-features, 2.6e-4 and 7.9e-4 on the shipped model, i.e. 0.18 and 0.54 veh/5 min),
 * tight enough to catch a packing or widening mistake, which moves outputs by whole percents.
 */
class ReducedPrecisionTest {
    static final double BF16_TOLERANCE = 3e-3;
    static final double INT8_TOLERANCE = 3e-3;

    private static final Map<String, FlowPredictor> OPEN = new HashMap<>();

    static List<String> bundles() {
        return TestBundles.all().toList();
    }

    @AfterAll
    static void closeAll() {
        OPEN.values().forEach(FlowPredictor::close);
        OPEN.clear();
    }

    private static FlowPredictor predictor(String bundle, Engine engine, boolean vectorApi) {
        Path dir = TestBundles.dir(bundle);
        PredictorOptions options =
                PredictorOptions.reference().withEngine(engine).withKernelVectorApi(vectorApi);
        return OPEN.computeIfAbsent(bundle + " " + options, key -> FlowPredictors.open(dir, options));
    }

    @ParameterizedTest
    @MethodSource("bundles")
    void eachVariantStaysNearTheFloat32Kernel(String bundle) {
        FlowPredictor reference = predictor(bundle, Engine.KERNEL, true);
        ModelSpec model = reference.bundle().model();
        TestBundles.Reference windows = TestBundles.Reference.of(TestBundles.dir(bundle));
        float[] referenceInputs = PredictorReferenceTest.encode(reference, windows.windows());
        float[] randomInputs = PredictorReferenceTest.randomInputs(model, 300, new Random(41));
        for (Engine variant : List.of(Engine.KERNEL_BF16, Engine.KERNEL_INT8)) {
            double tolerance = variant == Engine.KERNEL_BF16 ? BF16_TOLERANCE : INT8_TOLERANCE;
            for (boolean vectorApi : new boolean[] {true, false}) {
                FlowPredictor predictor = predictor(bundle, variant, vectorApi);
                assertThat(predictor.engine()).isEqualTo(variant);
                for (float[] inputs : List.of(referenceInputs, randomInputs)) {
                    int count = inputs.length / model.inputWidth();
                    float[] expected = PredictorReferenceTest.predictScaled(reference, inputs, count);
                    float[] actual = PredictorReferenceTest.predictScaled(predictor, inputs, count);
                    double worst = 0;
                    double moved = 0;
                    for (int i = 0; i < count; i++) {
                        worst = Math.max(worst, Math.abs(actual[i] - expected[i]));
                        moved += Math.abs(actual[i] - expected[i]);
                        assertThat(actual[i])
                                .as("%s (vector API %s), %s window %d", variant, vectorApi, bundle, i)
                                .isCloseTo(expected[i], within((float) tolerance));
                    }
                    System.out.printf(
                            "%s: max |%s (%s) - kernel| on %d %s windows, scaled: %.3g (mean %.3g)%n",
                            model.name(),
                            variant,
                            vectorApi ? "vector" : "scalar",
                            count,
                            inputs == referenceInputs ? "reference" : "random",
                            worst,
                            moved / count);
                    // Rounded weights do change the result: an output equal to the float32 one
                    // everywhere would mean the variant runs float32 weights.
                    assertThat(moved)
                            .as("%s differs from float32 at all", variant)
                            .isGreaterThan(0);
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("bundles")
    void bothMathsOfAVariantAgree(String bundle) {
        ModelSpec model = predictor(bundle, Engine.KERNEL, true).bundle().model();
        float[] inputs = PredictorReferenceTest.randomInputs(model, 64, new Random(43));
        for (Engine variant : List.of(Engine.KERNEL_BF16, Engine.KERNEL_INT8)) {
            float[] vector = PredictorReferenceTest.predictScaled(predictor(bundle, variant, true), inputs, 64);
            float[] scalar = PredictorReferenceTest.predictScaled(predictor(bundle, variant, false), inputs, 64);
            // The same rounded weights, summed in another order (and int8 scaled before or after
            // the sum): float32 rounding only, as between the float32 kernel's two maths.
            assertThat(vector).as("%s, vector vs scalar", variant).containsExactly(scalar, within(1e-5f));
        }
    }
}
