package org.itsrt.stack.flink;

import picocli.CommandLine.Option;

/** {@code --ha}: a ZooKeeper server beside a standalone cluster, its JobManager elected through it. */
public final class HighAvailabilityOption {

    @Option(
            names = "--ha",
            description = "a ZooKeeper server, and the standalone cluster's JobManagers elected through it")
    boolean ha;

    public boolean given() {
        return ha;
    }
}
