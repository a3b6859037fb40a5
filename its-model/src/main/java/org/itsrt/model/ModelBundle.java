package org.itsrt.model;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A model bundle as the trainer writes it (docs/model-bundle.md): model.json, scaler.json,
 * linear.json and the SavedModel. {@link #load} reads and checks the JSON files; the SavedModel
 * is checked by the engines that run it.
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
