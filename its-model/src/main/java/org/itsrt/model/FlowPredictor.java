package org.itsrt.model;

import java.util.Arrays;
import java.util.List;

/**
 * Predicts the next interval's flow of a detector from its last readings. An instance is not
 * thread-safe: give each thread (each Flink subtask) its own, from a {@link FlowPredictorFactory}.
 * Predictions are vehicles per interval on the original scale unless the method says "scaled".
 */
public interface FlowPredictor extends AutoCloseable {

    Engine engine();

    ModelBundle bundle();

    /** The next interval's flow (veh/5 min) after {@code window}. */
    float predict(ReadingWindow window);

    /** Writes the prediction for {@code windows.get(i)} to {@code out[i]}; one model call for all. */
    void predict(List<ReadingWindow> windows, float[] out);

    default void predict(ReadingWindow[] windows, float[] out) {
        predict(Arrays.asList(windows), out);
    }

    /**
     * The model's output on the scaled axis for one encoded window ({@link FeatureEncoder}):
     * {@code window * features} floats, oldest reading first, feature-major within a reading.
     */
    float predictScaled(float[] scaledInput);

    /** Scaled outputs of {@code count} encoded windows laid out one after another in {@code scaledInputs}. */
    void predictScaled(float[] scaledInputs, int count, float[] scaledOut);

    /** Frees what the engine holds (TensorFlow's native session); a closed predictor predicts no more. */
    @Override
    void close();
}
