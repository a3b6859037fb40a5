package org.itsrt.pipeline.failover;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.itsrt.cluster.ClusterDescriptor;
import org.itsrt.cluster.ClusterSpec;
import org.itsrt.cluster.FlinkRest;
import org.itsrt.cluster.FlinkSubmit;
import org.itsrt.cluster.LocalCluster;
import org.itsrt.pipeline.BudgetHook;
import org.itsrt.pipeline.RunResult;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.stack.ChildJvm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JobManagers under ZooKeeper leader election: the leader is killed (SIGKILL) under load;
 * the standby takes the lead, recovers the job from the HA store and its last checkpoint, and
 * the job goes on.
 */
class JobManagerFailoverTest {

    @TempDir
    static Path dir;

    private static FailoverCluster failover;
    private static LocalCluster cluster;
    private static RunningStack stack;

    @BeforeAll
    static void startCluster() throws Exception {
        failover = FailoverCluster.start(ClusterSpec.defaults().withJobManagers(2), dir);
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
    void atLeastOnceTheStandbyRecoversTheJobAndNothingIsLost() throws Exception {
        runWithLeaderKilled("JobManager leader killed", false);
    }

    @Test
    void exactlyOnceEveryReadingArrivesOnceInAReadCommittedRead() throws Exception {
        runWithLeaderKilled("JobManager leader killed", true);
    }

    @Test
    void flinksOwnClientSubmitsTheJobJarToWhicheverJobManagerLeads() throws Exception {
        ClusterDescriptor descriptor = cluster.descriptor(0);
        FlinkSubmit.Submitted submitted = FlinkSubmit.submit(
                descriptor,
                Failover.JOB_JAR,
                org.itsrt.cluster.cli.ClusterCommand.jobArguments(descriptor, List.of("--identity"), null),
                Duration.ofMinutes(2));
        FlinkRest rest = new FlinkRest();
        URI leader = rest.requireLeader(
                descriptor.restAddresses(), descriptor.flink().clientOptions());
        try {
            assertThat(submitted.leader()).isEqualTo(leader);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            String state = "";
            while (!state.equals("RUNNING") && System.nanoTime() < deadline) {
                state = rest.jobs(leader).stream()
                        .filter(job -> job.id().equals(submitted.jobId()))
                        .map(FlinkRest.Job::state)
                        .findFirst()
                        .orElse("unknown");
                Thread.sleep(200);
            }
            assertThat(state)
                    .as("the submitted job's state; client output " + submitted.log())
                    .isEqualTo("RUNNING");
        } finally {
            rest.cancel(leader, submitted.jobId());
        }
    }

    private void runWithLeaderKilled(String scenario, boolean exactlyOnce) throws Exception {
        List<URI> addresses = cluster.flink().restAddresses();
        int[] killed = {-1};
        RunResult result;
        try {
            result = stack.measure(
                    Failover.load(exactlyOnce),
                    Failover.job(exactlyOnce),
                    BudgetHook.NONE,
                    Failover.inject("JobManager leader killed", () -> {
                        URI leader = cluster.flink().leaderRestAddress();
                        killed[0] = addresses.indexOf(leader);
                        cluster.flink().jobManager(killed[0]).kill();
                    }),
                    dir.resolve(exactlyOnce ? "exactly-once" : "at-least-once"));
        } finally {
            // Back to two JobManagers for the next run: the killed one returns as the standby.
            if (killed[0] >= 0) {
                ChildJvm jobManager = cluster.flink().jobManager(killed[0]);
                jobManager.restart();
            }
        }
        URI newLeader = cluster.flink().awaitLeader(Duration.ofSeconds(60));
        assertThat(addresses.indexOf(newLeader)).as("the standby leads now").isNotEqualTo(killed[0]);
        Failover.assertRecovered(scenario, result, exactlyOnce);
    }
}
