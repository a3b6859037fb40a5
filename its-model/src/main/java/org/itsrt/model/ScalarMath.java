package org.itsrt.model;

import java.util.List;

/**
 * The kernel's math in plain Java: the fallback when the JVM runs without the Vector API.
 * The multiply adds whole weight rows into a scratch row that starts at index 0, as the row
 * does: loops whose arrays are all indexed alike are the ones the JIT vectorizes.
 */
final class ScalarMath implements KernelMath {
    /** Per thread, as one instance serves the predictors of every thread. */
    private static final ThreadLocal<float[]> SCRATCH = ThreadLocal.withInitial(() -> new float[0]);

    @Override
    public String description() {
        return "scalar";
    }

    @Override
    public List<WeightMatrix> pack(List<RowMajorMatrix> matrices) {
        return pack(matrices, WeightPrecision.FP32);
    }

    /** Float32 rows of the values {@code precision} stores: the same weights as the vector math's. */
    @Override
    public List<WeightMatrix> pack(List<RowMajorMatrix> matrices, WeightPrecision precision) {
        return matrices.stream()
                .<WeightMatrix>map(matrix -> RowMatrix.of(precision.rounded(matrix)))
                .toList();
    }

    @Override
    public void multiplyAdd(
            float[] a, int aOffset, int aStride, int rows, WeightMatrix matrix, float[] c, int cOffset, int cStride) {
        RowMatrix b = (RowMatrix) matrix;
        int depth = b.rows();
        int cols = b.cols();
        float[] sum = scratch(cols);
        for (int r = 0; r < rows; r++) {
            int aRow = aOffset + r * aStride;
            int cRow = cOffset + r * cStride;
            System.arraycopy(c, cRow, sum, 0, cols);
            for (int k = 0; k < depth; k++) {
                float x = a[aRow + k];
                float[] w = b.row(k);
                for (int j = 0; j < cols; j++) {
                    sum[j] += x * w[j];
                }
            }
            System.arraycopy(sum, 0, c, cRow, cols);
        }
    }

    private static float[] scratch(int size) {
        float[] scratch = SCRATCH.get();
        if (scratch.length < size) {
            scratch = new float[size];
            SCRATCH.set(scratch);
        }
        return scratch;
    }

    @Override
    public void lstmCell(float[] z, int zOffset, int units, float[] cell, int cellOffset, float[] h, int hOffset) {
        for (int u = 0; u < units; u++) {
            float input = sigmoid(z[zOffset + u]);
            float forget = sigmoid(z[zOffset + units + u]);
            float candidate = tanh(z[zOffset + 2 * units + u]);
            float output = sigmoid(z[zOffset + 3 * units + u]);
            float c = forget * cell[cellOffset + u] + input * candidate;
            cell[cellOffset + u] = c;
            h[hOffset + u] = output * tanh(c);
        }
    }

    static float sigmoid(float x) {
        return (float) (1.0 / (1.0 + Math.exp(-x)));
    }

    /** Through exp rather than Math.tanh, which the JIT does not inline on JDK 17. */
    static float tanh(float x) {
        double t = Math.exp(-2.0 * Math.abs(x));
        return (float) Math.copySign((1.0 - t) / (1.0 + t), x);
    }
}
