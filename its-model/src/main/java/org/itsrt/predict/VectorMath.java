package org.itsrt.predict;

import java.util.List;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The kernel's math on the JDK Vector API (needs {@code --add-modules jdk.incubator.vector}).
 * Multiplies keep a tile of one to four rows in registers for the whole depth, so each weight
 * is loaded once per row block; activations use a polynomial exp, as the JIT does not vectorize
 * Math.exp.
 */
final class VectorMath implements KernelMath {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /** Four vectors: with four rows that is 16 accumulators, half the AVX-512 registers. */
    private static final int TILE_WIDTH = 4 * L;

    @Override
    public String description() {
        return "Vector API, " + S.vectorBitSize() + "-bit";
    }

    @Override
    public List<WeightMatrix> pack(List<RowMajorMatrix> matrices) {
        return PackedMatrix.packAll(matrices, TILE_WIDTH);
    }

    @Override
    public void multiplyAdd(
            float[] a, int aOffset, int aStride, int rows, WeightMatrix matrix, float[] c, int cOffset, int cStride) {
        PackedMatrix b = (PackedMatrix) matrix;
        int depth = b.rows();
        float[] w = b.data();
        for (int tile = 0; tile < b.tiles(); tile++) {
            int tileBase = b.tileStart(tile);
            int col = tile * TILE_WIDTH;
            int r = 0;
            for (; r + 6 <= rows; r += 6) {
                sixRows(a, aOffset + r * aStride, aStride, depth, w, tileBase, c, cOffset + r * cStride + col, cStride);
            }
            for (; r + 4 <= rows; r += 4) {
                fourRows(
                        a, aOffset + r * aStride, aStride, depth, w, tileBase, c, cOffset + r * cStride + col, cStride);
            }
            for (; r < rows; r++) {
                oneRow(a, aOffset + r * aStride, depth, w, tileBase, c, cOffset + r * cStride + col);
            }
        }
    }

    /** Two sets of accumulators (even and odd k) so that consecutive FMAs do not wait on each other. */
    private static void oneRow(float[] a, int aAt, int depth, float[] w, int wAt, float[] c, int cAt) {
        FloatVector s0 = FloatVector.fromArray(S, c, cAt);
        FloatVector s1 = FloatVector.fromArray(S, c, cAt + L);
        FloatVector s2 = FloatVector.fromArray(S, c, cAt + 2 * L);
        FloatVector s3 = FloatVector.fromArray(S, c, cAt + 3 * L);
        FloatVector t0 = FloatVector.zero(S);
        FloatVector t1 = FloatVector.zero(S);
        FloatVector t2 = FloatVector.zero(S);
        FloatVector t3 = FloatVector.zero(S);
        int k = 0;
        for (; k + 1 < depth; k += 2, wAt += 2 * TILE_WIDTH) {
            FloatVector x0 = FloatVector.broadcast(S, a[aAt + k]);
            FloatVector x1 = FloatVector.broadcast(S, a[aAt + k + 1]);
            s0 = FloatVector.fromArray(S, w, wAt).fma(x0, s0);
            s1 = FloatVector.fromArray(S, w, wAt + L).fma(x0, s1);
            s2 = FloatVector.fromArray(S, w, wAt + 2 * L).fma(x0, s2);
            s3 = FloatVector.fromArray(S, w, wAt + 3 * L).fma(x0, s3);
            t0 = FloatVector.fromArray(S, w, wAt + TILE_WIDTH).fma(x1, t0);
            t1 = FloatVector.fromArray(S, w, wAt + TILE_WIDTH + L).fma(x1, t1);
            t2 = FloatVector.fromArray(S, w, wAt + TILE_WIDTH + 2 * L).fma(x1, t2);
            t3 = FloatVector.fromArray(S, w, wAt + TILE_WIDTH + 3 * L).fma(x1, t3);
        }
        if (k < depth) {
            FloatVector x0 = FloatVector.broadcast(S, a[aAt + k]);
            s0 = FloatVector.fromArray(S, w, wAt).fma(x0, s0);
            s1 = FloatVector.fromArray(S, w, wAt + L).fma(x0, s1);
            s2 = FloatVector.fromArray(S, w, wAt + 2 * L).fma(x0, s2);
            s3 = FloatVector.fromArray(S, w, wAt + 3 * L).fma(x0, s3);
        }
        s0.add(t0).intoArray(c, cAt);
        s1.add(t1).intoArray(c, cAt + L);
        s2.add(t2).intoArray(c, cAt + 2 * L);
        s3.add(t3).intoArray(c, cAt + 3 * L);
    }

