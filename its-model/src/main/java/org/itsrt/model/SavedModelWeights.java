package org.itsrt.model;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.tensorflow.Result;
import org.tensorflow.SavedModelBundle;
import org.tensorflow.Tensor;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.proto.ConfigProto;
import org.tensorflow.types.TFloat32;

/**
 * Reads every weight of a SavedModel through its {@code weights} signature, then closes the
 * TensorFlow session: the kernel needs TensorFlow only while it loads.
 */
final class SavedModelWeights {
    static final String SIGNATURE = "weights";

    private final Path savedModel;
    private final Map<String, Weight> weights;

    /** One weight, row-major. */
    record Weight(long[] shape, float[] values) {}

    private SavedModelWeights(Path savedModel, Map<String, Weight> weights) {
        this.savedModel = savedModel;
        this.weights = weights;
    }

    /**
     * Reads the weights, after checking that the serving signature takes the input model.json
     * describes (the kernel runs the weights, but a SavedModel trained on another window or other
     * features would give wrong predictions without any shape disagreeing).
     */
    static SavedModelWeights read(ModelBundle bundle) {
        Path savedModel = bundle.savedModel();
        ModelSpec.Signature serving = bundle.signature();
        ConfigProto oneThread = ConfigProto.newBuilder()
                .setIntraOpParallelismThreads(1)
                .setInterOpParallelismThreads(1)
                .build();
        Map<String, Weight> weights = new HashMap<>();
        try (SavedModelBundle loaded = SavedModelLoader.load(savedModel, oneThread)) {
            SavedModelLoader.checkServingInput(loaded, savedModel, bundle.model(), serving);
            SavedModelLoader.signature(loaded, savedModel, SIGNATURE);
            try (Result result = loaded.function(SIGNATURE).call(Map.of())) {
                for (Map.Entry<String, Tensor> output : result) {
                    if (!(output.getValue() instanceof TFloat32 tensor)) {
                        throw new ModelBundleException(
                                savedModel,
                                "weight '" + output.getKey() + "' is "
                                        + output.getValue().dataType() + ", expected float32");
                    }
                    float[] values = new float[Math.toIntExact(tensor.shape().size())];
                    tensor.copyTo(DataBuffers.of(values, false, false));
                    weights.put(output.getKey(), new Weight(tensor.shape().asArray(), values));
                }
            }
        }
        return new SavedModelWeights(savedModel, weights);
    }

    /**
     * The weight {@code name} as a row-major array of the given shape.
     *
     * @throws ModelBundleException when the signature has no such output or its shape differs
     */
    float[] get(String name, long... shape) {
        Weight weight = weights.get(name);
        if (weight == null) {
            throw new ModelBundleException(
                    savedModel,
                    "signature '" + SIGNATURE + "' has no output '" + name + "'; it has "
                            + weights.keySet().stream().sorted().toList());
        }
        if (!Arrays.equals(weight.shape(), shape)) {
            throw new ModelBundleException(
                    savedModel,
                    "weight '" + name + "' has shape " + Arrays.toString(weight.shape()) + "; model.json implies "
                            + Arrays.toString(shape));
        }
        return weight.values();
    }
}
