package org.itsrt.model;

import java.util.List;

/**
 * What the engines share: encoding windows into a reusable input buffer and unscaling the output.
 * Engines implement {@link #predictScaled(float[], int, float[])}.
 */
abstract class EncodingPredictor implements FlowPredictor {
    private final ModelBundle bundle;
    private final FeatureEncoder encoder;
    private final FeatureRange flow;
    private final AutoCloseable owner;
    private final float[] single;
    private final float[] singleOut = new float[1];
    private float[] batch = new float[0];
    private boolean closed;

    /** @param owner closed with this predictor (the factory of a predictor that has it alone), or null */
    EncodingPredictor(ModelBundle bundle, AutoCloseable owner) {
        this.bundle = bundle;
        this.encoder = new FeatureEncoder(bundle.model(), bundle.scaler());
        this.flow = bundle.scaler().flow();
        this.owner = owner;
        this.single = new float[encoder.inputWidth()];
    }

    @Override
    public ModelBundle bundle() {
        return bundle;
    }

    @Override
    public float predict(ReadingWindow window) {
        encoder.encode(window, single, 0);
        return (float) flow.unscale(predictScaled(single));
    }

    @Override
    public void predict(List<ReadingWindow> windows, float[] out) {
        int count = windows.size();
        checkOut(out, count);
        int width = encoder.inputWidth();
        if (batch.length < count * width) {
            batch = new float[count * width];
        }
        for (int i = 0; i < count; i++) {
            encoder.encode(windows.get(i), batch, i * width);
        }
        predictScaled(batch, count, out);
        for (int i = 0; i < count; i++) {
            out[i] = (float) flow.unscale(out[i]);
        }
    }

    @Override
    public float predictScaled(float[] scaledInput) {
        predictScaled(scaledInput, 1, singleOut);
        return singleOut[0];
    }

    final int inputWidth() {
        return encoder.inputWidth();
    }

    final void checkInput(float[] scaledInputs, int count, float[] scaledOut) {
        if (count < 0 || scaledInputs.length < count * inputWidth()) {
            throw new IllegalArgumentException(
                    count + " windows need " + count * inputWidth() + " input floats, found " + scaledInputs.length);
        }
        checkOut(scaledOut, count);
        if (closed) {
            throw new IllegalStateException("the " + engine() + " predictor is closed");
        }
    }

    private static void checkOut(float[] out, int count) {
        if (out.length < count) {
            throw new IllegalArgumentException(count + " predictions do not fit an output of " + out.length);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (owner != null) {
            try {
                owner.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the " + engine() + " model failed", e);
            }
        }
    }
}
