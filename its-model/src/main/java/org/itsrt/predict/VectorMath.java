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
 *
 * <p>Weights stored as bfloat16 or int8 ({@link WeightPrecision}) are widened to float32 in
 * registers right after their load; everything else is computed as for float32.
 */
final class VectorMath implements KernelMath {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /** Four vectors: with four rows that is 16 accumulators, half the AVX-512 registers. */
    private static final int TILE_WIDTH = 4 * L;

    private static final VectorSpecies<Integer> INTS = S.withLanes(int.class);
    /** Ints per tile row of bfloat16 weights: two weights to an int. */
    private static final int BF16_ROW = TILE_WIDTH / 2;
    /** Ints per tile row of int8 weights: four weights to an int. */
    private static final int INT8_ROW = TILE_WIDTH / 4;

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
            case BF16 -> multiplyAddBf16(a, aOffset, aStride, rows, b, c, cOffset, cStride);
            case INT8 -> multiplyAddInt8(a, aOffset, aStride, rows, b, c, cOffset, cStride);
            case FP32 -> multiplyAddFp32(a, aOffset, aStride, rows, b, c, cOffset, cStride);
        }
    }

    private static void multiplyAddFp32(
            float[] a, int aOffset, int aStride, int rows, PackedMatrix b, float[] c, int cOffset, int cStride) {
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

    /** The bfloat16 weights in the low halves of {@code pairs}, as floats: shifted into the upper half. */
    private static FloatVector lowBf16(IntVector pairs) {
        return pairs.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
    }

    /** The bfloat16 weights in the high halves of {@code pairs}, as floats: the low half cleared. */
    private static FloatVector highBf16(IntVector pairs) {
        return pairs.lanewise(VectorOperators.AND, 0xFFFF0000).reinterpretAsFloats();
    }

    /** The int8 weights in byte {@code which} of each lane of {@code quads}, sign-extended, as floats (unscaled). */
    private static FloatVector int8(IntVector quads, int which) {
        IntVector top = which == 3 ? quads : quads.lanewise(VectorOperators.LSHL, 24 - 8 * which);
        return (FloatVector) top.lanewise(VectorOperators.ASHR, 24).convert(VectorOperators.I2F, 0);
    }

    // ---- bfloat16 weights: the float32 kernels above with each tile row's weights widened from ints.

    private static void multiplyAddBf16(
            float[] a, int aOffset, int aStride, int rows, PackedMatrix b, float[] c, int cOffset, int cStride) {
        int depth = b.rows();
        int[] w = b.packed();
        for (int tile = 0; tile < b.tiles(); tile++) {
            int tileBase = b.tileStart(tile);
            int col = tile * TILE_WIDTH;
            int r = 0;
            for (; r + 6 <= rows; r += 6) {
                sixRowsBf16(
                        a, aOffset + r * aStride, aStride, depth, w, tileBase, c, cOffset + r * cStride + col, cStride);
            }
            for (; r + 4 <= rows; r += 4) {
                fourRowsBf16(
                        a, aOffset + r * aStride, aStride, depth, w, tileBase, c, cOffset + r * cStride + col, cStride);
            }
            for (; r < rows; r++) {
                oneRowBf16(a, aOffset + r * aStride, depth, w, tileBase, c, cOffset + r * cStride + col);
            }
        }
    }

    private static void oneRowBf16(float[] a, int aAt, int depth, int[] w, int wAt, float[] c, int cAt) {
        FloatVector s0 = FloatVector.fromArray(S, c, cAt + 0 * L);
        FloatVector s1 = FloatVector.fromArray(S, c, cAt + 1 * L);
        FloatVector s2 = FloatVector.fromArray(S, c, cAt + 2 * L);
        FloatVector s3 = FloatVector.fromArray(S, c, cAt + 3 * L);
        FloatVector t0 = FloatVector.zero(S);
        FloatVector t1 = FloatVector.zero(S);
        FloatVector t2 = FloatVector.zero(S);
        FloatVector t3 = FloatVector.zero(S);
        int k = 0;
        for (; k + 1 < depth; k += 2, wAt += 2 * BF16_ROW) {
            FloatVector x0 = FloatVector.broadcast(S, a[aAt + k]);
            FloatVector x1 = FloatVector.broadcast(S, a[aAt + k + 1]);
            IntVector u01 = IntVector.fromArray(INTS, w, wAt);
            IntVector u23 = IntVector.fromArray(INTS, w, wAt + L);
            FloatVector u0 = lowBf16(u01);
            FloatVector u1 = highBf16(u01);
            FloatVector u2 = lowBf16(u23);
            FloatVector u3 = highBf16(u23);
            s0 = u0.fma(x0, s0);
            s1 = u1.fma(x0, s1);
            s2 = u2.fma(x0, s2);
            s3 = u3.fma(x0, s3);
            IntVector v01 = IntVector.fromArray(INTS, w, wAt + BF16_ROW);
            IntVector v23 = IntVector.fromArray(INTS, w, wAt + BF16_ROW + L);
            FloatVector v0 = lowBf16(v01);
            FloatVector v1 = highBf16(v01);
            FloatVector v2 = lowBf16(v23);
            FloatVector v3 = highBf16(v23);
            t0 = v0.fma(x1, t0);
            t1 = v1.fma(x1, t1);
            t2 = v2.fma(x1, t2);
            t3 = v3.fma(x1, t3);
        }
        if (k < depth) {
            FloatVector x0 = FloatVector.broadcast(S, a[aAt + k]);
            IntVector u01 = IntVector.fromArray(INTS, w, wAt);
            IntVector u23 = IntVector.fromArray(INTS, w, wAt + L);
            FloatVector u0 = lowBf16(u01);
            FloatVector u1 = highBf16(u01);
            FloatVector u2 = lowBf16(u23);
            FloatVector u3 = highBf16(u23);
            s0 = u0.fma(x0, s0);
            s1 = u1.fma(x0, s1);
            s2 = u2.fma(x0, s2);
            s3 = u3.fma(x0, s3);
        }
        s0.add(t0).intoArray(c, cAt + 0 * L);
        s1.add(t1).intoArray(c, cAt + 1 * L);
        s2.add(t2).intoArray(c, cAt + 2 * L);
        s3.add(t3).intoArray(c, cAt + 3 * L);
    }

    private static void sixRowsBf16(
            float[] a, int aAt, int aStride, int depth, int[] w, int wAt, float[] c, int cAt, int cStride) {
        int c0 = cAt + 0 * cStride;
        int c1 = cAt + 1 * cStride;
        int c2 = cAt + 2 * cStride;
        int c3 = cAt + 3 * cStride;
        int c4 = cAt + 4 * cStride;
        int c5 = cAt + 5 * cStride;
        FloatVector s00 = FloatVector.fromArray(S, c, c0 + 0 * L);
        FloatVector s01 = FloatVector.fromArray(S, c, c0 + 1 * L);
        FloatVector s02 = FloatVector.fromArray(S, c, c0 + 2 * L);
        FloatVector s03 = FloatVector.fromArray(S, c, c0 + 3 * L);
        FloatVector s10 = FloatVector.fromArray(S, c, c1 + 0 * L);
        FloatVector s11 = FloatVector.fromArray(S, c, c1 + 1 * L);
        FloatVector s12 = FloatVector.fromArray(S, c, c1 + 2 * L);
        FloatVector s13 = FloatVector.fromArray(S, c, c1 + 3 * L);
        FloatVector s20 = FloatVector.fromArray(S, c, c2 + 0 * L);
        FloatVector s21 = FloatVector.fromArray(S, c, c2 + 1 * L);
        FloatVector s22 = FloatVector.fromArray(S, c, c2 + 2 * L);
        FloatVector s23 = FloatVector.fromArray(S, c, c2 + 3 * L);
        FloatVector s30 = FloatVector.fromArray(S, c, c3 + 0 * L);
        FloatVector s31 = FloatVector.fromArray(S, c, c3 + 1 * L);
        FloatVector s32 = FloatVector.fromArray(S, c, c3 + 2 * L);
        FloatVector s33 = FloatVector.fromArray(S, c, c3 + 3 * L);
        FloatVector s40 = FloatVector.fromArray(S, c, c4 + 0 * L);
        FloatVector s41 = FloatVector.fromArray(S, c, c4 + 1 * L);
        FloatVector s42 = FloatVector.fromArray(S, c, c4 + 2 * L);
        FloatVector s43 = FloatVector.fromArray(S, c, c4 + 3 * L);
        FloatVector s50 = FloatVector.fromArray(S, c, c5 + 0 * L);
        FloatVector s51 = FloatVector.fromArray(S, c, c5 + 1 * L);
        FloatVector s52 = FloatVector.fromArray(S, c, c5 + 2 * L);
        FloatVector s53 = FloatVector.fromArray(S, c, c5 + 3 * L);
        int a0 = aAt + 0 * aStride;
        int a1 = aAt + 1 * aStride;
        int a2 = aAt + 2 * aStride;
        int a3 = aAt + 3 * aStride;
        int a4 = aAt + 4 * aStride;
        int a5 = aAt + 5 * aStride;
        for (int k = 0; k < depth; k++, wAt += BF16_ROW) {
            IntVector w01 = IntVector.fromArray(INTS, w, wAt);
            IntVector w23 = IntVector.fromArray(INTS, w, wAt + L);
            FloatVector w0 = lowBf16(w01);
            FloatVector w1 = highBf16(w01);
            FloatVector w2 = lowBf16(w23);
            FloatVector w3 = highBf16(w23);
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
        s00.intoArray(c, c0 + 0 * L);
        s01.intoArray(c, c0 + 1 * L);
        s02.intoArray(c, c0 + 2 * L);
        s03.intoArray(c, c0 + 3 * L);
        s10.intoArray(c, c1 + 0 * L);
        s11.intoArray(c, c1 + 1 * L);
        s12.intoArray(c, c1 + 2 * L);
        s13.intoArray(c, c1 + 3 * L);
        s20.intoArray(c, c2 + 0 * L);
        s21.intoArray(c, c2 + 1 * L);
        s22.intoArray(c, c2 + 2 * L);
        s23.intoArray(c, c2 + 3 * L);
        s30.intoArray(c, c3 + 0 * L);
        s31.intoArray(c, c3 + 1 * L);
        s32.intoArray(c, c3 + 2 * L);
        s33.intoArray(c, c3 + 3 * L);
        s40.intoArray(c, c4 + 0 * L);
        s41.intoArray(c, c4 + 1 * L);
        s42.intoArray(c, c4 + 2 * L);
        s43.intoArray(c, c4 + 3 * L);
        s50.intoArray(c, c5 + 0 * L);
        s51.intoArray(c, c5 + 1 * L);
        s52.intoArray(c, c5 + 2 * L);
        s53.intoArray(c, c5 + 3 * L);
    }

    private static void fourRowsBf16(
            float[] a, int aAt, int aStride, int depth, int[] w, int wAt, float[] c, int cAt, int cStride) {
        int c0 = cAt + 0 * cStride;
        int c1 = cAt + 1 * cStride;
        int c2 = cAt + 2 * cStride;
        int c3 = cAt + 3 * cStride;
        FloatVector s00 = FloatVector.fromArray(S, c, c0 + 0 * L);
        FloatVector s01 = FloatVector.fromArray(S, c, c0 + 1 * L);
        FloatVector s02 = FloatVector.fromArray(S, c, c0 + 2 * L);
        FloatVector s03 = FloatVector.fromArray(S, c, c0 + 3 * L);
        FloatVector s10 = FloatVector.fromArray(S, c, c1 + 0 * L);
        FloatVector s11 = FloatVector.fromArray(S, c, c1 + 1 * L);
        FloatVector s12 = FloatVector.fromArray(S, c, c1 + 2 * L);
        FloatVector s13 = FloatVector.fromArray(S, c, c1 + 3 * L);
        FloatVector s20 = FloatVector.fromArray(S, c, c2 + 0 * L);
        FloatVector s21 = FloatVector.fromArray(S, c, c2 + 1 * L);
        FloatVector s22 = FloatVector.fromArray(S, c, c2 + 2 * L);
        FloatVector s23 = FloatVector.fromArray(S, c, c2 + 3 * L);
        FloatVector s30 = FloatVector.fromArray(S, c, c3 + 0 * L);
        FloatVector s31 = FloatVector.fromArray(S, c, c3 + 1 * L);
        FloatVector s32 = FloatVector.fromArray(S, c, c3 + 2 * L);
        FloatVector s33 = FloatVector.fromArray(S, c, c3 + 3 * L);
        int a0 = aAt + 0 * aStride;
        int a1 = aAt + 1 * aStride;
        int a2 = aAt + 2 * aStride;
        int a3 = aAt + 3 * aStride;
        for (int k = 0; k < depth; k++, wAt += BF16_ROW) {
            IntVector w01 = IntVector.fromArray(INTS, w, wAt);
            IntVector w23 = IntVector.fromArray(INTS, w, wAt + L);
            FloatVector w0 = lowBf16(w01);
            FloatVector w1 = highBf16(w01);
            FloatVector w2 = lowBf16(w23);
            FloatVector w3 = highBf16(w23);
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
        }
        s00.intoArray(c, c0 + 0 * L);
        s01.intoArray(c, c0 + 1 * L);
        s02.intoArray(c, c0 + 2 * L);
        s03.intoArray(c, c0 + 3 * L);
        s10.intoArray(c, c1 + 0 * L);
        s11.intoArray(c, c1 + 1 * L);
        s12.intoArray(c, c1 + 2 * L);
        s13.intoArray(c, c1 + 3 * L);
        s20.intoArray(c, c2 + 0 * L);
        s21.intoArray(c, c2 + 1 * L);
        s22.intoArray(c, c2 + 2 * L);
        s23.intoArray(c, c2 + 3 * L);
        s30.intoArray(c, c3 + 0 * L);
        s31.intoArray(c, c3 + 1 * L);
        s32.intoArray(c, c3 + 2 * L);
        s33.intoArray(c, c3 + 3 * L);
    }

    // ---- int8 weights with per-column scales: the sums start at zero and meet the scale once, at the end.
    // No six-row kernel: C1 could not compile one (out of virtual registers), and a method that
    // fails at C1's profiling tier stays at its non-profiling tier and never reaches C2.

    private static void multiplyAddInt8(
            float[] a, int aOffset, int aStride, int rows, PackedMatrix b, float[] c, int cOffset, int cStride) {
        int depth = b.rows();
        int[] w = b.packed();
        for (int tile = 0; tile < b.tiles(); tile++) {
            int tileBase = b.tileStart(tile);
            int col = tile * TILE_WIDTH;
            int r = 0;
            for (; r + 4 <= rows; r += 4) {
                fourRowsInt8(
                        a,
                        aOffset + r * aStride,
                        aStride,
                        depth,
                        w,
                        tileBase,
                        c,
                        cOffset + r * cStride + col,
                        cStride,
                        b.scales(),
                        col);
            }
            for (; r < rows; r++) {
                oneRowInt8(
                        a, aOffset + r * aStride, depth, w, tileBase, c, cOffset + r * cStride + col, b.scales(), col);
            }
        }
    }

    private static void oneRowInt8(
            float[] a, int aAt, int depth, int[] w, int wAt, float[] c, int cAt, float[] scales, int sAt) {
        FloatVector s0 = FloatVector.zero(S);
        FloatVector s1 = FloatVector.zero(S);
        FloatVector s2 = FloatVector.zero(S);
        FloatVector s3 = FloatVector.zero(S);
        FloatVector t0 = FloatVector.zero(S);
        FloatVector t1 = FloatVector.zero(S);
        FloatVector t2 = FloatVector.zero(S);
        FloatVector t3 = FloatVector.zero(S);
        int k = 0;
        for (; k + 1 < depth; k += 2, wAt += 2 * INT8_ROW) {
            FloatVector x0 = FloatVector.broadcast(S, a[aAt + k]);
            FloatVector x1 = FloatVector.broadcast(S, a[aAt + k + 1]);
            IntVector uq = IntVector.fromArray(INTS, w, wAt);
            FloatVector u0 = int8(uq, 0);
            FloatVector u1 = int8(uq, 1);
            FloatVector u2 = int8(uq, 2);
            FloatVector u3 = int8(uq, 3);
            s0 = u0.fma(x0, s0);
            s1 = u1.fma(x0, s1);
            s2 = u2.fma(x0, s2);
            s3 = u3.fma(x0, s3);
            IntVector vq = IntVector.fromArray(INTS, w, wAt + INT8_ROW);
            FloatVector v0 = int8(vq, 0);
            FloatVector v1 = int8(vq, 1);
            FloatVector v2 = int8(vq, 2);
            FloatVector v3 = int8(vq, 3);
            t0 = v0.fma(x1, t0);
            t1 = v1.fma(x1, t1);
            t2 = v2.fma(x1, t2);
            t3 = v3.fma(x1, t3);
        }
        if (k < depth) {
            FloatVector x0 = FloatVector.broadcast(S, a[aAt + k]);
            IntVector uq = IntVector.fromArray(INTS, w, wAt);
            FloatVector u0 = int8(uq, 0);
            FloatVector u1 = int8(uq, 1);
            FloatVector u2 = int8(uq, 2);
            FloatVector u3 = int8(uq, 3);
            s0 = u0.fma(x0, s0);
            s1 = u1.fma(x0, s1);
            s2 = u2.fma(x0, s2);
            s3 = u3.fma(x0, s3);
        }
        s0.add(t0)
                .fma(FloatVector.fromArray(S, scales, sAt + 0 * L), FloatVector.fromArray(S, c, cAt + 0 * L))
                .intoArray(c, cAt + 0 * L);
        s1.add(t1)
                .fma(FloatVector.fromArray(S, scales, sAt + 1 * L), FloatVector.fromArray(S, c, cAt + 1 * L))
                .intoArray(c, cAt + 1 * L);
        s2.add(t2)
                .fma(FloatVector.fromArray(S, scales, sAt + 2 * L), FloatVector.fromArray(S, c, cAt + 2 * L))
                .intoArray(c, cAt + 2 * L);
        s3.add(t3)
                .fma(FloatVector.fromArray(S, scales, sAt + 3 * L), FloatVector.fromArray(S, c, cAt + 3 * L))
                .intoArray(c, cAt + 3 * L);
    }

    private static void fourRowsInt8(
            float[] a,
            int aAt,
            int aStride,
            int depth,
            int[] w,
            int wAt,
            float[] c,
            int cAt,
            int cStride,
            float[] scales,
            int sAt) {
        int c0 = cAt + 0 * cStride;
        int c1 = cAt + 1 * cStride;
        int c2 = cAt + 2 * cStride;
        int c3 = cAt + 3 * cStride;
        FloatVector s00 = FloatVector.zero(S);
        FloatVector s01 = FloatVector.zero(S);
        FloatVector s02 = FloatVector.zero(S);
        FloatVector s03 = FloatVector.zero(S);
        FloatVector s10 = FloatVector.zero(S);
        FloatVector s11 = FloatVector.zero(S);
        FloatVector s12 = FloatVector.zero(S);
        FloatVector s13 = FloatVector.zero(S);
        FloatVector s20 = FloatVector.zero(S);
        FloatVector s21 = FloatVector.zero(S);
        FloatVector s22 = FloatVector.zero(S);
        FloatVector s23 = FloatVector.zero(S);
        FloatVector s30 = FloatVector.zero(S);
        FloatVector s31 = FloatVector.zero(S);
        FloatVector s32 = FloatVector.zero(S);
        FloatVector s33 = FloatVector.zero(S);
        int a0 = aAt + 0 * aStride;
        int a1 = aAt + 1 * aStride;
        int a2 = aAt + 2 * aStride;
        int a3 = aAt + 3 * aStride;
        for (int k = 0; k < depth; k++, wAt += INT8_ROW) {
            IntVector wq = IntVector.fromArray(INTS, w, wAt);
            FloatVector w0 = int8(wq, 0);
            FloatVector w1 = int8(wq, 1);
            FloatVector w2 = int8(wq, 2);
            FloatVector w3 = int8(wq, 3);
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
        }
        s00.fma(FloatVector.fromArray(S, scales, sAt + 0 * L), FloatVector.fromArray(S, c, c0 + 0 * L))
                .intoArray(c, c0 + 0 * L);
        s01.fma(FloatVector.fromArray(S, scales, sAt + 1 * L), FloatVector.fromArray(S, c, c0 + 1 * L))
                .intoArray(c, c0 + 1 * L);
        s02.fma(FloatVector.fromArray(S, scales, sAt + 2 * L), FloatVector.fromArray(S, c, c0 + 2 * L))
                .intoArray(c, c0 + 2 * L);
        s03.fma(FloatVector.fromArray(S, scales, sAt + 3 * L), FloatVector.fromArray(S, c, c0 + 3 * L))
                .intoArray(c, c0 + 3 * L);
        s10.fma(FloatVector.fromArray(S, scales, sAt + 0 * L), FloatVector.fromArray(S, c, c1 + 0 * L))
                .intoArray(c, c1 + 0 * L);
        s11.fma(FloatVector.fromArray(S, scales, sAt + 1 * L), FloatVector.fromArray(S, c, c1 + 1 * L))
                .intoArray(c, c1 + 1 * L);
        s12.fma(FloatVector.fromArray(S, scales, sAt + 2 * L), FloatVector.fromArray(S, c, c1 + 2 * L))
                .intoArray(c, c1 + 2 * L);
        s13.fma(FloatVector.fromArray(S, scales, sAt + 3 * L), FloatVector.fromArray(S, c, c1 + 3 * L))
                .intoArray(c, c1 + 3 * L);
        s20.fma(FloatVector.fromArray(S, scales, sAt + 0 * L), FloatVector.fromArray(S, c, c2 + 0 * L))
                .intoArray(c, c2 + 0 * L);
        s21.fma(FloatVector.fromArray(S, scales, sAt + 1 * L), FloatVector.fromArray(S, c, c2 + 1 * L))
                .intoArray(c, c2 + 1 * L);
        s22.fma(FloatVector.fromArray(S, scales, sAt + 2 * L), FloatVector.fromArray(S, c, c2 + 2 * L))
                .intoArray(c, c2 + 2 * L);
        s23.fma(FloatVector.fromArray(S, scales, sAt + 3 * L), FloatVector.fromArray(S, c, c2 + 3 * L))
                .intoArray(c, c2 + 3 * L);
        s30.fma(FloatVector.fromArray(S, scales, sAt + 0 * L), FloatVector.fromArray(S, c, c3 + 0 * L))
                .intoArray(c, c3 + 0 * L);
        s31.fma(FloatVector.fromArray(S, scales, sAt + 1 * L), FloatVector.fromArray(S, c, c3 + 1 * L))
                .intoArray(c, c3 + 1 * L);
        s32.fma(FloatVector.fromArray(S, scales, sAt + 2 * L), FloatVector.fromArray(S, c, c3 + 2 * L))
                .intoArray(c, c3 + 2 * L);
        s33.fma(FloatVector.fromArray(S, scales, sAt + 3 * L), FloatVector.fromArray(S, c, c3 + 3 * L))
                .intoArray(c, c3 + 3 * L);
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
