package org.itsrt.pipeline.failover;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.itsrt.cluster.ClusterSpec;
import org.itsrt.cluster.LocalCluster;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.pipeline.StackSpec;

/**
 * A cluster of the shape a failover test needs, on free ports in the test's folder, and the run
 * stack attached to it as {@code --cluster} attaches a run: both started once per test class,
 * closed after it.
 */
final class FailoverCluster implements AutoCloseable {

    final LocalCluster cluster;
    final RunningStack stack;

    private FailoverCluster(LocalCluster cluster, RunningStack stack) {
        this.cluster = cluster;
        this.stack = stack;
    }

    /** @param shape the cluster's shape over the defaults (one of each part) */
    static FailoverCluster start(ClusterSpec shape, Path dir) throws Exception {
        LocalCluster cluster = LocalCluster.start(
                shape.withPorts(ClusterSpec.PortChoice.FREE).withStartTimeout(Duration.ofSeconds(180)),
                dir.resolve("cluster"),
                System.err);
        try {
            RunningStack stack = RunningStack.start(
                    StackSpec.onCluster(cluster.descriptor(0), Failover.JOB_JAR, 1, Map.of()),
                    dir.resolve("flink-tmp"),
                    System.err);
            return new FailoverCluster(cluster, stack);
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    @Override
    public void close() {
        stack.close();
        cluster.close();
    }
}
