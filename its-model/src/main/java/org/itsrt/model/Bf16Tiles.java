package org.itsrt.model;

import static org.itsrt.model.TileShape.INTS;
import static org.itsrt.model.TileShape.L;
import static org.itsrt.model.TileShape.S;
import static org.itsrt.model.TileShape.TILE_WIDTH;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;

/**
 * {@link VectorMath}'s multiply for bfloat16 weights ({@link WeightPrecision#BF16}): the loops of
 * {@link Float32Tiles}, row block for row block, with each tile row's weights widened from ints
 * in registers right after their load, so that a call streams half the bytes. Kept apart from
 * the other precisions so that each can be changed and measured on its own.
 */
final class Bf16Tiles {
    /** Ints per tile row of bfloat16 weights: two weights to an int. */
    private static final int BF16_ROW = TILE_WIDTH / 2;

    private Bf16Tiles() {}

    /** The bfloat16 weights in the low halves of {@code pairs}, as floats: shifted into the upper half. */
    private static FloatVector lowBf16(IntVector pairs) {
        return pairs.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
    }

    /** The bfloat16 weights in the high halves of {@code pairs}, as floats: the low half cleared. */
    private static FloatVector highBf16(IntVector pairs) {
        return pairs.lanewise(VectorOperators.AND, 0xFFFF0000).reinterpretAsFloats();
    }

    static void multiplyAdd(
            float[] a, int aOffset, int aStride, int rows, PackedMatrix b, float[] c, int cOffset, int cStride) {
        int depth = b.rows();
        int[] w = b.packed();
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

    private static void oneRow(float[] a, int aAt, int depth, int[] w, int wAt, float[] c, int cAt) {
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

    private static void sixRows(
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

    private static void fourRows(
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
}
