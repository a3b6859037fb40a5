package org.itsrt.model;

import java.util.Objects;

/**
 * How {@link FlowPredictors} opens a bundle. Immutable; each {@code with...} returns a copy.
 *
 * @param engine                   which engine computes the prediction
 * @param tensorFlowIntraOpThreads threads TensorFlow may use inside one op; 0 = TensorFlow's
 *                                 own choice (all cores)
 * @param tensorFlowInterOpThreads threads TensorFlow may use to run ops side by side; 0 = its
 *                                 own choice
 * @param kernelVectorApi          whether the kernel engine may use the JDK Vector API; it is
 *                                 used only when the JVM also has {@code jdk.incubator.vector}
 */
public record PredictorOptions(
        Engine engine, int tensorFlowIntraOpThreads, int tensorFlowInterOpThreads, boolean kernelVectorApi) {

    public PredictorOptions {
        Objects.requireNonNull(engine, "engine");
        if (tensorFlowIntraOpThreads < 0 || tensorFlowInterOpThreads < 0) {
            throw new IllegalArgumentException("TensorFlow thread counts must be >= 0 (0 = TensorFlow's choice): "
                    + tensorFlowIntraOpThreads + "/" + tensorFlowInterOpThreads);
        }
    }

    /**
     * The default engine; TensorFlow on one thread per op and one op at a time, so that a
     * predictor keeps to the core of the task that calls it; the Vector API where present.
     */
    public static PredictorOptions defaults() {
        return new PredictorOptions(Engine.DEFAULT, 1, 1, true);
    }

    public PredictorOptions withEngine(Engine newEngine) {
        return new PredictorOptions(newEngine, tensorFlowIntraOpThreads, tensorFlowInterOpThreads, kernelVectorApi);
    }

    public PredictorOptions withTensorFlowThreads(int intraOp, int interOp) {
        return new PredictorOptions(engine, intraOp, interOp, kernelVectorApi);
    }

    public PredictorOptions withKernelVectorApi(boolean use) {
        return new PredictorOptions(engine, tensorFlowIntraOpThreads, tensorFlowInterOpThreads, use);
    }
}
