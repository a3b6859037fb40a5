package org.itsrt.predict;

import java.util.ArrayList;
import java.util.List;

/**
 * A weight matrix {@code [rows, cols]} repacked for {@link VectorMath}: columns are cut into
 * tiles of {@code tileWidth} (the last one zero-padded) and each tile is stored whole, row after
 * row, so that a multiply streams through memory in order instead of striding over full rows.
 * All matrices of a network share one array, each starting on a multiple of 16 floats.
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

    private final int rows;
    private final int cols;
    private final int tileWidth;
    private final int tiles;
    private final float[] data;
    private final int start;

    private PackedMatrix(int rows, int cols, int tileWidth, float[] data, int start) {
        this.rows = rows;
        this.cols = cols;
        this.tileWidth = tileWidth;
        this.tiles = tiles(cols, tileWidth);
        this.data = data;
        this.start = start;
    }

    /** Packs the matrices, in order, into one shared array. */
    static List<WeightMatrix> packAll(List<RowMajorMatrix> matrices, int tileWidth) {
        if (tileWidth % ALIGN != 0) {
            throw new IllegalArgumentException("tile width " + tileWidth + " is not a multiple of " + ALIGN);
        }
        int size = FIRST;
        for (RowMajorMatrix matrix : matrices) {
            size += tiles(matrix.cols(), tileWidth) * matrix.rows() * tileWidth;
        }
        float[] data = new float[Math.max(size, G1Regions.humongousFloats())];
        List<WeightMatrix> packed = new ArrayList<>();
        int start = FIRST;
        for (RowMajorMatrix matrix : matrices) {
            PackedMatrix p = new PackedMatrix(matrix.rows(), matrix.cols(), tileWidth, data, start);
            p.copyFrom(matrix.values());
            packed.add(p);
            start += p.tiles * p.rows * tileWidth;
        }
        return packed;
    }

    private void copyFrom(float[] rowMajor) {
        for (int tile = 0; tile < tiles; tile++) {
            int firstCol = tile * tileWidth;
            int width = Math.min(tileWidth, cols - firstCol);
            for (int row = 0; row < rows; row++) {
                System.arraycopy(rowMajor, row * cols + firstCol, data, tileStart(tile) + row * tileWidth, width);
            }
        }
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

    int tileWidth() {
        return tileWidth;
    }

    int tiles() {
        return tiles;
    }

    /** The shared array; tile {@code t} occupies {@code rows * tileWidth} floats from {@link #tileStart}. */
    float[] data() {
        return data;
    }

    /** Where tile {@code tile} starts in {@link #data()}: its row {@code r} follows at {@code r * tileWidth}. */
    int tileStart(int tile) {
        return start + tile * rows * tileWidth;
    }
}
