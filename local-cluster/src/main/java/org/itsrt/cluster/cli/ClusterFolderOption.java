package org.itsrt.cluster.cli;

import java.nio.file.Path;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.cluster.ClusterSpec;
import picocli.CommandLine.Option;

/** The cluster folder option every subcommand takes, and the keeper process. */
public final class ClusterFolderOption {
    @Option(
            names = "--dir",
            paramLabel = "DIR",
            description = "the cluster folder (default: runs/cluster in the repository)")
    Path dir;

    public Path resolve() {
        return dir != null ? dir : ClusterSpec.defaultDir(ProjectPaths.locate().root());
    }
}
