package org.itsrt.model;

/** Lets {@link FlowPredictors#open} hand out a predictor that closes its own factory. */
abstract class PredictorFactoryBase implements FlowPredictorFactory {
    private final ModelBundle bundle;

    PredictorFactoryBase(ModelBundle bundle) {
        this.bundle = bundle;
    }

    @Override
    public ModelBundle bundle() {
        return bundle;
    }

    @Override
    public FlowPredictor newPredictor() {
        return create(null);
    }

    /** @param owner closed when the predictor is, or null */
    abstract FlowPredictor create(AutoCloseable owner);

    @Override
    public void close() {}
}
