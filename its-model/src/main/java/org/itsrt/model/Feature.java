package org.itsrt.model;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

/** An input feature of the model, one value per reading of the window (docs/model-bundle.md). */
public enum Feature {
    FLOW("flow"),
    SPEED("speed"),
    TOD_SIN("tod_sin"),
    TOD_COS("tod_cos");

    private final String bundleName;

    Feature(String bundleName) {
        this.bundleName = bundleName;
    }

    /** The name in model.json and linear.json. */
    public String bundleName() {
        return bundleName;
    }

    static Feature fromBundleName(String name, Path file) {
        for (Feature feature : values()) {
            if (feature.bundleName.equals(name)) {
                return feature;
            }
        }
        throw new ModelBundleException(
                file,
                "unknown feature '" + name + "'; known: "
                        + Arrays.stream(values()).map(Feature::bundleName).collect(Collectors.joining(", ")));
    }
}
