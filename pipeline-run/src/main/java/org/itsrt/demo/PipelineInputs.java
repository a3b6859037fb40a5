package org.itsrt.demo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.itsrt.cli.MissingDefaultException;
import org.itsrt.cli.ProjectPaths;
import picocli.CommandLine.Option;

/**
 * What every run of the pipeline is given, as options of {@code ./its demo}, {@code ./its
 * experiment} and {@code ./its tune}: the readings to replay, the model bundle, the job jar, and
 * the cluster to run on when one already runs ({@code ./its cluster up}).
 * Each defaults to the repository's own ({@link ProjectPaths}), found by the command itself, so a
 * command started with {@code java -cp} behaves as one started by the launcher.
 */
public final class PipelineInputs {

    @Option(
            names = "--data",
            paramLabel = "FILE",
            description = "canonical readings to replay (default: the committed synthetic sample, "
                    + ProjectPaths.SAMPLE_TABLE + ")")
    Path data;

    @Option(
            names = "--model",
            paramLabel = "DIR",
            description = "model bundle (default: the shipped one, " + ProjectPaths.MODEL_BUNDLE + ")")
    Path model;

    @Option(
            names = "--job-jar",
            paramLabel = "JAR",
            description = "the job jar submitted to the cluster (default: its-job's build, "
                    + ProjectPaths.JOB_JAR_FOLDER + "/" + ProjectPaths.JOB_JAR_GLOB + ")")
    Path jobJar;

    @Option(
            names = "--cluster",
            paramLabel = "DIR",
            description = "run on the cluster that `./its cluster up` started in DIR (its brokers and JobManagers; "
                    + "a CPU budget goes on its first TaskManager) instead of starting one; it is left running")
    Path cluster;

    /** The folder of a cluster that already runs, or null for a stack the run starts. */
    public Path clusterDir() {
        return cluster;
    }

    /** @throws MissingDefaultException when --data is not given and the sample is not where it belongs */
    public Path data() {
        return data != null ? data : ProjectPaths.locate().sampleTable();
    }

    public Path model() {
        return model != null ? model : ProjectPaths.locate().modelBundle();
    }

    public Path jobJar() {
        return jobJar != null ? jobJar : ProjectPaths.locate().jobJar();
    }

    /** Why the inputs cannot be used, or null: found before the first run rather than in it. */
    public String missing() {
        Map<String, Supplier<Path>> inputs = new LinkedHashMap<>();
        inputs.put("--data", this::data);
        inputs.put("--model", this::model);
        inputs.put("--job-jar", this::jobJar);
        for (Map.Entry<String, Supplier<Path>> input : inputs.entrySet()) {
            Path path;
            try {
                path = input.getValue().get();
            } catch (MissingDefaultException e) {
                return input.getKey() + " not given, and its default is missing: " + e.getMessage();
            }
            if (!Files.exists(path)) {
                return input.getKey() + ": no such file or folder: " + path;
            }
        }
        return null;
    }
}
