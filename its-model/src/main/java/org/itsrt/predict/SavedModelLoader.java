package org.itsrt.predict;

import java.nio.file.Path;
import org.tensorflow.SavedModelBundle;
import org.tensorflow.Signature;
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
