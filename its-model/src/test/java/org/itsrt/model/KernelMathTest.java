package org.itsrt.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Both maths of the kernel against plain loops, on shapes that do not fill whole tiles. */
class KernelMathTest {
    private static final KernelMath VECTOR = KernelMathSelector.select(true);
    private static final KernelMath SCALAR = KernelMathSelector.select(false);

    @Test
    void theVectorApiIsUsedWhenWantedAndPresentOnly() {
        // The build runs tests with --add-modules jdk.incubator.vector.
        assertThat(VECTOR.description()).startsWith("Vector API");
        assertThat(SCALAR).isInstanceOf(ScalarMath.class);
        assertThat(KernelMathSelector.select(true, false)).isInstanceOf(ScalarMath.class);
        assertThat(KernelMathSelector.select(false, true)).isInstanceOf(ScalarMath.class);
    }

    @Test
    void multiplyAddEqualsPlainLoops() {
        Random random = new Random(7);
        for (KernelMath math : new KernelMath[] {VECTOR, SCALAR}) {
            for (int[] shape :
                    new int[][] {{1, 1, 1}, {1, 5, 64}, {3, 37, 70}, {4, 16, 33}, {9, 256, 130}, {13, 2, 1}}) {
                int rows = shape[0];
                int depth = shape[1];
                int cols = shape[2];
                float[] b = random(random, depth * cols);
                WeightMatrix packed =
                        math.pack(List.of(new RowMajorMatrix(b, depth, cols))).get(0);
                int aStride = depth + 3;
                int cStride = packed.paddedCols() + 5;
                float[] a = random(random, 2 + rows * aStride);
                float[] c = random(random, 1 + rows * cStride);
                float[] expected = c.clone();
                for (int r = 0; r < rows; r++) {
                    for (int j = 0; j < cols; j++) {
                        double sum = expected[1 + r * cStride + j];
                        for (int k = 0; k < depth; k++) {
                            sum += (double) a[2 + r * aStride + k] * b[k * cols + j];
                        }
                        expected[1 + r * cStride + j] = (float) sum;
                    }
                }

                math.multiplyAdd(a, 2, aStride, rows, packed, c, 1, cStride);

                for (int r = 0; r < rows; r++) {
                    for (int j = 0; j < cols; j++) {
                        int at = 1 + r * cStride + j;
                        assertThat(c[at])
                                .as("%s, shape %dx%dx%d, row %d col %d", math.description(), rows, depth, cols, r, j)
                                .isCloseTo(expected[at], within(1e-5f * (1 + depth)));
                    }
                }
            }
        }
    }

    /**
     * bfloat16 and int8 weights, several to an int: each math multiplies by exactly the rounded
     * weights {@link WeightPrecision#rounded} describes, on shapes with odd column counts,
     * partial tiles and depths of one; the padding columns of {@code c} stay as they were.
     */
    @Test
    void narrowWeightsMultiplyAsTheirRoundedValues() {
        Random random = new Random(9);
        for (WeightPrecision precision : new WeightPrecision[] {WeightPrecision.BF16, WeightPrecision.INT8}) {
            for (KernelMath math : new KernelMath[] {VECTOR, SCALAR}) {
                for (int[] shape : new int[][] {
                    {1, 1, 1}, {1, 5, 64}, {3, 37, 70}, {4, 16, 33}, {9, 256, 130}, {13, 2, 1}, {6, 3, 127}, {7, 1, 65}
                }) {
                    int rows = shape[0];
                    int depth = shape[1];
                    int cols = shape[2];
                    float[] b = random(random, depth * cols);
                    if (cols > 1) {
                        for (int k = 0; k < depth; k++) {
                            b[k * cols + 1] = 0f; // an all-zero column: int8 scale 0
                        }
                    }
                    RowMajorMatrix matrix = new RowMajorMatrix(b, depth, cols);
                    float[] rounded = precision.rounded(matrix).values();
                    WeightMatrix packed = math.pack(List.of(matrix), precision).get(0);
                    int aStride = depth + 3;
                    int cStride = packed.paddedCols() + 5;
                    float[] a = random(random, 2 + rows * aStride);
                    float[] c = random(random, 1 + rows * cStride);
                    float[] before = c.clone();

                    math.multiplyAdd(a, 2, aStride, rows, packed, c, 1, cStride);

                    for (int r = 0; r < rows; r++) {
                        for (int j = 0; j < packed.paddedCols(); j++) {
                            int at = 1 + r * cStride + j;
                            double expected = before[at];
                            for (int k = 0; j < cols && k < depth; k++) {
                                expected += (double) a[2 + r * aStride + k] * rounded[k * cols + j];
                            }
                            assertThat(c[at])
                                    .as(
                                            "%s %s, shape %dx%dx%d, row %d col %d",
                                            precision, math.description(), rows, depth, cols, r, j)
                                    .isCloseTo((float) expected, within(1e-5f * (1 + depth)));
                        }
                    }
                }
            }
        }
    }

