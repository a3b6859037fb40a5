package org.itsrt.model;

import java.util.ArrayList;
import java.util.List;

/**
 * A weight matrix {@code [rows, cols]} repacked for {@link VectorMath}: columns are cut into
 * tiles of {@code tileWidth} (the last one zero-padded) and each tile is stored whole, row after
 * row, so that a multiply streams through memory in order instead of striding over full rows.
 * All matrices of a network share one array, each starting where the one before ends: on a
 * whole tile row, so that no vector load crosses a cache line.
 *
 * <p>The weights are stored in one {@link WeightPrecision}: float32 in {@link #data()}, or
 * bfloat16 and int8 several to an int in {@link #packed()} (int8 with per-column
 * {@link #scales()}). A tile row is four vectors of {@code tileWidth / 4} columns; in the
 * narrow forms, int {@code i} of a row holds lane {@code i} of two vectors (bfloat16: vector 0
 * in the low half, 1 in the high half, then vectors 2 and 3 in the next {@code tileWidth / 4}
 * ints) or of all four (int8: vector {@code v} in byte {@code v}). So one int load and a shift or
 * mask per vector widen them to float32 lanes in place, with no lane crossing.
 */
final class PackedMatrix implements WeightMatrix {
    /**
     * Where the first matrix starts in the shared array. The array is made large enough for G1
     * to place it at the start of a heap region ({@link G1Regions}), 16 bytes of array header
     * before element 0; starting 48 bytes in puts every 64-byte vector load on one cache line
     * instead of two, which makes the kernel about 1.5 times as fast. Under another collector
     * the array lies where it may.
     */
    static final int FIRST = 12;

    private static final int ALIGN = 16;

    private final WeightPrecision precision;
    private final int rows;
    private final int cols;
    private final int tileWidth;
    private final int tiles;
    /** Array elements per tile row: {@code tileWidth} floats, or as many ints as hold its narrow weights. */
    private final int rowLength;

    private final float[] data;
    private final int[] packed;
    private final float[] scales;
    private final int start;

    private PackedMatrix(
            WeightPrecision precision, int rows, int cols, int tileWidth, float[] data, int[] packed, int start) {
        this.precision = precision;
        this.rows = rows;
        this.cols = cols;
        this.tileWidth = tileWidth;
        this.tiles = tiles(cols, tileWidth);
        this.rowLength = tileWidth * precision.bytes() / Float.BYTES;
        this.data = data;
        this.packed = packed;
        this.scales = precision == WeightPrecision.INT8 ? new float[tiles * tileWidth] : null;
        this.start = start;
    }

    /** Packs the float32 matrices, in order, into one shared array. */
    static List<WeightMatrix> packAll(List<RowMajorMatrix> matrices, int tileWidth) {
        return packAll(matrices, tileWidth, WeightPrecision.FP32);
    }

    /** Packs the matrices, in order, into one shared array of {@code precision}'s weights. */
    static List<WeightMatrix> packAll(List<RowMajorMatrix> matrices, int tileWidth, WeightPrecision precision) {
        if (tileWidth % ALIGN != 0) {
            throw new IllegalArgumentException("tile width " + tileWidth + " is not a multiple of " + ALIGN);
        }
        int size = FIRST;
        for (RowMajorMatrix matrix : matrices) {
            size += tiles(matrix.cols(), tileWidth) * matrix.rows() * tileWidth * precision.bytes() / Float.BYTES;
        }
        int length = Math.max(size, G1Regions.humongousFloats());
        float[] data = precision == WeightPrecision.FP32 ? new float[length] : null;
        int[] narrow = precision == WeightPrecision.FP32 ? null : new int[length];
        List<WeightMatrix> packed = new ArrayList<>();
        int start = FIRST;
        for (RowMajorMatrix matrix : matrices) {
            PackedMatrix p = new PackedMatrix(precision, matrix.rows(), matrix.cols(), tileWidth, data, narrow, start);
            p.copyFrom(matrix.values());
            packed.add(p);
            start += p.tiles * p.rows * p.rowLength;
        }
        return packed;
    }

    private void copyFrom(float[] rowMajor) {
        if (precision == WeightPrecision.INT8) {
            System.arraycopy(WeightPrecision.int8Scales(rowMajor, rows, cols), 0, scales, 0, cols);
        }
        for (int tile = 0; tile < tiles; tile++) {
            int firstCol = tile * tileWidth;
            int width = Math.min(tileWidth, cols - firstCol);
            for (int row = 0; row < rows; row++) {
                int from = row * cols + firstCol;
                int to = tileStart(tile) + row * rowLength;
                if (precision == WeightPrecision.FP32) {
                    System.arraycopy(rowMajor, from, data, to, width);
                    continue;
                }
                for (int j = 0; j < width; j++) {
                    float weight = rowMajor[from + j];
                    int[] place = place(j);
                    int bits = precision == WeightPrecision.BF16
                            ? WeightPrecision.toBf16(weight) & 0xFFFF
                            : WeightPrecision.toInt8(weight, scales[firstCol + j]) & 0xFF;
                    packed[to + place[0]] |= bits << place[1];
                }
            }
        }
    }

    /** Where column {@code j} of a tile row lies in the narrow forms: {int within the row, bit shift}. */
    private int[] place(int j) {
        int lanes = tileWidth / 4;
        int vector = j / lanes;
        int lane = j % lanes;
        return precision == WeightPrecision.BF16
                ? new int[] {(vector / 2) * lanes + lane, 16 * (vector % 2)}
                : new int[] {lane, 8 * vector};
    }

    private static int tiles(int cols, int tileWidth) {
        return (cols + tileWidth - 1) / tileWidth;
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    /** Columns including the zero padding of the last tile. */
    @Override
    public int paddedCols() {
        return tiles * tileWidth;
    }

    WeightPrecision precision() {
        return precision;
    }

    int tileWidth() {
        return tileWidth;
    }

    int tiles() {
        return tiles;
    }

    /** The shared float32 array (null unless FP32); tile {@code t} occupies {@code rows * tileWidth} floats from {@link #tileStart}. */
    float[] data() {
        return data;
    }

    /** The shared array of bfloat16 or int8 weights (null for FP32), several to an int as the class comment says. */
    int[] packed() {
        return packed;
    }

    /** Array elements from one row of a tile to the next. */
    int rowLength() {
        return rowLength;
    }

    /** INT8 only: the scale of each column, {@link #paddedCols()} long (0 in the padding). */
    float[] scales() {
        return scales;
    }

    /** Where tile {@code tile} starts in the shared array: its row {@code r} follows at {@code r * rowLength()}. */
    int tileStart(int tile) {
        return start + tile * rows * rowLength;
    }

    /** The weight at {@code [row, col]} as float32, as the multiply uses it (int8: before its column's scale). */
    float storedWeight(int row, int col) {
        int rowAt = tileStart(col / tileWidth) + row * rowLength;
        if (precision == WeightPrecision.FP32) {
            return data[rowAt + col % tileWidth];
        }
        int[] place = place(col % tileWidth);
        int bits = packed[rowAt + place[0]] >>> place[1];
        return precision == WeightPrecision.BF16 ? WeightPrecision.fromBf16((short) bits) : (byte) bits;
    }
}
