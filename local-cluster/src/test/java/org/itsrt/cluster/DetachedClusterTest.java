package org.itsrt.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./its cluster up | status | down} as the commands run them: a keeper process holds the
 * cluster after {@code up} returns, {@code status} reads it through its descriptor, {@code down}
 * leaves no process and no folder.
 */
class DetachedClusterTest {

    @Test
    void upLeavesAClusterThatStatusSeesHealthyAndDownRemovesWithEveryProcess(@TempDir Path parent) throws Exception {
        Path dir = parent.resolve("cluster");
        ClusterSpec spec = ClusterSpec.defaults().withPorts(ClusterSpec.PortChoice.FREE);
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        ClusterDescriptor cluster =
                DetachedCluster.up(spec, dir, new PrintStream(progress, true, StandardCharsets.UTF_8));
        List<ClusterDescriptor.Part> processes = cluster.processes();
        try {
            assertThat(progress.toString(StandardCharsets.UTF_8))
                    .contains("its-cluster: Kafka up at", "its-cluster: Flink up, web UI");
            assertThat(cluster.keeperAlive()).as("the keeper holds the cluster").isTrue();
            assertThat(processes)
                    .extracting(ClusterDescriptor.Part::name)
                    .containsExactly("kafka-1", "jobmanager-1", "taskmanager-1");
            assertThat(cluster.alive()).hasSize(3);
            for (ClusterDescriptor.Part part : processes) {
                assertThat(Path.of(part.log())).as(part.name() + "'s log").exists();
            }
            assertThat(Path.of(cluster.flink().configFile())).content().contains("taskmanager.numberOfTaskSlots: 1");

            ClusterStatus status = ClusterStatus.of(ClusterDescriptor.read(dir));
            assertThat(status.problems()).isEmpty();
            assertThat(status.leader()).contains(cluster.restAddresses().get(0));
            assertThat(status.taskManagers()).singleElement().satisfies(tm -> assertThat(tm.slots())
                    .isEqualTo(1));
            assertThat(status.partitions()).hasSize(3).allSatisfy(p -> assertThat(p.isr())
                    .isEqualTo(p.replicas()));
            assertThat(status.render())
                    .contains("JobManager leader: " + cluster.restAddresses().get(0), "healthy");

            assertThatThrownBy(() -> DetachedCluster.up(spec, dir, System.err))
                    .as("up twice")
                    .hasMessageContaining("a cluster is already up in " + dir)
                    .hasMessageContaining("1 JobManager, 1 TaskManager x 1 slot, 1 Kafka broker")
                    .hasMessageContaining("./its cluster down --dir " + dir);
        } finally {
            List<String> stopped = DetachedCluster.down(dir, false, System.err);
            assertThat(stopped).anyMatch(line -> line.contains("stopped the cluster"));
        }
        assertNothingLeft(cluster, processes, dir);
    }

