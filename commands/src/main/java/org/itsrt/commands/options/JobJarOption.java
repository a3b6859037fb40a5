package org.itsrt.commands.options;

import java.nio.file.Path;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.pipeline.plan.RunPlan;
import picocli.CommandLine.Option;

/** {@code --job-jar JAR}: the job jar submitted to the cluster. */
public final class JobJarOption {

    @Option(
            names = "--job-jar",
            paramLabel = "JAR",
            description = "the job jar submitted to the cluster (default: its-job's build, "
                    + ProjectPaths.JOB_JAR_FOLDER + "/" + ProjectPaths.JOB_JAR_GLOB + ")")
    Path jobJar;

    /** The jar given, or null for its-job's build. */
    public Path given() {
        return jobJar;
    }

    /** The jar given, else its-job's build. */
    public Path path() {
        return jobJar != null ? jobJar : ProjectPaths.locate().jobJar();
    }

    /** Sets the jar given, if any, over the plan's stack. */
    public void applyTo(RunPlan.Builder plan) {
        if (jobJar != null) {
            plan.stack().jobJar(jobJar);
        }
    }
}
