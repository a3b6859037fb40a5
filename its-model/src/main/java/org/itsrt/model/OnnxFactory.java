package org.itsrt.model;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * The bundle's ONNX graph in one ONNX Runtime session, shared by this factory's predictors (a
 * session runs calls from several threads at once). The session's settings are those of a stream
 * operator (docs/inference.md, "ONNX Runtime"): its own threads capped by the options, one
 * operator after another, every graph optimisation.
 */
final class OnnxFactory extends PredictorFactoryBase {
    /** Keys of ONNX Runtime's session configuration (onnxruntime_session_options_config_keys.h). */
    static final String INTRA_OP_SPINNING = "session.intra_op.allow_spinning";

    static final String INTER_OP_SPINNING = "session.inter_op.allow_spinning";

    private final OrtEnvironment environment;
    private final OrtSession session;
    private final ModelSpec.OnnxGraph graph;

    private OnnxFactory(ModelBundle bundle, OrtEnvironment environment, OrtSession session) {
        super(bundle);
        this.environment = environment;
        this.session = session;
        this.graph = bundle.model().onnx();
    }

    static OnnxFactory load(ModelBundle bundle, PredictorOptions options) {
        Path file = bundle.onnxFile();
        OrtEnvironment environment = OrtEnvironment.getEnvironment(OrtLoggingLevel.ORT_LOGGING_LEVEL_WARNING, "its-rt");
        OrtSession session;
        try (OrtSession.SessionOptions settings = sessionOptions(options)) {
            session = environment.createSession(file.toString(), settings);
        } catch (OrtException e) {
            throw new ModelBundleException(file, "ONNX Runtime cannot load it: " + e.getMessage(), e);
        }
        try {
            checkShapes(bundle, file, session);
            return new OnnxFactory(bundle, environment, session);
        } catch (RuntimeException e) {
            closeQuietly(session);
            throw e;
        }
    }

    /**
     * A stream operator's session: {@code intraOpThreads} of ONNX Runtime's own (1 = the calling
     * thread alone), no inter-op pool (sequential execution: the graph is a chain of operators),
     * every graph optimisation, and threads that sleep between calls unless spinning is asked for,
     * so an idle predictor costs no CPU beside the operator's.
     */
    private static OrtSession.SessionOptions sessionOptions(PredictorOptions options) throws OrtException {
        OrtSession.SessionOptions settings = new OrtSession.SessionOptions();
        try {
            settings.setIntraOpNumThreads(options.onnxIntraOpThreads());
            settings.setInterOpNumThreads(1);
            settings.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
            settings.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            settings.addConfigEntry(INTRA_OP_SPINNING, options.onnxSpinning() ? "1" : "0");
            settings.addConfigEntry(INTER_OP_SPINNING, "0");
            return settings;
        } catch (OrtException | RuntimeException e) {
            settings.close();
            throw e;
        }
    }

    /**
     * The graph must take {@code [batch, window, features]} float32 with a free batch dimension,
     * as model.json describes, and give {@code [batch, 1]}.
     */
    private static void checkShapes(ModelBundle bundle, Path file, OrtSession session) {
        ModelSpec model = bundle.model();
        ModelSpec.OnnxGraph graph = model.onnx();
        String expected =
                "[batch, window " + model.window() + ", " + model.features().size() + " features "
                        + model.features().stream().map(Feature::bundleName).toList() + "] of float32, batch free";
        TensorInfo input = tensor(file, session, graph.input(), true, expected);
        long[] shape = input.getShape();
        if (input.type != OnnxJavaType.FLOAT
                || shape.length != 3
                || shape[0] >= 0
                || shape[1] != model.window()
                || shape[2] != model.features().size()) {
            throw new ModelBundleException(
                    file,
                    "input '" + graph.input() + "' has shape " + describe(input) + "; model.json expects " + expected);
        }
        TensorInfo output = tensor(file, session, graph.output(), false, "[batch, 1] of float32");
        long[] outShape = output.getShape();
        if (output.type != OnnxJavaType.FLOAT || outShape.length != 2 || (outShape[1] != 1 && outShape[1] >= 0)) {
            throw new ModelBundleException(
                    file,
                    "output '" + graph.output() + "' has shape " + describe(output)
                            + "; the engine expects [batch, 1] of float32 (the next flow, scaled)");
        }
    }

    private static TensorInfo tensor(Path file, OrtSession session, String name, boolean input, String expected) {
        String kind = input ? "input" : "output";
        Map<String, NodeInfo> nodes;
        try {
            nodes = input ? session.getInputInfo() : session.getOutputInfo();
        } catch (OrtException e) {
            throw new ModelBundleException(
                    file, "ONNX Runtime cannot describe its " + kind + "s: " + e.getMessage(), e);
        }
        NodeInfo node = nodes.get(name);
        if (node == null || !(node.getInfo() instanceof TensorInfo info)) {
            throw new ModelBundleException(
                    file,
                    "has " + kind + "s " + nodes.keySet() + "; model.json's onnx." + kind + " names '" + name
                            + "', expected " + expected);
        }
        return info;
    }

    /** A shape as {@code [free, 12, 1] of FLOAT}, "free" for a dimension the graph leaves open. */
    private static String describe(TensorInfo info) {
        long[] shape = info.getShape();
        String[] dims = new String[shape.length];
        for (int i = 0; i < shape.length; i++) {
            dims[i] = shape[i] >= 0 ? Long.toString(shape[i]) : "free";
        }
        return Arrays.toString(dims) + " of " + info.type;
    }

    @Override
    public Engine engine() {
        return Engine.ONNX;
    }

    @Override
    FlowPredictor create(AutoCloseable owner) {
        return new OnnxPredictor(bundle(), environment, session, graph, owner);
    }

    @Override
    public void close() {
        closeQuietly(session);
    }

    private static void closeQuietly(OrtSession session) {
        try {
            session.close();
        } catch (OrtException e) {
            throw new IllegalStateException("closing the ONNX Runtime session failed: " + e.getMessage(), e);
        }
    }
}
