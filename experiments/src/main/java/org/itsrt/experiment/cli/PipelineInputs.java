package org.itsrt.experiment.cli;

import org.itsrt.experiment.run.ExperimentRunner;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.net.URI;
import java.util.OptionalLong;

/**
 * What every run of the pipeline is given, as options of {@code ./its experiment} and
 * {@code ./its tune}: the readings to replay, the model bundle and the job jar (the launcher
 * sets the defaults).
 */
final class PipelineInputs {

    @Option(names = "--data", defaultValue = "${sys:itsrt.sample}", paramLabel = "FILE",
            description = "canonical readings to replay (default: the committed synthetic sample)")
    Path data;

    @Option(names = "--model", defaultValue = "${sys:itsrt.model}", paramLabel = "DIR", description = "model bundle")
    Path model;

    @Option(names = "--job-jar", defaultValue = "${sys:itsrt.job.jar}", paramLabel = "JAR", description = "the job jar")
    Path jobJar;

    /** Why the inputs cannot be used, or null: found before the first run rather than in it. */
    String missing() {
        String[] options = {"--data", "--model", "--job-jar"};
        Path[] paths = {data, model, jobJar};
        for (int i = 0; i < options.length; i++) {
            if (paths[i] == null || paths[i].toString().isEmpty()) {
                return options[i] + " is required (./its sets it)";
            }
            if (!Files.exists(paths[i])) {
                return options[i] + ": no such file or folder: " + paths[i];
            }
        }
        return null;
    }

    /** A fresh local broker and child cluster per run. */
    ExperimentRunner.Pipeline local() {
        return ExperimentRunner.Pipeline.local(data, model, jobJar);
    }

    /** Runs against what already runs where given; xen-* rows applied through {@code rowCommand}. */
    ExperimentRunner.Pipeline on(String bootstrapServers, URI flinkRest, Long clusterPid, String rowCommand) {
        return new ExperimentRunner.Pipeline(data, model, jobJar, bootstrapServers, flinkRest,
                clusterPid == null ? OptionalLong.empty() : OptionalLong.of(clusterPid), rowCommand);
    }
}
