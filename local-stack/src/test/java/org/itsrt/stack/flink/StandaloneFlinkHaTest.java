package org.itsrt.stack.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.itsrt.stack.zookeeper.LocalZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JobManagers with ZooKeeper high availability and one TaskManager: one JobManager leads, the
 * other stands by; the leader killed (SIGKILL), the standby leads once the dead one's ZooKeeper
 * session has expired, and the TaskManager registers with it.
 */
class StandaloneFlinkHaTest {

    /** Far more than a failover takes (about the HA session timeout, 5 s, and Flink's own start of the leader). */
    private static final Duration FAILOVER_BOUND = Duration.ofSeconds(60);

    @Test
    void oneOfTwoJobManagersLeadsAndWhenItIsKilledTheOtherLeadsWithTheTaskManagerRegistered(@TempDir Path parent)
            throws Exception {
        Path dir;
        Path zooKeeperDir;
        List<ProcessHandle> processes = new ArrayList<>();
        try (LocalZooKeeper zk =
                        LocalZooKeeper.start(LocalZooKeeper.Options.defaults().withParentDir(parent));
                StandaloneFlink flink = StandaloneFlink.start(StandaloneFlink.Options.defaults()
                        .withJobManagers(2)
                        .withZooKeeperHa(zk.connectString())
                        .withParentDir(parent))) {
            dir = flink.dir();
            zooKeeperDir = zk.dir();
            processes.add(ProcessHandle.of(zk.pid()).orElseThrow());
            flink.jobManagerPids()
                    .forEach(pid -> processes.add(ProcessHandle.of(pid).orElseThrow()));
            flink.taskManagerPids()
                    .forEach(pid -> processes.add(ProcessHandle.of(pid).orElseThrow()));
            assertThat(flink.restAddresses()).hasSize(2).doesNotHaveDuplicates();
            assertThat(flink.jobManagerPids()).hasSize(2).doesNotHaveDuplicates();
            assertThat(flink.configFile())
                    .content()
                    .contains(
                            "high-availability.type: zookeeper",
                            "high-availability.zookeeper.quorum: '" + zk.connectString() + "'",
                            "high-availability.storageDir: 'file://" + dir.resolve("ha"));

            URI leader = flink.leaderRestAddress();
            int leading = flink.restAddresses().indexOf(leader);
            int standing = 1 - leading;
            URI standby = flink.restAddresses().get(standing);
            assertThat(leadershipGranted(flink, leading)).as("the leader's log").isTrue();
            assertThat(leadershipGranted(flink, standing))
                    .as("the standby's log: exactly one leader")
                    .isFalse();
            // Flink 2.2's standby answers REST requests by handing them on to the leader: its answer
            // alone does not tell who leads (hence ZooKeeper's word in leaderRestAddress()).
            HttpClient http = HttpClient.newHttpClient();
            assertThat(get(http, standby.resolve("/overview"))).contains("\"taskmanagers\":1");

            long killed = System.nanoTime();
            flink.jobManager(leading).kill();
            URI next = flink.awaitLeader(FAILOVER_BOUND);
            Duration failover = Duration.ofNanos(System.nanoTime() - killed);
            System.out.printf(
                    "JobManager failover: %s killed, %s leads with the TaskManager registered %d ms later%n",
                    leader, next, failover.toMillis());
            assertThat(next).isEqualTo(standby);
            assertThat(leadershipGranted(flink, standing)).isTrue();
            assertThat(StandaloneFlink.registeredSlots(get(http, next.resolve("/taskmanagers"))))
                    .containsExactly(1);

            // The killed JobManager comes back on its ports, as a standby.
            flink.jobManager(leading).restart();
            processes.add(ProcessHandle.of(flink.jobManagerPids().get(leading)).orElseThrow());
            assertThat(flink.leaderRestAddress()).isEqualTo(next);
            // Until it has learnt who leads, it answers 503 ("an ongoing leader election").
            assertThat(awaitOk(http, leader.resolve("/overview"))).contains("\"taskmanagers\":1");
        }
        assertThat(processes).noneMatch(ProcessHandle::isAlive);
        assertThat(dir).doesNotExist();
        assertThat(zooKeeperDir).doesNotExist();
    }

    /** Flink's REST endpoint logs it when its JobManager becomes the leader. */
    private static boolean leadershipGranted(StandaloneFlink flink, int jobManager) throws Exception {
        Path log = flink.jobManager(jobManager).dir().resolve("jobmanager-" + (jobManager + 1) + ".log");
        URI address = flink.restAddresses().get(jobManager);
        return Files.readString(log).contains("http://127.0.0.1:" + address.getPort() + " was granted leadership");
    }

    private static String awaitOk(HttpClient http, URI uri) throws Exception {
        long deadline = System.nanoTime() + FAILOVER_BOUND.toNanos();
        while (true) {
            HttpResponse<String> response =
                    http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200 || System.nanoTime() > deadline) {
                assertThat(response.statusCode())
                        .as("GET " + uri + ": " + response.body())
                        .isEqualTo(200);
                return response.body();
            }
            Thread.sleep(200);
        }
    }

    private static String get(HttpClient http, URI uri) throws Exception {
        HttpResponse<String> response =
                http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode())
                .as("GET " + uri + ": " + response.body())
                .isEqualTo(200);
        return response.body();
    }
}
