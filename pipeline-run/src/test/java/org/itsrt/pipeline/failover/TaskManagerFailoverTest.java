package org.itsrt.pipeline.failover;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.itsrt.cluster.ClusterSpec;
import org.itsrt.cluster.FlinkRest;
import org.itsrt.cluster.LocalCluster;
import org.itsrt.pipeline.BudgetHook;
import org.itsrt.pipeline.RunResult;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.pipeline.StackSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two TaskManagers of one slot each, the job on one of them: that one is killed (SIGKILL) under
 * load; the JobManager restarts the job from its last checkpoint on the other's free slot.
 */
class TaskManagerFailoverTest {

    @TempDir
    static Path dir;

    private static LocalCluster cluster;
    private static RunningStack stack;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = LocalCluster.start(
                ClusterSpec.defaults()
                        .withTaskManagers(2)
                        .withPorts(ClusterSpec.PortChoice.FREE)
                        .withStartTimeout(Duration.ofSeconds(180)),
                dir.resolve("cluster"),
                System.err);
        stack = RunningStack.start(
                StackSpec.onCluster(cluster.descriptor(0), Failover.JOB_JAR, 1, Map.of()),
                dir.resolve("flink-tmp"),
                System.err);
    }

    @AfterAll
    static void stopCluster() {
        if (stack != null) {
            stack.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void atLeastOnceTheJobRestartsOnTheFreeSlotAndNothingIsLost() throws Exception {
        runWithBusyTaskManagerKilled(false);
    }

    @Test
    void exactlyOnceEveryReadingArrivesOnceInAReadCommittedRead() throws Exception {
        runWithBusyTaskManagerKilled(true);
    }

    private void runWithBusyTaskManagerKilled(boolean exactlyOnce) throws Exception {
        int[] killed = {-1};
        RunResult result;
        try {
            result = stack.measure(
                    Failover.load(exactlyOnce),
                    Failover.job(exactlyOnce),
                    BudgetHook.NONE,
                    Failover.inject("TaskManager with the job killed", () -> {
                        killed[0] = busyTaskManager();
                        cluster.flink().taskManager(killed[0]).kill();
                    }),
                    dir.resolve(exactlyOnce ? "exactly-once" : "at-least-once"));
        } finally {
            if (killed[0] >= 0) {
                cluster.flink().taskManager(killed[0]).restart();
            }
        }
        Failover.assertRecovered("TaskManager killed", result, exactlyOnce);
    }

    /** The TaskManager whose slot the job holds (the one without a free slot). */
    private static int busyTaskManager() throws InterruptedException {
        FlinkRest rest = new FlinkRest();
        List<FlinkRest.TaskManager> taskManagers =
                rest.taskManagers(cluster.flink().leaderRestAddress());
        for (FlinkRest.TaskManager tm : taskManagers) {
            if (tm.freeSlots() == 0) {
                return cluster.flink().taskManagerIndex(tm.id());
            }
        }
        throw new AssertionError("no TaskManager runs the job: " + taskManagers);
    }
}
