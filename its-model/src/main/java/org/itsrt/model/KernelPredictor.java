package org.itsrt.model;

import java.util.Arrays;

/**
 * The LSTM forward pass on the JVM. Not thread-safe: it owns the buffers of one computation,
 * sized for the largest batch seen so far, so a batch no larger than that allocates nothing.
 *
 * <p>Each LSTM first projects its whole input sequence at once ({@code x_t W + b} for every step,
 * one pass over {@code W}), then runs the steps, adding {@code h_(t-1) U} in place.
 */
final class KernelPredictor extends EncodingPredictor {
    private final KernelNetwork network;
    private final Engine engine;
    private final KernelMath math;
    private final KernelLayer[] layers;
    private final int window;
    private final int features;
    private final int widestGates;
    private final int widestUnits;

    private int capacity;
    private float[] gates;
    private float[] cell;
    private float[][] outputs;

    KernelPredictor(ModelBundle bundle, KernelNetwork network, Engine engine, AutoCloseable owner) {
        super(bundle, owner);
        this.network = network;
        this.engine = engine;
        this.math = network.math();
        this.layers = network.layers().toArray(new KernelLayer[0]);
        this.window = network.window();
        this.features = network.features();
        int gatesWidth = 0;
        int units = 0;
        for (KernelLayer layer : layers) {
            if (layer instanceof KernelLayer.Lstm lstm) {
                gatesWidth = Math.max(gatesWidth, lstm.kernel().paddedCols());
                units = Math.max(units, lstm.units());
            }
        }
        this.widestGates = gatesWidth;
        this.widestUnits = units;
        allocate(1);
    }

    @Override
    public Engine engine() {
        return engine;
    }

    /** How the kernel computes, e.g. "Vector API, 512-bit" or "scalar". */
    String mathDescription() {
        return math.description();
    }

    private void allocate(int batch) {
        capacity = batch;
        gates = new float[batch * window * widestGates];
        cell = new float[batch * widestUnits];
        outputs = new float[layers.length][];
        for (int i = 0; i < layers.length; i++) {
            outputs[i] = layers[i] instanceof KernelLayer.Lstm lstm
                    ? new float[batch * (lstm.returnSequences() ? window : 1) * lstm.units()]
                    : new float[batch * ((KernelLayer.Dense) layers[i]).kernel().paddedCols()];
        }
    }

    @Override
    public void predictScaled(float[] scaledInputs, int count, float[] scaledOut) {
        checkInput(scaledInputs, count, scaledOut);
        if (count > capacity) {
            allocate(count);
        }
        float[] in = scaledInputs;
        int inStride = features;
        for (int i = 0; i < layers.length; i++) {
            float[] out = outputs[i];
            if (layers[i] instanceof KernelLayer.Lstm lstm) {
                runLstm(lstm, in, inStride, count, out);
                inStride = lstm.units();
            } else {
                KernelLayer.Dense dense = (KernelLayer.Dense) layers[i];
                runDense(dense, in, inStride, count, out);
                inStride = dense.kernel().paddedCols();
            }
            in = out;
        }
        for (int n = 0; n < count; n++) {
            scaledOut[n] = in[n * inStride];
        }
    }

    /**
     * {@code in} holds {@code count} sequences of {@code window} rows; writes {@code out} as
     * {@code count} sequences of h (return_sequences) or {@code count} last h.
     */
    private void runLstm(KernelLayer.Lstm lstm, float[] in, int inStride, int count, float[] out) {
        int units = lstm.units();
        int width = lstm.kernel().paddedCols();
        int rows = count * window;
        for (int row = 0; row < rows; row++) {
            System.arraycopy(lstm.bias(), 0, gates, row * width, width);
        }
        math.multiplyAdd(in, 0, inStride, rows, lstm.kernel(), gates, 0, width);
        Arrays.fill(cell, 0, count * units, 0f);
        boolean sequences = lstm.returnSequences();
        // Where h of window n at step t goes: its own row of the sequence, or one row per window.
        int hStride = sequences ? window * units : units;
        int hStep = sequences ? units : 0;
        for (int t = 0; t < window; t++) {
            if (t > 0) {
                math.multiplyAdd(
                        out, (t - 1) * hStep, hStride, count, lstm.recurrent(), gates, t * width, window * width);
            }
            for (int n = 0; n < count; n++) {
                math.lstmCell(gates, (n * window + t) * width, units, cell, n * units, out, n * hStride + t * hStep);
            }
        }
    }

    private void runDense(KernelLayer.Dense dense, float[] in, int inStride, int count, float[] out) {
        int width = dense.kernel().paddedCols();
        for (int n = 0; n < count; n++) {
            System.arraycopy(dense.bias(), 0, out, n * width, width);
        }
        math.multiplyAdd(in, 0, inStride, count, dense.kernel(), out, 0, width);
        if (dense.relu()) {
            for (int n = 0; n < count; n++) {
                for (int j = n * width, end = j + dense.units(); j < end; j++) {
                    out[j] = Math.max(out[j], 0f);
                }
            }
        }
    }

    /** Predictors of one factory share this network. */
    KernelNetwork network() {
        return network;
    }
}
