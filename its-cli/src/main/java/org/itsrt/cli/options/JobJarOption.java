package org.itsrt.cli.options;

import java.nio.file.Path;
import org.itsrt.cli.ProjectPaths;
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
}