    /** Six rows share each weight load: 24 accumulators, four weights and a broadcast fill 29 of 32 registers. */
    private static void sixRows(
            float[] a, int aAt, int aStride, int depth, float[] w, int wAt, float[] c, int cAt, int cStride) {
        int c0 = cAt + 0 * cStride;
        int c1 = cAt + 1 * cStride;
        int c2 = cAt + 2 * cStride;
        int c3 = cAt + 3 * cStride;
        int c4 = cAt + 4 * cStride;
        int c5 = cAt + 5 * cStride;
        FloatVector s00 = FloatVector.fromArray(S, c, c0);
        FloatVector s01 = FloatVector.fromArray(S, c, c0 + L);
        FloatVector s02 = FloatVector.fromArray(S, c, c0 + 2 * L);
        FloatVector s03 = FloatVector.fromArray(S, c, c0 + 3 * L);
        FloatVector s10 = FloatVector.fromArray(S, c, c1);
        FloatVector s11 = FloatVector.fromArray(S, c, c1 + L);
        FloatVector s12 = FloatVector.fromArray(S, c, c1 + 2 * L);
        FloatVector s13 = FloatVector.fromArray(S, c, c1 + 3 * L);
        FloatVector s20 = FloatVector.fromArray(S, c, c2);
        FloatVector s21 = FloatVector.fromArray(S, c, c2 + L);
        FloatVector s22 = FloatVector.fromArray(S, c, c2 + 2 * L);
        FloatVector s23 = FloatVector.fromArray(S, c, c2 + 3 * L);
        FloatVector s30 = FloatVector.fromArray(S, c, c3);
        FloatVector s31 = FloatVector.fromArray(S, c, c3 + L);
        FloatVector s32 = FloatVector.fromArray(S, c, c3 + 2 * L);
        FloatVector s33 = FloatVector.fromArray(S, c, c3 + 3 * L);
        FloatVector s40 = FloatVector.fromArray(S, c, c4);
        FloatVector s41 = FloatVector.fromArray(S, c, c4 + L);
        FloatVector s42 = FloatVector.fromArray(S, c, c4 + 2 * L);
        FloatVector s43 = FloatVector.fromArray(S, c, c4 + 3 * L);
        FloatVector s50 = FloatVector.fromArray(S, c, c5);
        FloatVector s51 = FloatVector.fromArray(S, c, c5 + L);
        FloatVector s52 = FloatVector.fromArray(S, c, c5 + 2 * L);
        FloatVector s53 = FloatVector.fromArray(S, c, c5 + 3 * L);
        int a0 = aAt + 0 * aStride;
        int a1 = aAt + 1 * aStride;
        int a2 = aAt + 2 * aStride;
        int a3 = aAt + 3 * aStride;
        int a4 = aAt + 4 * aStride;
        int a5 = aAt + 5 * aStride;
        for (int k = 0; k < depth; k++, wAt += TILE_WIDTH) {
            FloatVector w0 = FloatVector.fromArray(S, w, wAt);
            FloatVector w1 = FloatVector.fromArray(S, w, wAt + L);
            FloatVector w2 = FloatVector.fromArray(S, w, wAt + 2 * L);
            FloatVector w3 = FloatVector.fromArray(S, w, wAt + 3 * L);
            FloatVector x = FloatVector.broadcast(S, a[a0 + k]);
            s00 = w0.fma(x, s00);
            s01 = w1.fma(x, s01);
            s02 = w2.fma(x, s02);
            s03 = w3.fma(x, s03);
            x = FloatVector.broadcast(S, a[a1 + k]);
            s10 = w0.fma(x, s10);
            s11 = w1.fma(x, s11);
            s12 = w2.fma(x, s12);
            s13 = w3.fma(x, s13);
            x = FloatVector.broadcast(S, a[a2 + k]);
            s20 = w0.fma(x, s20);
            s21 = w1.fma(x, s21);
            s22 = w2.fma(x, s22);
            s23 = w3.fma(x, s23);
            x = FloatVector.broadcast(S, a[a3 + k]);
            s30 = w0.fma(x, s30);
            s31 = w1.fma(x, s31);
            s32 = w2.fma(x, s32);
            s33 = w3.fma(x, s33);
            x = FloatVector.broadcast(S, a[a4 + k]);
            s40 = w0.fma(x, s40);
            s41 = w1.fma(x, s41);
            s42 = w2.fma(x, s42);
            s43 = w3.fma(x, s43);
            x = FloatVector.broadcast(S, a[a5 + k]);
            s50 = w0.fma(x, s50);
            s51 = w1.fma(x, s51);
            s52 = w2.fma(x, s52);
            s53 = w3.fma(x, s53);
        }
        s00.intoArray(c, c0);
        s01.intoArray(c, c0 + L);
        s02.intoArray(c, c0 + 2 * L);
        s03.intoArray(c, c0 + 3 * L);
        s10.intoArray(c, c1);
        s11.intoArray(c, c1 + L);
        s12.intoArray(c, c1 + 2 * L);
        s13.intoArray(c, c1 + 3 * L);
        s20.intoArray(c, c2);
        s21.intoArray(c, c2 + L);
        s22.intoArray(c, c2 + 2 * L);
        s23.intoArray(c, c2 + 3 * L);
        s30.intoArray(c, c3);
        s31.intoArray(c, c3 + L);
        s32.intoArray(c, c3 + 2 * L);
        s33.intoArray(c, c3 + 3 * L);
        s40.intoArray(c, c4);
        s41.intoArray(c, c4 + L);
        s42.intoArray(c, c4 + 2 * L);
        s43.intoArray(c, c4 + 3 * L);
        s50.intoArray(c, c5);
        s51.intoArray(c, c5 + L);
        s52.intoArray(c, c5 + 2 * L);
        s53.intoArray(c, c5 + 3 * L);
    }

