package org.itsrt.demo;

import java.nio.file.Files;
import java.nio.file.Path;
import org.itsrt.cli.MissingDefaultException;
import org.itsrt.cli.ProjectPaths;
import picocli.CommandLine.Option;

/**
 * What every run of the pipeline is given, as options of {@code ./its demo}, {@code ./its
 * experiment} and {@code ./its tune}: the readings to replay, the model bundle and the job jar.
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
        String[] options = {"--data", "--model", "--job-jar"};
        for (String option : options) {
            Path path;
            try {
                path = switch (option) {
                    case "--data" -> data();
                    case "--model" -> model();
                    default -> jobJar();
                };
            } catch (MissingDefaultException e) {
                return option + " not given, and its default is missing: " + e.getMessage();
            }
            if (!Files.exists(path)) {
                return option + ": no such file or folder: " + path;
            }
        }
        return null;
    }
}
