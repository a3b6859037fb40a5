package org.itsrt.pipeline.failover;

import java.nio.file.Path;
import org.itsrt.cluster.ClusterSpec;
import org.itsrt.cluster.LocalCluster;
import org.itsrt.pipeline.BudgetHook;
import org.itsrt.pipeline.RunResult;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.records.Topics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers, the pipeline's topics with replication factor 3 and min.insync.replicas 2: the
 * broker that leads the readings partition is killed (SIGKILL) under load. Producers, job and
 * probe go on with the other two; nothing is lost.
 */
class BrokerFailoverTest {

    @TempDir
    static Path dir;

    private static FailoverCluster failover;
    private static LocalCluster cluster;
    private static RunningStack stack;

    @BeforeAll
    static void startCluster() throws Exception {
        failover = FailoverCluster.start(ClusterSpec.defaults().withBrokers(3), dir);
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
    void oneOfThreeBrokersKilledLosesNothing() throws Exception {
        int[] killed = {-1};
        RunResult result;
        try {
            result = stack.measure(
                    Failover.load(false),
                    Failover.job(false),
                    BudgetHook.NONE,
                    Failover.inject("broker leading " + Topics.READINGS + " killed", () -> {
                        killed[0] = cluster.kafka()
                                .describe(java.util.List.of(Topics.READINGS))
                                .get(Topics.READINGS)
                                .get(0)
                                .leader();
                        cluster.kafka().killBroker(killed[0]);
                    }),
                    dir.resolve("broker-killed"));
        } finally {
            if (killed[0] > 0) {
                cluster.kafka().restartBroker(killed[0]);
            }
        }
        Failover.assertRecovered("one of three brokers killed", result, false);
    }
}
