package org.itsrt.model;

/**
 * How the kernel stores its weight matrices (biases stay float32). Fewer bytes per weight mean
 * fewer bytes streamed per call: at batch 1 the kernel reads every weight once or twelve times
 * and does one multiply-add per weight read, so its time follows the bytes, and bfloat16 puts
 * the shipped model's largest matrix (layer 1's recurrent weights, 1 MB in float32) within a
 * 1 MB L2. Arithmetic stays float32 in every precision: weights are widened in registers.
 */
enum WeightPrecision {
    /** Keras' float32 weights as they are: the exact reference. */
    FP32(Float.BYTES),
    /**
     * bfloat16: the upper 16 bits of the float32, rounded to nearest even; 8 significant bits,
     * a relative error of at most 2^-9 per weight, the float32 exponent range.
     */
    BF16(Short.BYTES),
    /**
     * Signed 8-bit integers with one float32 scale per output column ({@code max |w| / 127} over
     * the column), symmetric, rounded to nearest: an absolute error of at most half a scale step
     * per weight. The scale multiplies the column's sum once, after the multiply-adds.
     */
    INT8(Byte.BYTES);

    private final int bytes;

    WeightPrecision(int bytes) {
        this.bytes = bytes;
    }

    /** Bytes per stored weight. */
    int bytes() {
        return bytes;
    }

    /** bfloat16 bits of {@code value}, rounded to nearest even (NaN stays a NaN). */
    static short toBf16(float value) {
        int bits = Float.floatToRawIntBits(value);
        if (Float.isNaN(value)) {
            return (short) ((bits >>> 16) | 0x40);
        }
        int roundingBias = 0x7FFF + ((bits >>> 16) & 1);
        return (short) ((bits + roundingBias) >>> 16);
    }

    /** The float32 that bfloat16 bits stand for: exact, the low 16 bits zero. */
    static float fromBf16(short bits) {
        return Float.intBitsToFloat(bits << 16);
    }

    /** Per column of a row-major {@code [rows, cols]} matrix: {@code max |w| / 127}, 0 for an all-zero column. */
    static float[] int8Scales(float[] rowMajor, int rows, int cols) {
        float[] scales = new float[cols];
        for (int row = 0; row < rows; row++) {
            for (int col = 0; col < cols; col++) {
                scales[col] = Math.max(scales[col], Math.abs(rowMajor[row * cols + col]));
            }
        }
        for (int col = 0; col < cols; col++) {
            scales[col] /= 127f;
        }
        return scales;
    }

    /** {@code value / scale} rounded to the nearest integer in [-127, 127]; 0 where the scale is 0. */
    static byte toInt8(float value, float scale) {
        if (scale == 0f) {
            return 0;
        }
        return (byte) Math.max(-127, Math.min(127, Math.round(value / scale)));
    }

    /**
     * The matrix with every weight replaced by the float32 this precision stores for it, e.g. for
     * the scalar math, which computes on float32 rows.
     */
    RowMajorMatrix rounded(RowMajorMatrix matrix) {
        float[] values = matrix.values().clone();
        switch (this) {
            case FP32 -> {
                return matrix;
            }
            case BF16 -> {
                for (int i = 0; i < values.length; i++) {
                    values[i] = fromBf16(toBf16(values[i]));
                }
            }
            case INT8 -> {
                float[] scales = int8Scales(values, matrix.rows(), matrix.cols());
                for (int i = 0; i < values.length; i++) {
                    float scale = scales[i % matrix.cols()];
                    values[i] = toInt8(values[i], scale) * scale;
                }
            }
        }
        return new RowMajorMatrix(values, matrix.rows(), matrix.cols());
    }
}