    @Test
    void aFlinkOnlyClusterRunsNoBrokerAndItsJobNeedsTheBrokersGiven(@TempDir Path parent) throws Exception {
        Path dir = parent.resolve("cluster");
        ClusterSpec spec =
                ClusterSpec.defaults().withPorts(ClusterSpec.PortChoice.FREE).withBrokers(0);
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        ClusterDescriptor cluster =
                DetachedCluster.up(spec, dir, new PrintStream(progress, true, StandardCharsets.UTF_8));
        List<ClusterDescriptor.Part> processes = cluster.processes();
        try {
            assertThat(progress.toString(StandardCharsets.UTF_8))
                    .contains("its-cluster: no Kafka (--brokers 0)")
                    .doesNotContain("Kafka up at");
            assertThat(processes)
                    .extracting(ClusterDescriptor.Part::name)
                    .containsExactly("jobmanager-1", "taskmanager-1");
            assertThat(ProcessHandle.of(cluster.keeperPid()).orElseThrow().descendants())
                    .as("no broker among the keeper's processes")
                    .noneMatch(p -> p.info().commandLine().orElse("").contains("org.itsrt.stack.kafka"));
            // The REST endpoint answers, on loopback as before (--rest-bind-address not given).
            URI rest = cluster.restAddresses().get(0);
            assertThat(rest.getHost()).isEqualTo(ClusterSpec.LOOPBACK);
            HttpResponse<String> overview = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(rest.resolve("/overview"))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(overview.statusCode()).isEqualTo(200);
            assertThat(overview.body()).contains("\"taskmanagers\":1");
            ClusterDescriptor read = ClusterDescriptor.read(dir);
            assertThat(read.kafka()).isNull();
            assertThat(org.itsrt.cluster.cli.ClusterCommand.describeUp(read))
                    .contains("Kafka          none (--brokers 0)", "-- --bootstrap-servers HOST:PORT")
                    .doesNotContain("--cluster");
            ClusterStatus status = ClusterStatus.of(read);
            assertThat(status.problems()).isEmpty();
            assertThat(status.partitions()).isEmpty();
            assertThat(status.render()).contains("Kafka: none in this cluster (--brokers 0)", "healthy");
            assertThatThrownBy(
                            () -> org.itsrt.cluster.cli.ClusterCommand.jobArguments(read, List.of("--identity"), null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("give the job's --bootstrap-servers HOST:PORT after --");
            assertThat(org.itsrt.cluster.cli.ClusterCommand.jobArguments(
                            read, List.of("--identity", "--bootstrap-servers", "10.0.0.1:9092"), null))
                    .containsExactly("--identity", "--bootstrap-servers", "10.0.0.1:9092");
        } finally {
            List<String> stopped = DetachedCluster.down(dir, false, System.err);
            assertThat(stopped).anyMatch(line -> line.contains("stopped the cluster"));
        }
        assertNothingLeft(cluster, processes, dir);
    }

    @Test
    void aPartThatNeverAnswersFailsUpWithItsReasonAndLeavesNothing(@TempDir Path parent) throws Exception {
        Path dir = parent.resolve("cluster");
        // One second is far too little for a broker to start: the same path as a broker that never answers.
        ClusterSpec spec =
                ClusterSpec.defaults().withPorts(ClusterSpec.PortChoice.FREE).withStartTimeout(Duration.ofSeconds(1));
        assertThatThrownBy(() -> DetachedCluster.up(spec, dir, System.err))
                .hasMessageContaining("the cluster did not come up")
                .hasMessageContaining("was not ready within 1 s");
        assertThat(dir).as("a folder up created is removed").doesNotExist();
        assertThat(javaProcessesMentioning(dir)).isEmpty();
    }

    @Test
    void aFolderThatCannotBeCreatedIsNamed(@TempDir Path parent) throws Exception {
        Path file = Files.writeString(parent.resolve("a-file"), "not a folder");
        Path dir = file.resolve("cluster");
        assertThatThrownBy(() -> DetachedCluster.up(ClusterSpec.defaults(), dir, System.err))
                .hasMessageContaining("cannot create the cluster folder " + dir);
    }

    @Test
    void downWithoutAClusterNamesTheFolder(@TempDir Path dir) {
        assertThatThrownBy(() -> DetachedCluster.down(dir, false, System.err))
                .hasMessageContaining("no cluster descriptor: is a cluster up in " + dir);
    }

    /** Java processes whose command line names {@code dir}: what a failed start must not leave. */
    static List<ProcessHandle> javaProcessesMentioning(Path dir) {
        return ProcessHandle.allProcesses()
                .filter(ProcessHandle::isAlive)
                .filter(p -> ClusterDescriptor.commandLine(p).contains(dir.toString()))
                .toList();
    }

    /** After down: no process of the cluster, not its keeper, and no folder. */
    private static void assertNothingLeft(ClusterDescriptor cluster, List<ClusterDescriptor.Part> processes, Path dir) {
        for (ClusterDescriptor.Part part : processes) {
            assertThat(ProcessHandle.of(part.pid()).map(ProcessHandle::isAlive))
                    .as(part.name() + " after down")
                    .isNotEqualTo(java.util.Optional.of(true));
        }
        assertThat(ProcessHandle.of(cluster.keeperPid()).map(ProcessHandle::isAlive))
                .isNotEqualTo(java.util.Optional.of(true));
        assertThat(dir).doesNotExist();
    }
}
