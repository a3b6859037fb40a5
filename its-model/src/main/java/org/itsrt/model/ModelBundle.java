package org.itsrt.model;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A model bundle as the trainer writes it (docs/model-bundle.md): model.json, scaler.json,
 * linear.json, the SavedModel and the ONNX graph. {@link #load} reads and checks the JSON files;
 * the SavedModel and the graph are checked by the engines that run them.
 */
public record ModelBundle(Path directory, ModelSpec model, Scaler scaler, LinearModel linear) {

    public static final String MODEL_JSON = "model.json";
    public static final String SCALER_JSON = "scaler.json";
    public static final String LINEAR_JSON = "linear.json";
    public static final String SAVED_MODEL = "saved_model";

    /**
     * @throws ModelBundleException naming the file when a file is missing or malformed
     */
    public static ModelBundle load(Path directory) {
        if (!Files.isDirectory(directory)) {
            throw new ModelBundleException(
                    directory, "not a directory; expected a model bundle (docs/model-bundle.md)");
        }
        ModelSpec model = ModelSpec.fromJson(BundleJson.read(directory.resolve(MODEL_JSON)));
        Scaler scaler = Scaler.fromJson(BundleJson.read(directory.resolve(SCALER_JSON)), model);
        LinearModel linear = LinearModel.fromJson(BundleJson.read(directory.resolve(LINEAR_JSON)), model);
        return new ModelBundle(directory, model, scaler, linear);
    }

    /**
     * The SavedModel signature that predicts.
     *
     * @throws ModelBundleException naming model.json when it has no {@code signature}
     */
    public ModelSpec.Signature signature() {
        if (model.signature() == null) {
            throw new ModelBundleException(
                    directory.resolve(MODEL_JSON),
                    "signature: missing; the tensorflow and kernel engines run the SavedModel's "
                            + "signature (the onnx and linear engines do not need it)");
        }
        return model.signature();
    }

    /**
     * The ONNX graph model.json names, and its file.
     *
     * @throws ModelBundleException naming model.json when it names no graph, or the graph's file
     *     when it is missing
     */
    public Path onnxFile() {
        ModelSpec.OnnxGraph graph = model.onnx();
        if (graph == null) {
            throw new ModelBundleException(
                    directory.resolve(MODEL_JSON),
                    "onnx: missing; the onnx engine runs the ONNX graph model.json names there "
                            + "({\"file\": \"model.onnx\", \"input\": ..., \"output\": ...}; docs/model-bundle.md)");
        }
        Path file = directory.resolve(graph.file());
        if (!Files.isRegularFile(file)) {
            throw new ModelBundleException(
                    file,
                    "missing; model.json's onnx.file names it, and the onnx engine runs it (the trainer "
                            + "exports it; docs/model-bundle.md)");
        }
        return file;
    }

    /**
     * The SavedModel folder.
     *
     * @throws ModelBundleException when it holds no saved_model.pb
     */
    public Path savedModel() {
        Path savedModel = directory.resolve(SAVED_MODEL);
        if (!Files.isRegularFile(savedModel.resolve("saved_model.pb"))) {
            throw new ModelBundleException(
                    savedModel,
                    "missing or holds no saved_model.pb; the tensorflow and "
                            + "kernel engines need the SavedModel (the linear engine does not)");
        }
        return savedModel;
    }
}
