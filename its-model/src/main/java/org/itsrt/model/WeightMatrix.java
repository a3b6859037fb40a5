package org.itsrt.model;

/** A weight matrix {@code [rows, cols]} laid out for the {@link KernelMath} that packed it. */
interface WeightMatrix {

    int rows();

    int cols();

    /** Columns including any padding: the row width of an output of this matrix. */
    int paddedCols();

    /** A row vector zero-padded to {@link #paddedCols()}, e.g. a bias. */
    default float[] padRow(float[] values) {
        float[] padded = new float[paddedCols()];
        System.arraycopy(values, 0, padded, 0, values.length);
        return padded;
    }
}
