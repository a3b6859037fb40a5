package org.itsrt.pipeline.failover;

import java.nio.file.Path;
import java.util.List;
import org.itsrt.cluster.ClusterSpec;
import org.itsrt.cluster.FlinkRest;
import org.itsrt.cluster.LocalCluster;
import org.itsrt.pipeline.BudgetHook;
import org.itsrt.pipeline.RunResult;
import org.itsrt.pipeline.RunningStack;
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

    private static FailoverCluster failover;
    private static LocalCluster cluster;
    private static RunningStack stack;

    @BeforeAll
    static void startCluster() throws Exception {
        failover = FailoverCluster.start(ClusterSpec.defaults().withTaskManagers(2), dir);
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
