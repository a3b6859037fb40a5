package org.itsrt.pipeline.failover;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.itsrt.cluster.ClusterSpec;
import org.itsrt.cluster.ClusterStatus;
import org.itsrt.cluster.LocalCluster;
import org.itsrt.pipeline.BudgetHook;
import org.itsrt.pipeline.RunResult;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.stack.zookeeper.LocalZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ZooKeeper stopped under load for longer than the JobManager's session, then started again.
 * The JobManager loses its leadership with its session and suspends the job; once ZooKeeper is
 * back it is elected again and recovers the job from its last checkpoint (docs/cluster.md says
 * what a user sees). Nothing is lost, and the cluster is healthy afterwards.
 */
class ZooKeeperOutageTest {

    /** Longer than the JobManagers' ZooKeeper session timeout. */
    private static final Duration OUTAGE = Duration.ofSeconds(10);

    @TempDir
    static Path dir;

    private static FailoverCluster failover;
    private static LocalCluster cluster;
    private static RunningStack stack;

    @BeforeAll
    static void startCluster() throws Exception {
        failover = FailoverCluster.start(ClusterSpec.defaults().withHa(true), dir);
        cluster = failover.cluster;
        stack = failover.stack;
    }

    @AfterAll
    static void stopCluster() {
        if (failover != null) {
            failover.close();
        }
    }

    @Test
    void theJobResumesFromItsCheckpointOnceZooKeeperIsBackAndTheClusterIsHealthy() throws Exception {
        LocalZooKeeper zooKeeper = cluster.zooKeeper().orElseThrow();
        RunResult result;
        try {
            result = stack.measure(
                    Failover.load(false),
                    Failover.job(false),
                    BudgetHook.NONE,
                    Failover.inject(
                            "ZooKeeper stopped", zooKeeper::stop, OUTAGE, "ZooKeeper started", zooKeeper::restart),
                    dir.resolve("zookeeper-outage"));
        } finally {
            if (!zooKeeper.isServing()) {
                zooKeeper.restart();
            }
        }
        Failover.assertRecovered("ZooKeeper stopped for " + OUTAGE.toSeconds() + " s", result, false);
        ClusterStatus status = ClusterStatus.of(cluster.descriptor(0));
        assertThat(status.problems()).as(status.render()).isEmpty();
        assertThat(status.leader()).isPresent();
    }
}
