package org.itsrt.model;

final class LinearFactory extends PredictorFactoryBase {

    LinearFactory(ModelBundle bundle) {
        super(bundle);
    }

    @Override
    public Engine engine() {
        return Engine.LINEAR;
    }

    @Override
    FlowPredictor create(AutoCloseable owner) {
        return new LinearPredictor(bundle(), owner);
    }
}
