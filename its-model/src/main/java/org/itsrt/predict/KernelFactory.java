package org.itsrt.predict;

/** Loads the weights once; each predictor adds only its own buffers. */
final class KernelFactory extends PredictorFactoryBase {
    private final KernelNetwork network;

    private KernelFactory(ModelBundle bundle, KernelNetwork network) {
        super(bundle);
        this.network = network;
    }

    static KernelFactory load(ModelBundle bundle, PredictorOptions options) {
        SavedModelWeights weights = SavedModelWeights.read(bundle.savedModel(), bundle.model());
        KernelMath math = KernelMathSelector.select(options.kernelVectorApi());
        return new KernelFactory(bundle, KernelNetwork.build(bundle, weights, math));
    }

    @Override
    public Engine engine() {
        return Engine.KERNEL;
    }

    @Override
    FlowPredictor create(AutoCloseable owner) {
        return new KernelPredictor(bundle(), network, owner);
    }
}
