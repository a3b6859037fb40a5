package org.itsrt.model;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The model's layers with weights read from the SavedModel and packed for one {@link KernelMath}.
 * Read-only after construction, so one network serves any number of {@link KernelPredictor}s.
 */
final class KernelNetwork {
    private final KernelMath math;
    private final List<KernelLayer> layers;
    private final int window;
    private final int features;

    private KernelNetwork(KernelMath math, List<KernelLayer> layers, int window, int features) {
        this.math = math;
        this.layers = List.copyOf(layers);
        this.window = window;
        this.features = features;
    }

    /**
     * Refuses, before any weight is read, a model.json that lists no layers or a layer type the
     * kernel does not run.
     *
     * @throws ModelBundleException naming model.json and the layer
     */
    static void checkLayers(ModelBundle bundle) {
        Path modelJson = bundle.directory().resolve(ModelBundle.MODEL_JSON);
        if (bundle.model().layers().isEmpty()) {
            throw new ModelBundleException(
                    modelJson,
                    "layers: missing; the kernel engines run the network model.json's layers describe "
                            + "(the onnx and tensorflow engines read it from the graph)");
        }
        for (LayerSpec spec : bundle.model().layers()) {
            if (spec.type() == LayerSpec.Type.GRU) {
                throw unsupported(
                        modelJson,
                        spec,
                        "a gru layer; the kernel engines run lstm and dense layers (engine onnx or tensorflow runs this model)");
            }
        }
    }

    /**
     * Checks that model.json lists layers the kernel can run (LSTMs that pass sequences on, then
     * dense layers down to one output) and packs their weights.
     */
    static KernelNetwork build(ModelBundle bundle, SavedModelWeights weights, KernelMath math) {
        return build(bundle, weights, math, WeightPrecision.FP32);
    }

    /** As {@link #build(ModelBundle, SavedModelWeights, KernelMath)}, the weight matrices stored in {@code precision}. */
    static KernelNetwork build(
            ModelBundle bundle, SavedModelWeights weights, KernelMath math, WeightPrecision precision) {
        checkLayers(bundle);
        ModelSpec model = bundle.model();
        Path modelJson = bundle.directory().resolve(ModelBundle.MODEL_JSON);
        // First check every layer and collect its matrices, then pack them all together.
        List<RowMajorMatrix> matrices = new ArrayList<>();
        List<float[]> biases = new ArrayList<>();
        int width = model.features().size();
        boolean sequence = true;
        for (LayerSpec spec : model.layers()) {
            int units = spec.units();
            String name = spec.name();
            if (spec.type() == LayerSpec.Type.LSTM) {
                if (!sequence) {
                    throw unsupported(
                            modelJson,
                            spec,
                            "an lstm must follow the input or an lstm with " + "return_sequences true");
                }
                if (!spec.activation().equals("tanh")) {
                    throw unsupported(
                            modelJson, spec, "lstm activation '" + spec.activation() + "'; the kernel runs tanh");
                }
                matrices.add(new RowMajorMatrix(
                        weights.get(name + "__lstm_cell__kernel", width, 4L * units), width, 4 * units));
                matrices.add(new RowMajorMatrix(
                        weights.get(name + "__lstm_cell__recurrent_kernel", units, 4L * units), units, 4 * units));
                biases.add(weights.get(name + "__lstm_cell__bias", 4L * units));
                sequence = spec.returnSequences();
            } else if (spec.type() == LayerSpec.Type.DENSE) {
                if (sequence) {
                    throw unsupported(modelJson, spec, "a dense layer must follow an lstm with return_sequences false");
                }
                if (!spec.activation().equals("relu") && !spec.activation().equals("linear")) {
                    throw unsupported(
                            modelJson,
                            spec,
                            "dense activation '" + spec.activation() + "'; the kernel runs relu and linear");
                }
                matrices.add(new RowMajorMatrix(weights.get(name + "__kernel", width, units), width, units));
                biases.add(weights.get(name + "__bias", units));
            }
            width = units;
        }
        if (sequence || width != 1) {
            throw new ModelBundleException(
                    modelJson,
                    "the last layer must output one value per window; " + "the kernel cannot run these layers");
        }
        Iterator<WeightMatrix> packed = math.pack(matrices, precision).iterator();
        Iterator<float[]> bias = biases.iterator();
        List<KernelLayer> layers = new ArrayList<>();
        for (LayerSpec spec : model.layers()) {
            WeightMatrix kernel = packed.next();
            if (spec.type() == LayerSpec.Type.LSTM) {
                layers.add(new KernelLayer.Lstm(
                        spec.units(), kernel, packed.next(), kernel.padRow(bias.next()), spec.returnSequences()));
            } else {
                layers.add(new KernelLayer.Dense(
                        spec.units(),
                        kernel,
                        kernel.padRow(bias.next()),
                        spec.activation().equals("relu")));
            }
        }
        return new KernelNetwork(math, layers, model.window(), model.features().size());
    }

    private static ModelBundleException unsupported(Path modelJson, LayerSpec spec, String problem) {
        return new ModelBundleException(modelJson, "layer '" + spec.name() + "': " + problem);
    }

    KernelMath math() {
        return math;
    }

    List<KernelLayer> layers() {
        return layers;
    }

    int window() {
        return window;
    }

    int features() {
        return features;
    }
}
