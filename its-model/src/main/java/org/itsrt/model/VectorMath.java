package org.itsrt.model;

import static org.itsrt.model.TileShape.L;
import static org.itsrt.model.TileShape.S;
import static org.itsrt.model.TileShape.TILE_WIDTH;

import java.util.List;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;

/**
 * The kernel's math on the JDK Vector API (needs {@code --add-modules jdk.incubator.vector}).
 * Multiplies keep a tile of one to four rows in registers for the whole depth, so each weight
 * is loaded once per row block; activations use a polynomial exp, as the JIT does not vectorize
 * Math.exp.
 *
 * <p>The multiply's loops live in one class per weight precision ({@link Float32Tiles},
 * {@link Bf16Tiles}, {@link Int8Tiles}); this class picks one by the matrix's precision with
 * static calls, which the JIT binds directly, and keeps what every precision shares: packing and
 * the LSTM cell's activations.
 */
final class VectorMath implements KernelMath {

    @Override
    public String description() {
        return "Vector API, " + S.vectorBitSize() + "-bit";
    }

    @Override
    public List<WeightMatrix> pack(List<RowMajorMatrix> matrices) {
        return pack(matrices, WeightPrecision.FP32);
    }

    @Override
    public List<WeightMatrix> pack(List<RowMajorMatrix> matrices, WeightPrecision precision) {
        return PackedMatrix.packAll(matrices, TILE_WIDTH, precision);
    }

    @Override
    public void multiplyAdd(
            float[] a, int aOffset, int aStride, int rows, WeightMatrix matrix, float[] c, int cOffset, int cStride) {
        PackedMatrix b = (PackedMatrix) matrix;
        switch (b.precision()) {
            case BF16 -> Bf16Tiles.multiplyAdd(a, aOffset, aStride, rows, b, c, cOffset, cStride);
            case INT8 -> Int8Tiles.multiplyAdd(a, aOffset, aStride, rows, b, c, cOffset, cStride);
            case FP32 -> Float32Tiles.multiplyAdd(a, aOffset, aStride, rows, b, c, cOffset, cStride);
        }
    }

    /**
     * In passes over whole gate blocks, each with a short loop body: a vector that crosses a
     * call the JIT does not inline is boxed, which costs an allocation and then some, and a body
     * holding several exps grows past the JIT's inlining limits.
     */
    @Override
    public void lstmCell(float[] z, int zOffset, int units, float[] cell, int cellOffset, float[] h, int hOffset) {
        int input = zOffset;
        int forget = zOffset + units;
        int candidate = zOffset + 2 * units;
        int output = zOffset + 3 * units;
        logistic(z, input, 2 * units, SIGMOID);
        logistic(z, candidate, units, TANH);
        logistic(z, output, units, SIGMOID);
        int u = 0;
        for (; u + L <= units; u += L) {
            FloatVector c = FloatVector.fromArray(S, z, forget + u)
                    .mul(FloatVector.fromArray(S, cell, cellOffset + u))
                    .add(FloatVector.fromArray(S, z, input + u).mul(FloatVector.fromArray(S, z, candidate + u)));
            c.intoArray(cell, cellOffset + u);
            c.intoArray(h, hOffset + u);
        }
        for (; u < units; u++) {
            float c = z[forget + u] * cell[cellOffset + u] + z[input + u] * z[candidate + u];
            cell[cellOffset + u] = c;
            h[hOffset + u] = c;
        }
        logistic(h, hOffset, units, TANH);
        u = 0;
        for (; u + L <= units; u += L) {
            FloatVector.fromArray(S, z, output + u)
                    .mul(FloatVector.fromArray(S, h, hOffset + u))
                    .intoArray(h, hOffset + u);
        }
        for (; u < units; u++) {
            h[hOffset + u] *= z[output + u];
        }
    }

    /** sigmoid(x) = 1 / (1 + e^-x) */
    private static final float[] SIGMOID = {-1f, 1f, 0f};
    /** tanh(x) = 2 / (1 + e^-2x) - 1: absolute error about 1e-7, saturating cleanly at +-1. */
    private static final float[] TANH = {-2f, 2f, -1f};

    /**
     * {@code x[i] = a / (1 + e^(k x[i])) + b} in place for {@code {k, a, b} = form}, with e^x as
     * Cephes' expf computes it (relative error about 1e-7): x = n ln2 + r, a degree-6 polynomial
     * for e^r, 2^n built in the exponent bits. The exponent is clamped to [-87, 87] so that
     * neither e^x nor 1 / (1 + e^x) becomes a subnormal float, which the CPU handles a hundred
     * times slower. A tail shorter than a vector goes through {@link ScalarMath}, whose exp never
     * sees a large argument.
     */
    private static void logistic(float[] x, int from, int count, float[] form) {
        float k = form[0];
        float a = form[1];
        float b = form[2];
        int i = from;
        int end = from + count;
        for (; i + L <= end; i += L) {
            FloatVector e = FloatVector.fromArray(S, x, i).mul(k).max(-87f).min(87f);
            FloatVector shifted = e.fma(LOG2E, ROUND);
            FloatVector n = shifted.sub(ROUND);
            FloatVector r = n.fma(MINUS_LN2_HI, e);
            r = n.fma(MINUS_LN2_LO, r);
            FloatVector p = r.fma(1.9875691500e-4f, 1.3981999507e-3f);
            p = p.fma(r, P3);
            p = p.fma(r, P2);
            p = p.fma(r, P1);
            p = p.fma(r, P0);
            FloatVector y = p.mul(r.mul(r)).add(r).add(1f);
            IntVector bits = shifted.viewAsIntegralLanes().sub(ROUND_BITS - 127).lanewise(VectorOperators.LSHL, 23);
            y = y.mul(bits.viewAsFloatingLanes());
            FloatVector.broadcast(S, a).div(y.add(1f)).add(b).intoArray(x, i);
        }
        boolean tanh = form == TANH;
        for (; i < end; i++) {
            x[i] = tanh ? ScalarMath.tanh(x[i]) : ScalarMath.sigmoid(x[i]);
        }
    }

    private static final float LOG2E = 1.44269504088896341f;
    private static final FloatVector MINUS_LN2_HI = FloatVector.broadcast(S, -0.693359375f);
    private static final FloatVector MINUS_LN2_LO = FloatVector.broadcast(S, 2.12194440e-4f);
    /** 1.5 * 2^23: adding it rounds a float below 2^22 to an integer held in the low mantissa bits. */
    private static final float ROUND = 12582912f;

    private static final int ROUND_BITS = 0x4B400000;
    private static final FloatVector P3 = FloatVector.broadcast(S, 8.3334519073e-3f);
    private static final FloatVector P2 = FloatVector.broadcast(S, 4.1665795894e-2f);
    private static final FloatVector P1 = FloatVector.broadcast(S, 1.6666665459e-1f);
    private static final FloatVector P0 = FloatVector.broadcast(S, 5.0000001201e-1f);
}
