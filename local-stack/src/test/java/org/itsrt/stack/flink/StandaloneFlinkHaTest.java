package org.itsrt.stack.flink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.itsrt.stack.zookeeper.LocalZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JobManagers with ZooKeeper high availability and one TaskManager: one JobManager leads, the
 * other stands by; the leader killed (SIGKILL) while a checkpointing job runs, the standby leads
 * once the dead one's ZooKeeper session has expired, the TaskManager registers with it, and the
 * job runs again from its last checkpoint. Times are printed, not asserted (the machine is shared).
 */
class StandaloneFlinkHaTest {

    /** Far more than a failover takes (about the HA session timeout, 5 s, and Flink's own start of the leader). */
    private static final Duration FAILOVER_BOUND = Duration.ofSeconds(60);

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void oneOfTwoJobManagersLeadsAndWhenItIsKilledTheOtherTakesOverTheTaskManagerAndTheJob(@TempDir Path parent)
            throws Exception {
        Path dir;
        Path zooKeeperDir;
        List<ProcessHandle> processes = new ArrayList<>();
        long begin = System.nanoTime();
        try (LocalZooKeeper zk =
                        LocalZooKeeper.start(LocalZooKeeper.Options.defaults().withParentDir(parent));
                StandaloneFlink flink = StandaloneFlink.start(StandaloneFlinkOptions.builder()
                        .jobManagers(2)
                        .zooKeeperQuorum(zk.connectString())
                        .parentDir(parent)
                        .build())) {
            System.out.printf(
                    "ZooKeeper and a cluster of 2 JobManagers and 1 TaskManager up in %d ms%n",
                    Duration.ofNanos(System.nanoTime() - begin).toMillis());
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

            String job = submit(http, leader);
            awaitJob(
                    http,
                    leader,
                    job,
                    "a completed checkpoint",
                    checkpoints -> checkpoints.path("counts").path("completed").asInt() > 0);

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
            // The new leader recovered the job from the HA folder and restored its last checkpoint.
            JsonNode restored = awaitJob(
                    http,
                    next,
                    job,
                    "the job restored from a checkpoint and running",
                    checkpoints -> !checkpoints.path("latest").path("restored").isMissingNode()
                            && !checkpoints.path("latest").path("restored").isNull()
                            && running(http, next, job));
            System.out.printf(
                    "job %s restored from checkpoint %s and running %d ms after the kill%n",
                    job,
                    restored.path("latest").path("restored").path("id").asText(),
                    Duration.ofNanos(System.nanoTime() - killed).toMillis());

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

    /** Uploads {@link CheckpointingTestJob}'s jar and runs it; returns the job id. */
    private static String submit(HttpClient http, URI rest) throws Exception {
        String boundary = "its-" + System.nanoTime();
        byte[] head = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"jarfile\"; "
                        + "filename=\"checkpointing-test-job.jar\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> upload = http.send(
                HttpRequest.newBuilder(rest.resolve("/jars/upload"))
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(HttpRequest.BodyPublishers.ofByteArrays(List.of(head, CheckpointingTestJob.jar(), tail)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(upload.statusCode()).as("upload: " + upload.body()).isEqualTo(200);
        String jarId = Path.of(JSON.readTree(upload.body()).path("filename").asText())
                .getFileName()
                .toString();
        HttpResponse<String> run = http.send(
                HttpRequest.newBuilder(rest.resolve("/jars/" + jarId + "/run"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(run.statusCode()).as("run: " + run.body()).isEqualTo(200);
        return JSON.readTree(run.body()).path("jobid").asText();
    }

    /** Until the job's {@code /checkpoints} satisfies {@code condition}; returns that answer. */
    private static JsonNode awaitJob(HttpClient http, URI rest, String job, String what, Predicate<JsonNode> condition)
            throws Exception {
        long deadline = System.nanoTime() + FAILOVER_BOUND.toNanos();
        String last = null;
        while (System.nanoTime() < deadline) {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(rest.resolve("/jobs/" + job + "/checkpoints"))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            last = response.body();
            if (response.statusCode() == 200) {
                JsonNode checkpoints = JSON.readTree(last);
                if (condition.test(checkpoints)) {
                    return checkpoints;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no " + what + " of job " + job + " at " + rest + " within "
                + FAILOVER_BOUND.toSeconds() + " s; last: " + last);
    }

    /** The job and each of its tasks run. */
    private static boolean running(HttpClient http, URI rest, String job) {
        try {
            JsonNode details = JSON.readTree(get(http, rest.resolve("/jobs/" + job)));
            if (!details.path("state").asText().equals("RUNNING")) {
                return false;
            }
            for (JsonNode vertex : details.path("vertices")) {
                if (!vertex.path("status").asText().equals("RUNNING")) {
                    return false;
                }
            }
            return true;
        } catch (Exception notYet) {
            return false;
        }
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
