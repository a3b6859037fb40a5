package org.itsrt.job.config;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.api.common.cache.DistributedCache;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.itsrt.model.Engine;
import org.itsrt.model.FlowPredictors;
import org.itsrt.model.ModelBundle;
import org.itsrt.model.ModelBundleException;
import org.itsrt.model.PredictorOptions;
import org.itsrt.records.ReadingRecord;

/**
 * Which model predicts and how: the bundle, the engine and its threads, the warm-up, or
 * {@code --identity} instead of a model. The bundle is checked where the settings are read, so a
 * missing or incomplete model fails before anything is submitted; the directory is kept as text
 * ({@link Path} is not serializable). It travels with the job in Flink's distributed cache
 * ({@link #shipWith}), and each subtask opens its TaskManager's copy ({@link #bundleIn}), so the
 * bundle need exist only where the job is built.
 *
 * @param predictorOptions the engine and its threads, as each subtask opens the bundle
 * @param label what advice records carry in {@code model}: bundle name and engine, e.g.
 *              {@code lstm-flow/kernel-bf16}, or {@value #IDENTITY_LABEL}
 */
public record ModelSettings(
        String dir, PredictorOptions predictorOptions, int warmupCalls, boolean identity, String label)
        implements Serializable {

    /** The bundle's name in Flink's distributed cache ({@link #shipWith}). */
    static final String SHIPPED_BUNDLE = "its-model-bundle";

    /** Model label of advice written by the identity step. */
    public static final String IDENTITY_LABEL = "identity";

    static ModelSettings from(Map<String, String> options) {
        boolean identity = JobOptions.IDENTITY.read(options);
        PredictorOptions predictor = PredictorOptions.reference()
                .withEngine(JobOptions.ENGINE.read(options))
                .withTensorFlowThreads(
                        JobOptions.TF_INTRA_OP_THREADS.read(options).intValue(),
                        JobOptions.TF_INTER_OP_THREADS.read(options).intValue())
                .withOnnxThreads(JobOptions.ONNX_INTRA_OP_THREADS.read(options).intValue(), false);
        int warmupCalls = JobOptions.WARMUP_CALLS.read(options).intValue();
        String dir = JobOptions.MODEL_DIR.read(options);
        String label = identity ? IDENTITY_LABEL : checkBundle(Path.of(dir), predictor);
        return new ModelSettings(dir, predictor, warmupCalls, identity, label);
    }

    /** The engine that predicts. */
    public Engine engine() {
        return predictorOptions.engine();
    }

    /**
     * The label of a record predicted by the cheap engine in place of the job's ({@code
     * --degrade}, docs/deadlines.md): the same bundle, engine {@code linear}, e.g. {@code
     * lstm-flow/linear} for {@code lstm-flow/kernel-bf16}.
     */
    public static String degradedLabel(String label) {
        return label.substring(0, label.lastIndexOf('/') + 1) + Engine.LINEAR.engineName();
    }

    /** The options the cheap engine that stands in under {@code --degrade} is opened with. */
    public PredictorOptions fallbackOptions() {
        return PredictorOptions.reference().withEngine(Engine.LINEAR);
    }

    /** The bundle directory where the job is built. */
    public Path path() {
        return Path.of(dir);
    }

    /**
     * Ships the bundle with the job in Flink's distributed cache: the client zips the directory and
     * uploads it with the job graph, and each TaskManager unpacks a copy of its own before the
     * tasks open. So a cluster whose TaskManagers do not share the client's file system (other
     * hosts, containers) runs the bundle the client checked, without copying it anywhere first.
     */
    public void shipWith(StreamExecutionEnvironment env) {
        env.registerCachedFile(path().toAbsolutePath().toString(), SHIPPED_BUNDLE);
    }

    /**
     * Where a subtask opens the bundle: its TaskManager's copy of the one shipped with the job, or
     * the path itself for an operator that runs outside such a job (a test harness).
     */
    public Path bundleIn(DistributedCache cache) {
        try {
            return cache.getFile(SHIPPED_BUNDLE).toPath();
        } catch (IllegalArgumentException notShipped) {
            return path();
        }
    }

    /**
     * Loads the bundle as a subtask will, and returns its label; fails naming the file at fault.
     * An ONNX graph is opened once here, so that a corrupt graph or one of another input shape
     * fails before anything is submitted (ONNX Runtime loads it in milliseconds; the SavedModel
     * engines check that the SavedModel is there and leave loading it to the subtasks).
     */
    private static String checkBundle(Path dir, PredictorOptions predictor) {
        String option = JobOptions.MODEL_DIR.flag();
        Engine engine = predictor.engine();
        ModelBundle bundle;
        try {
            bundle = ModelBundle.load(dir);
            if (engine == Engine.ONNX) {
                FlowPredictors.open(dir, predictor).close();
            } else if (engine != Engine.LINEAR) {
                bundle.savedModel();
            }
        } catch (ModelBundleException e) {
            // Its message starts with the file at fault.
            throw new JobSettingsException(option, e.getMessage(), e);
        }
        if (bundle.model().window() != ReadingRecord.WINDOW) {
            throw new JobSettingsException(
                    option,
                    dir.resolve(ModelBundle.MODEL_JSON).toAbsolutePath()
                            + ": window " + bundle.model().window() + ", but every reading record carries "
                            + ReadingRecord.WINDOW + " readings");
        }
        return bundle.model().name() + "/" + engine.engineName();
    }
}
