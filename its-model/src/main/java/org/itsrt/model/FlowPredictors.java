package org.itsrt.model;

import java.nio.file.Path;
import java.util.Map;

/**
 * Opens a model bundle (docs/model-bundle.md) with the engine the options name
 * (docs/inference.md).
 */
public final class FlowPredictors {

    /** Package of each optional engine library -> what a class path needs to run it. */
    private static final Map<String, String> OPTIONAL_LIBRARIES = Map.of(
            "org/tensorflow",
            "TensorFlow Java (org.tensorflow:tensorflow-core-api and tensorflow-core-native)",
            "ai/onnxruntime",
            "ONNX Runtime (com.microsoft.onnxruntime:onnxruntime)");

    private FlowPredictors() {}

    /**
     * One predictor that owns its model: closing it frees the model.
     *
     * @throws ModelBundleException  naming the file when the bundle is incomplete or malformed
     * @throws IllegalStateException when the engine needs TensorFlow Java or ONNX Runtime and it is not on
     *     the class path
     */
    public static FlowPredictor open(Path bundleDir, PredictorOptions options) {
        PredictorFactoryBase factory = load(bundleDir, options);
        try {
            return factory.create(factory);
        } catch (RuntimeException e) {
            factory.close();
            throw e;
        }
    }

    /**
     * A loaded model from which independent predictors (one per thread) are made cheaply.
     *
     * @throws ModelBundleException  naming the file when the bundle is incomplete or malformed
     * @throws IllegalStateException when the engine needs TensorFlow Java or ONNX Runtime and it is not on
     *     the class path
     */
    public static FlowPredictorFactory factory(Path bundleDir, PredictorOptions options) {
        return load(bundleDir, options);
    }

    private static PredictorFactoryBase load(Path bundleDir, PredictorOptions options) {
        ModelBundle bundle = ModelBundle.load(bundleDir);
        try {
            return switch (options.engine()) {
                case LINEAR -> new LinearFactory(bundle);
                case TENSORFLOW -> TensorFlowFactory.load(bundle, options);
                case ONNX -> OnnxFactory.load(bundle, options);
                case KERNEL, KERNEL_BF16, KERNEL_INT8 -> KernelFactory.load(bundle, options);
            };
        } catch (NoClassDefFoundError e) {
            String missing = e.getMessage() == null ? "" : e.getMessage();
            for (Map.Entry<String, String> library : OPTIONAL_LIBRARIES.entrySet()) {
                if (missing.startsWith(library.getKey())) {
                    throw new IllegalStateException(
                            "engine " + options.engine() + " needs " + library.getValue()
                                    + " on the class path (optional dependencies of its-model); add them or use engine "
                                    + Engine.LINEAR,
                            e);
                }
            }
            throw e;
        }
    }
}
