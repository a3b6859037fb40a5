package org.itsrt.model;

/**
 * A loaded model from which independent predictors are made cheaply: they share the read-only
 * weights (or TensorFlow session) and own only their buffers. Close the factory after its
 * predictors; they must not be used afterwards.
 */
public interface FlowPredictorFactory extends AutoCloseable {

    Engine engine();

    ModelBundle bundle();

    /** A new predictor for one thread. */
    FlowPredictor newPredictor();

    @Override
    void close();
}
