package org.itsrt.model;

import java.util.Arrays;

/** A weight matrix as one array per row, for {@link ScalarMath}. */
final class RowMatrix implements WeightMatrix {
    private final float[][] rows;
    private final int cols;

    private RowMatrix(float[][] rows, int cols) {
        this.rows = rows;
        this.cols = cols;
    }

    static RowMatrix of(RowMajorMatrix matrix) {
        int cols = matrix.cols();
        float[][] split = new float[matrix.rows()][];
        for (int row = 0; row < split.length; row++) {
            split[row] = Arrays.copyOfRange(matrix.values(), row * cols, (row + 1) * cols);
        }
        return new RowMatrix(split, cols);
    }

    @Override
    public int rows() {
        return rows.length;
    }

    @Override
    public int cols() {
        return cols;
    }

    @Override
    public int paddedCols() {
        return cols;
    }

    float[] row(int row) {
        return rows[row];
    }
}