    @Test
    void packedNarrowWeightsReadBackAsRounded() {
        Random random = new Random(10);
        for (WeightPrecision precision : WeightPrecision.values()) {
            int depth = 5;
            int cols = 97; // two tiles of 64, the second one partial
            RowMajorMatrix matrix = new RowMajorMatrix(random(random, depth * cols), depth, cols);
            float[] rounded = precision.rounded(matrix).values();
            PackedMatrix packed = (PackedMatrix)
                    PackedMatrix.packAll(List.of(matrix, matrix), 64, precision).get(1);
            for (int k = 0; k < depth; k++) {
                for (int j = 0; j < packed.paddedCols(); j++) {
                    float scale = precision == WeightPrecision.INT8 ? packed.scales()[j] : 1f;
                    float expected = j < cols ? rounded[k * cols + j] : 0f;
                    assertThat(packed.storedWeight(k, j) * scale)
                            .as("%s [%d, %d]", precision, k, j)
                            .isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void bfloat16RoundsToNearestEven() {
        float ulp = 0x1p-7f; // bfloat16's step just above 1
        assertThat(WeightPrecision.fromBf16(WeightPrecision.toBf16(1f + ulp / 2)))
                .isEqualTo(1f);
        assertThat(WeightPrecision.fromBf16(WeightPrecision.toBf16(1f + 3 * ulp / 2)))
                .isEqualTo(1f + 2 * ulp);
        assertThat(WeightPrecision.fromBf16(WeightPrecision.toBf16(1f + ulp / 2 + 0x1p-20f)))
                .isEqualTo(1f + ulp);
        assertThat(WeightPrecision.fromBf16(WeightPrecision.toBf16(-2.5f))).isEqualTo(-2.5f);
        assertThat(WeightPrecision.fromBf16(WeightPrecision.toBf16(Float.NaN))).isNaN();
    }

    @Test
    void int8UsesAScalePerColumn() {
        float[] values = {1f, -0.5f, 0f, -2f, 0.25f, 0f}; // [2, 3]
        float[] scales = WeightPrecision.int8Scales(values, 2, 3);
        assertThat(scales).containsExactly(2f / 127, 0.5f / 127, 0f);
        assertThat(WeightPrecision.toInt8(-2f, scales[0])).isEqualTo((byte) -127);
        assertThat(WeightPrecision.toInt8(1f, scales[0])).isEqualTo((byte) 64); // 63.5 rounds up
        assertThat(WeightPrecision.toInt8(0.7f, 0f)).isEqualTo((byte) 0);
    }

    @Test
    void theLstmCellEqualsItsFormula() {
        Random random = new Random(11);
        for (KernelMath math : new KernelMath[] {VECTOR, SCALAR}) {
            for (int units : new int[] {1, 8, 16, 37, 256}) {
                float[] z = new float[4 * units];
                for (int i = 0; i < z.length; i++) {
                    z[i] = (float) (random.nextGaussian() * 6);
                }
                z[0] = 100f;
                z[units] = -100f;
                float[] cell = random(random, units);
                float[] expectedCell = new float[units];
                float[] expectedH = new float[units];
                for (int u = 0; u < units; u++) {
                    double c = sigmoid(z[units + u]) * cell[u] + sigmoid(z[u]) * Math.tanh(z[2 * units + u]);
                    expectedCell[u] = (float) c;
                    expectedH[u] = (float) (sigmoid(z[3 * units + u]) * Math.tanh(c));
                }
                float[] h = new float[units + 2];

                math.lstmCell(z, 0, units, cell, 0, h, 2);

                for (int u = 0; u < units; u++) {
                    assertThat(cell[u])
                            .as("%s, %d units, cell %d", math.description(), units, u)
                            .isCloseTo(expectedCell[u], within(5e-7f));
                    assertThat(h[2 + u])
                            .as("%s, %d units, h %d", math.description(), units, u)
                            .isCloseTo(expectedH[u], within(5e-7f));
                }
            }
        }
    }

    private static double sigmoid(double x) {
        return 1 / (1 + Math.exp(-x));
    }

    private static float[] random(Random random, int n) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (float) (random.nextDouble() * 2 - 1);
        }
        return values;
    }
}
