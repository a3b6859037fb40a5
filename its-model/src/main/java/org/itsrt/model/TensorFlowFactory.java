package org.itsrt.model;

import java.nio.file.Path;
import org.tensorflow.SavedModelBundle;
import org.tensorflow.Signature;
import org.tensorflow.proto.ConfigProto;

/**
 * The SavedModel loaded into one TensorFlow session, shared by its predictors (a TensorFlow
 * session may run calls from several threads at once).
 */
final class TensorFlowFactory extends PredictorFactoryBase {
    private final SavedModelBundle savedModel;
    private final String inputTensor;
    private final String outputTensor;

    private TensorFlowFactory(
            ModelBundle bundle, SavedModelBundle savedModel, String inputTensor, String outputTensor) {
        super(bundle);
        this.savedModel = savedModel;
        this.inputTensor = inputTensor;
        this.outputTensor = outputTensor;
    }

    static TensorFlowFactory load(ModelBundle bundle, PredictorOptions options) {
        ConfigProto config = ConfigProto.newBuilder()
                .setIntraOpParallelismThreads(options.tensorFlowIntraOpThreads())
                .setInterOpParallelismThreads(options.tensorFlowInterOpThreads())
                .build();
        Path dir = bundle.savedModel();
        SavedModelBundle savedModel = SavedModelLoader.load(dir, config);
        try {
            ModelSpec.Signature expected = bundle.signature();
            SavedModelLoader.checkServingInput(savedModel, dir, bundle.model(), expected);
            Signature signature = SavedModelLoader.signature(savedModel, dir, expected.name());
            Signature.TensorDescription input = signature.getInputs().get(expected.input());
            Signature.TensorDescription output = signature.getOutputs().get(expected.output());
            if (input == null || output == null) {
                throw new ModelBundleException(
                        dir,
                        "signature '" + expected.name() + "' has inputs "
                                + signature.inputNames() + " and outputs " + signature.outputNames()
                                + "; model.json expects input '" + expected.input() + "' and output '"
                                + expected.output() + "'");
            }
            return new TensorFlowFactory(bundle, savedModel, input.name, output.name);
        } catch (RuntimeException e) {
            savedModel.close();
            throw e;
        }
    }

    @Override
    public Engine engine() {
        return Engine.TENSORFLOW;
    }

    @Override
    FlowPredictor create(AutoCloseable owner) {
        return new TensorFlowPredictor(bundle(), savedModel.session(), inputTensor, outputTensor, owner);
    }

    @Override
    public void close() {
        savedModel.close();
    }
}
