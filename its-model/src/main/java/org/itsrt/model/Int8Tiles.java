package org.itsrt.model;

import static org.itsrt.model.TileShape.INTS;
import static org.itsrt.model.TileShape.L;
import static org.itsrt.model.TileShape.S;
import static org.itsrt.model.TileShape.TILE_WIDTH;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;

/**
 * {@link VectorMath}'s multiply for int8 weights with per-column scales
 * ({@link WeightPrecision#INT8}): a quarter of float32's bytes. The sums start at zero and meet
 * the scale once, at the end, so the loops differ from {@link Float32Tiles}'s beyond the
 * widening, and they are kept apart from the other precisions so that each can be changed and
 * measured on its own.
 *
 * <p>No six-row kernel: C1 could not compile one (out of virtual registers), and a method that
 * fails at C1's profiling tier stays at its non-profiling tier and never reaches C2.
 */
final class Int8Tiles {
    /** Ints per tile row of int8 weights: four weights to an int. */
    private static final int INT8_ROW = TILE_WIDTH / 4;

    private Int8Tiles() {}

    /** The int8 weights in byte {@code which} of each lane of {@code quads}, sign-extended, as floats (unscaled). */
    private static FloatVector int8(IntVector quads, int which) {
        IntVector top = which == 3 ? quads : quads.lanewise(VectorOperators.LSHL, 24 - 8 * which);
        return (FloatVector) top.lanewise(VectorOperators.ASHR, 24).convert(VectorOperators.I2F, 0);
    }

    static void multiplyAdd(
            float[] a, int aOffset, int aStride, int rows, PackedMatrix b, float[] c, int cOffset, int cStride) {
        int depth = b.rows();
        int[] w = b.packed();
        for (int tile = 0; tile < b.tiles(); tile++) {
            int tileBase = b.tileStart(tile);
            int col = tile * TILE_WIDTH;
            int r = 0;
            for (; r + 4 <= rows; r += 4) {
                fourRows(
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
                oneRow(a, aOffset + r * aStride, depth, w, tileBase, c, cOffset + r * cStride + col, b.scales(), col);
            }
        }
    }

    private static void oneRow(
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

    private static void fourRows(
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
}
