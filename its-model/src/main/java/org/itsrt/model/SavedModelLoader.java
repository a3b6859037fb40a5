package org.itsrt.model;

import java.nio.file.Path;
import org.tensorflow.SavedModelBundle;
import org.tensorflow.Signature;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.proto.ConfigProto;

/** Loads a bundle's SavedModel with TensorFlow Java, turning its failures into bundle errors. */
final class SavedModelLoader {
    static final String TAG = "serve";

    private SavedModelLoader() {}

    static SavedModelBundle load(Path dir, ConfigProto config) {
        try {
            return SavedModelBundle.loader(dir.toString())
                    .withTags(TAG)
                    .withConfigProto(config)
                    .load();
        } catch (RuntimeException e) {
            throw new ModelBundleException(
                    dir, "TensorFlow cannot load it as a SavedModel with tag '" + TAG + "': " + e.getMessage(), e);
        }
    }

    /**
     * Checks that the model's serving signature takes what model.json describes: a batch of
     * {@code window} steps of {@code features} values, {@code [batch, window, features]}.
     *
     * @throws ModelBundleException naming the SavedModel when the signature, its input or the
     *     input's shape differ from model.json
     */
    static void checkServingInput(SavedModelBundle savedModel, Path dir, ModelSpec model, ModelSpec.Signature serving) {
        Signature signature = signature(savedModel, dir, serving.name());
        Signature.TensorDescription input = signature.getInputs().get(serving.input());
        if (input == null) {
            throw new ModelBundleException(
                    dir,
                    "signature '" + serving.name() + "' has inputs " + signature.inputNames()
                            + "; model.json expects input '" + serving.input() + "'");
        }
        Shape expected =
                Shape.of(Shape.UNKNOWN_SIZE, model.window(), model.features().size());
        if (!input.shape.isCompatibleWith(expected)) {
            throw new ModelBundleException(
                    dir,
                    "signature '" + serving.name() + "' input '" + serving.input() + "' has shape "
                            + input.shape + "; model.json expects [batch, window " + model.window() + ", "
                            + model.features().size() + " features " + model.features() + "]");
        }
    }

    static Signature signature(SavedModelBundle savedModel, Path dir, String name) {
        for (Signature signature : savedModel.signatures()) {
            if (signature.key().equals(name)) {
                return signature;
            }
        }
        throw new ModelBundleException(
                dir,
                "has no signature '" + name + "'; it has "
                        + savedModel.signatures().stream().map(Signature::key).toList());
    }
}
