package org.itsrt.model;

/** Loads the weights once; each predictor adds only its own buffers. */
final class KernelFactory extends PredictorFactoryBase {
    private final KernelNetwork network;
    private final Engine engine;

    private KernelFactory(ModelBundle bundle, KernelNetwork network, Engine engine) {
        super(bundle);
        this.network = network;
        this.engine = engine;
    }

    static KernelFactory load(ModelBundle bundle, PredictorOptions options) {
        KernelNetwork.checkLayers(bundle);
        SavedModelWeights weights = SavedModelWeights.read(bundle);
        KernelMath math = KernelMathSelector.select(options.kernelVectorApi());
        Engine engine = options.engine();
        return new KernelFactory(bundle, KernelNetwork.build(bundle, weights, math, engine.kernelWeights()), engine);
    }

    @Override
    public Engine engine() {
        return engine;
    }

    @Override
    FlowPredictor create(AutoCloseable owner) {
        return new KernelPredictor(bundle(), network, engine, owner);
    }
}
