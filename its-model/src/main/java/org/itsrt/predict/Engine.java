package org.itsrt.predict;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How a {@link FlowPredictor} computes the model's output (docs/inference.md). */
public enum Engine {
    /** The JVM LSTM forward pass, weights read from the SavedModel at load time. */
    KERNEL("kernel"),
    /** TensorFlow Java runs the SavedModel's {@code serve} signature: the reference engine. */
    TENSORFLOW("tensorflow"),
    /** The bundle's linear regression ({@code linear.json}): the cheap fallback. */
    LINEAR("linear");

    /** The engine picked when a caller names none: the fastest at batch 1 by measurement. */
    public static final Engine DEFAULT = KERNEL;

    private final String engineName;

    Engine(String engineName) {
        this.engineName = engineName;
    }

    /** The name used on command lines and in configuration, e.g. {@code kernel}. */
    public String engineName() {
        return engineName;
    }

    /** @throws IllegalArgumentException naming the valid engines when {@code name} is none of them */
    public static Engine fromName(String name) {
        String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (Engine engine : values()) {
            if (engine.engineName.equals(wanted)) {
                return engine;
            }
        }
        throw new IllegalArgumentException("unknown engine '" + name + "'; valid engines: " + validNames());
    }

    public static String validNames() {
        return Arrays.stream(values()).map(Engine::engineName).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return engineName;
    }
}
