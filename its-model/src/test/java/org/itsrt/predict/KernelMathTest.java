package org.itsrt.predict;

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
