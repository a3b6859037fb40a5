package org.itsrt.model;

/** The bundle's linear regression: the cheap fallback engine. */
final class LinearPredictor extends EncodingPredictor {
    private final LinearModel linear;

    LinearPredictor(ModelBundle bundle, AutoCloseable owner) {
        super(bundle, owner);
        this.linear = bundle.linear();
    }

    @Override
    public Engine engine() {
        return Engine.LINEAR;
    }

    @Override
    public void predictScaled(float[] scaledInputs, int count, float[] scaledOut) {
        checkInput(scaledInputs, count, scaledOut);
        int width = inputWidth();
        for (int i = 0; i < count; i++) {
            scaledOut[i] = (float) linear.predictScaled(scaledInputs, i * width);
        }
    }
}
