package org.itsrt.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code model.json} says the model expects (docs/model-bundle.md).
 *
 * @param name            model name
 * @param window          readings per input window, oldest first
 * @param intervalSeconds seconds between two readings of a window
 * @param features        input features, in the order of the input's last axis
 * @param timezone        where time-of-day features are read
 * @param layers          the network, input to output, as the kernel engines run it; empty when
 *                        model.json lists none (a network only ONNX Runtime or TensorFlow runs)
 * @param signature       the SavedModel signature that predicts; null when the bundle has no
 *                        SavedModel (the tensorflow and kernel engines then refuse it)
 * @param onnx            the ONNX graph that predicts; null when the bundle has none (the onnx
 *                        engine then refuses it)
 */
public record ModelSpec(
        String name,
        int window,
        int intervalSeconds,
        List<Feature> features,
        ZoneId timezone,
        List<LayerSpec> layers,
        Signature signature,
        OnnxGraph onnx) {

    /**
     * The SavedModel signature that predicts (model.json {@code signature}).
     *
     * @param name   the signature's key, e.g. {@code serve}
     * @param input  its input, {@code [batch, window, features]}
     * @param output its output, {@code [batch, 1]}: the next flow on the scaled axis
     */
    public record Signature(String name, String input, String output) {}

    /**
     * The ONNX graph the {@code onnx} engine runs (model.json {@code onnx}).
     *
     * @param file   the graph's file name inside the bundle, e.g. {@code model.onnx}
     * @param input  its input's name, {@code [batch, window, features]}
     * @param output its output's name, {@code [batch, 1]}
     */
    public record OnnxGraph(String file, String input, String output) {}

    /** The bundle format this reader understands. */
    public static final int FORMAT = 1;

    public ModelSpec {
        features = List.copyOf(features);
        layers = List.copyOf(layers);
    }

    /** Values per window of the model's input: {@code window * features.size()}. */
    public int inputWidth() {
        return window * features.size();
    }

    static ModelSpec fromJson(BundleJson json) {
        JsonNode root = json.root();
        JsonNode format = json.field(root, "", "format");
        if (!format.isIntegralNumber() || format.intValue() != FORMAT) {
            throw json.problem(
                    "format", "bundle format " + format + " is not supported; this reader knows format " + FORMAT);
        }
        String name = json.text(root, "", "name");
        int window = json.positiveInt(root, "", "window");
        int interval = json.positiveInt(root, "", "interval_seconds");
        List<Feature> features = features(json, root);
        String target = json.text(root, "", "target");
        if (!target.equals(Feature.FLOW.bundleName())) {
            throw json.problem("target", "only the target 'flow' is supported, found '" + target + "'");
        }
        ZoneId zone;
        String zoneName = json.text(root, "", "timezone");
        try {
            zone = ZoneId.of(zoneName);
        } catch (DateTimeException e) {
            throw json.problem("timezone", "not a time zone: '" + zoneName + "'");
        }
        List<LayerSpec> layers = root.has("layers") ? layers(json, root) : List.of();
        return new ModelSpec(
                name, window, interval, features, zone, layers, signature(json, root), onnxGraph(json, root));
    }

    private static Signature signature(BundleJson json, JsonNode root) {
        if (!root.has("signature")) {
            return null;
        }
        JsonNode signature = json.object(root, "", "signature");
        return new Signature(
                json.text(signature, "signature", "name"),
                json.text(signature, "signature", "input"),
                json.text(signature, "signature", "output"));
    }

    private static OnnxGraph onnxGraph(BundleJson json, JsonNode root) {
        if (!root.has("onnx")) {
            return null;
        }
        JsonNode onnx = json.object(root, "", "onnx");
        String file = json.text(onnx, "onnx", "file");
        if (file.contains("/") || file.contains("\\") || file.startsWith(".")) {
            throw json.problem("onnx.file", "expected a file name inside the bundle, found '" + file + "'");
        }
        return new OnnxGraph(file, json.text(onnx, "onnx", "input"), json.text(onnx, "onnx", "output"));
    }

    static List<Feature> features(BundleJson json, JsonNode parent) {
        JsonNode array = json.array(parent, "", "features");
        if (array.isEmpty()) {
            throw json.problem("features", "empty; the model needs at least one input feature");
        }
        List<Feature> features = new ArrayList<>();
        for (JsonNode item : array) {
            Feature feature = Feature.fromBundleName(item.asText(), json.file());
            if (features.contains(feature)) {
                throw json.problem("features", "'" + feature.bundleName() + "' is listed twice");
            }
            features.add(feature);
        }
        return features;
    }

    private static List<LayerSpec> layers(BundleJson json, JsonNode root) {
        JsonNode array = json.array(root, "", "layers");
        if (array.isEmpty()) {
            throw json.problem("layers", "empty");
        }
        List<LayerSpec> layers = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            String where = "layers[" + i + "]";
            JsonNode layer = array.get(i);
            String type = json.text(layer, where, "type");
            LayerSpec.Type layerType =
                    switch (type) {
                        case "lstm" -> LayerSpec.Type.LSTM;
                        case "gru" -> LayerSpec.Type.GRU;
                        case "dense" -> LayerSpec.Type.DENSE;
                        default ->
                            throw json.problem(
                                    where + ".type",
                                    "unknown layer type '" + type + "'; known: lstm, gru, dense (a network of "
                                            + "other layers leaves 'layers' out: the onnx engine reads its shapes "
                                            + "from the graph)");
                    };
            layers.add(new LayerSpec(
                    json.text(layer, where, "name"),
                    layerType,
                    json.positiveInt(layer, where, "units"),
                    json.text(layer, where, "activation"),
                    json.bool(layer, where, "return_sequences", false)));
        }
        return layers;
    }
}