    private static void fourRows(
            float[] a, int aAt, int aStride, int depth, float[] w, int wAt, float[] c, int cAt, int cStride) {
        int c1 = cAt + cStride;
        int c2 = c1 + cStride;
        int c3 = c2 + cStride;
        FloatVector s00 = FloatVector.fromArray(S, c, cAt);
        FloatVector s01 = FloatVector.fromArray(S, c, cAt + L);
        FloatVector s02 = FloatVector.fromArray(S, c, cAt + 2 * L);
        FloatVector s03 = FloatVector.fromArray(S, c, cAt + 3 * L);
        FloatVector s10 = FloatVector.fromArray(S, c, c1);
        FloatVector s11 = FloatVector.fromArray(S, c, c1 + L);
        FloatVector s12 = FloatVector.fromArray(S, c, c1 + 2 * L);
        FloatVector s13 = FloatVector.fromArray(S, c, c1 + 3 * L);
        FloatVector s20 = FloatVector.fromArray(S, c, c2);
        FloatVector s21 = FloatVector.fromArray(S, c, c2 + L);
        FloatVector s22 = FloatVector.fromArray(S, c, c2 + 2 * L);
        FloatVector s23 = FloatVector.fromArray(S, c, c2 + 3 * L);
        FloatVector s30 = FloatVector.fromArray(S, c, c3);
        FloatVector s31 = FloatVector.fromArray(S, c, c3 + L);
        FloatVector s32 = FloatVector.fromArray(S, c, c3 + 2 * L);
        FloatVector s33 = FloatVector.fromArray(S, c, c3 + 3 * L);
        int a1 = aAt + aStride;
        int a2 = a1 + aStride;
        int a3 = a2 + aStride;
        for (int k = 0; k < depth; k++, wAt += TILE_WIDTH) {
            FloatVector w0 = FloatVector.fromArray(S, w, wAt);
            FloatVector w1 = FloatVector.fromArray(S, w, wAt + L);
            FloatVector w2 = FloatVector.fromArray(S, w, wAt + 2 * L);
            FloatVector w3 = FloatVector.fromArray(S, w, wAt + 3 * L);
            FloatVector x = FloatVector.broadcast(S, a[aAt + k]);
            s00 = w0.fma(x, s00);
            s01 = w1.fma(x, s01);
            s02 = w2.fma(x, s02);
            s03 = w3.fma(x, s03);
            x = FloatVector.broadcast(S, a[a1 + k]);
            s10 = w0.fma(x, s10);
            s11 = w1.fma(x, s11);
            s12 = w2.fma(x, s12);
            s13 = w3.fma(x, s13);
            x = FloatVector.broadcast(S, a[a2 + k]);
            s20 = w0.fma(x, s20);
            s21 = w1.fma(x, s21);
            s22 = w2.fma(x, s22);
            s23 = w3.fma(x, s23);
            x = FloatVector.broadcast(S, a[a3 + k]);
            s30 = w0.fma(x, s30);
            s31 = w1.fma(x, s31);
            s32 = w2.fma(x, s32);
            s33 = w3.fma(x, s33);
        }
        s00.intoArray(c, cAt);
        s01.intoArray(c, cAt + L);
        s02.intoArray(c, cAt + 2 * L);
        s03.intoArray(c, cAt + 3 * L);
        s10.intoArray(c, c1);
        s11.intoArray(c, c1 + L);
        s12.intoArray(c, c1 + 2 * L);
        s13.intoArray(c, c1 + 3 * L);
        s20.intoArray(c, c2);
        s21.intoArray(c, c2 + L);
        s22.intoArray(c, c2 + 2 * L);
        s23.intoArray(c, c2 + 3 * L);
        s30.intoArray(c, c3);
        s31.intoArray(c, c3 + L);
        s32.intoArray(c, c3 + 2 * L);
        s33.intoArray(c, c3 + 3 * L);
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
