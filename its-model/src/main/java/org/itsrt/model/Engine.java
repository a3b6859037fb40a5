package org.itsrt.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How a {@link FlowPredictor} computes the model's output (docs/inference.md). */
public enum Engine {
    /** The JVM LSTM forward pass, weights read from the SavedModel at load time. */
    KERNEL("kernel", WeightPrecision.FP32),
    /** TensorFlow Java runs the SavedModel's {@code serve} signature: the reference engine. */
    TENSORFLOW("tensorflow", null),
    /** The bundle's linear regression ({@code linear.json}): the cheap fallback. */
    LINEAR("linear", null),
    /**
     * The kernel with its weight matrices stored as bfloat16 (half the bytes), computed in
     * float32: opt-in, its predictions differ from {@link #KERNEL}'s (docs/inference.md).
     */
    KERNEL_BF16("kernel-bf16", WeightPrecision.BF16),
    /**
     * The kernel with its weight matrices stored as int8 with a scale per output column (a
     * quarter of the bytes), computed in float32: opt-in, its predictions differ from
     * {@link #KERNEL}'s (docs/inference.md).
     */
    KERNEL_INT8("kernel-int8", WeightPrecision.INT8),
    /**
     * ONNX Runtime runs the bundle's ONNX graph ({@code model.onnx}): any network whose input and
     * output have the shapes model.json describes, not only the LSTM the kernel runs.
     */
    ONNX("onnx", null);

    /**
     * The default engine, the job's and every tool's that names none: the kernel on bfloat16
     * weights. Of the engines within the accuracy bound (test MSE within 0.5 % of float32's; bf16
     * changes it by -0.016 %) it is the fastest at the job's pace, and the only one that keeps the
     * job within 0.3 ms of its floor at p50 (docs/results.md, "The tail, with its spread").
     */
    public static final Engine DEFAULT = KERNEL_BF16;

    /** The exact float32 kernel: the reference the other engines' predictions are held to. */
    public static final Engine REFERENCE = KERNEL;

    private final String engineName;
    private final WeightPrecision kernelWeights;

    Engine(String engineName, WeightPrecision kernelWeights) {
        this.engineName = engineName;
        this.kernelWeights = kernelWeights;
    }

    /** Whether this engine is the JVM kernel, in any weight precision. */
    public boolean isKernel() {
        return kernelWeights != null;
    }

    /** The kernel's weight storage; null for the engines that are not the kernel. */
    WeightPrecision kernelWeights() {
        return kernelWeights;
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
