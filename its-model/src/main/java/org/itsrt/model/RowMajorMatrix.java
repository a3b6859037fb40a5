package org.itsrt.model;

/** A weight matrix as Keras stores it: {@code values[row * cols + col]}. */
record RowMajorMatrix(float[] values, int rows, int cols) {

    RowMajorMatrix {
        if (values.length != rows * cols) {
            throw new IllegalArgumentException("expected " + rows + " x " + cols + " values, found " + values.length);
        }
    }
}
