package org.itsrt.model;

import java.io.Serializable;
import java.util.Objects;

/**
 * How {@link FlowPredictors} opens a bundle. Immutable; each {@code with...} returns a copy;
 * serializable, so a stream job's operators carry it to their TaskManagers.
 *
 * @param engine                   which engine computes the prediction
 * @param tensorFlowIntraOpThreads threads TensorFlow may use inside one op; 0 = TensorFlow's
 *                                 own choice (all cores)
 * @param tensorFlowInterOpThreads threads TensorFlow may use to run ops side by side; 0 = its
 *                                 own choice
 * @param kernelVectorApi          whether the kernel engine may use the JDK Vector API; it is
 *                                 used only when the JVM also has {@code jdk.incubator.vector}
 * @param onnxIntraOpThreads       threads ONNX Runtime may use inside one operator, the calling
 *                                 thread included (1 = the calling thread alone)
 * @param onnxSpinning             whether ONNX Runtime's own threads spin between operators and
 *                                 calls instead of sleeping (faster hand-over, a core's CPU while idle)
 */
public record PredictorOptions(
        Engine engine,
        int tensorFlowIntraOpThreads,
        int tensorFlowInterOpThreads,
        boolean kernelVectorApi,
        int onnxIntraOpThreads,
        boolean onnxSpinning)
        implements Serializable {

    public PredictorOptions {
        Objects.requireNonNull(engine, "engine");
        if (tensorFlowIntraOpThreads < 0 || tensorFlowInterOpThreads < 0) {
            throw new IllegalArgumentException("TensorFlow thread counts must be >= 0 (0 = TensorFlow's choice): "
                    + tensorFlowIntraOpThreads + "/" + tensorFlowInterOpThreads);
        }
        if (onnxIntraOpThreads < 1) {
            throw new IllegalArgumentException(
                    "ONNX Runtime's intra-op threads must be >= 1 (1 = the calling thread alone): "
                            + onnxIntraOpThreads);
        }
    }

    /**
     * The reference engine ({@link Engine#REFERENCE}, exact float32); TensorFlow on one thread per op and one op at a time, and ONNX Runtime
     * on the calling thread alone, so that a predictor keeps to the core of the task that calls
     * it; the Vector API where present.
     */
    public static PredictorOptions reference() {
        return new PredictorOptions(Engine.REFERENCE, 1, 1, true, 1, false);
    }

    public PredictorOptions withEngine(Engine newEngine) {
        return new PredictorOptions(
                newEngine,
                tensorFlowIntraOpThreads,
                tensorFlowInterOpThreads,
                kernelVectorApi,
                onnxIntraOpThreads,
                onnxSpinning);
    }

    public PredictorOptions withTensorFlowThreads(int intraOp, int interOp) {
        return new PredictorOptions(engine, intraOp, interOp, kernelVectorApi, onnxIntraOpThreads, onnxSpinning);
    }

    public PredictorOptions withKernelVectorApi(boolean use) {
        return new PredictorOptions(
                engine, tensorFlowIntraOpThreads, tensorFlowInterOpThreads, use, onnxIntraOpThreads, onnxSpinning);
    }

    /** ONNX Runtime's threads inside an operator, and whether they spin while idle. */
    public PredictorOptions withOnnxThreads(int intraOp, boolean spinning) {
        return new PredictorOptions(
                engine, tensorFlowIntraOpThreads, tensorFlowInterOpThreads, kernelVectorApi, intraOp, spinning);
    }
}
