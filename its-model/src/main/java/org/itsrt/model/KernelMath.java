package org.itsrt.model;

import java.util.List;

/**
 * The two inner loops of the LSTM kernel. Implementations: {@link ScalarMath} (plain Java) and
 * {@code VectorMath} (JDK Vector API), picked by {@link KernelMathSelector}. Implementations hold no
 * state of a computation, so one instance serves every predictor of a network.
 */
interface KernelMath {

    /** How this math computes, for logs and benchmark reports. */
    String description();

    /** Lays the float32 matrices out for this math, all at once so that they may share memory. */
    List<WeightMatrix> pack(List<RowMajorMatrix> matrices);

    /** As {@link #pack(List)}, the weights stored in {@code precision}. */
    List<WeightMatrix> pack(List<RowMajorMatrix> matrices, WeightPrecision precision);

    /**
     * {@code c[r] += a[r] x b} for {@code rows} rows: row {@code r} of {@code a} is
     * {@code a[aOffset + r * aStride ...]} ({@code b.rows()} values), row {@code r} of {@code c} is
     * {@code c[cOffset + r * cStride ...]} ({@code b.paddedCols()} values).
     */
    void multiplyAdd(
            float[] a, int aOffset, int aStride, int rows, WeightMatrix b, float[] c, int cOffset, int cStride);

    /**
     * One step of a Keras LSTM cell for one row: {@code z} holds the pre-activations of the gates
     * input, forget, candidate and output, {@code units} each, from {@code zOffset}; updates the cell
     * state in place and writes the new output {@code h}.
     */
    void lstmCell(float[] z, int zOffset, int units, float[] cell, int cellOffset, float[] h, int hOffset);
}
