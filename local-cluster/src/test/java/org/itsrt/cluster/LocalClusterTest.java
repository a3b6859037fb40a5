package org.itsrt.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The failures of a start that must leave no process behind, named for the user. */
class LocalClusterTest {

    @Test
    void aTakenStandardPortIsNamedBeforeAnyProcessStarts(@TempDir Path dir) throws IOException {
        ClusterSpec spec = ClusterSpec.defaults();
        int kafkaPort = spec.kafkaPorts().get(0);
        // Held here, or already held by something else: either way the port is taken.
        try (ServerSocket taken = bindOrNull(kafkaPort)) {
            assertThatThrownBy(() -> LocalCluster.start(spec, dir.resolve("cluster"), System.err))
                    .hasMessageContaining("port " + kafkaPort)
                    .hasMessageContaining("Kafka broker 1 listener")
                    .hasMessageContaining("is taken");
        }
        assertThat(DetachedClusterTest.javaProcessesMentioning(dir)).isEmpty();
    }

    @Test
    void aRestAddressThisMachineDoesNotHaveIsNamedBeforeAnyProcessStarts(@TempDir Path dir) {
        // TEST-NET-1 (RFC 5737) is never an address of this machine: only a bind is tried.
        ClusterSpec spec = ClusterSpec.defaults()
                .withBrokers(0)
                .withPorts(ClusterSpec.PortChoice.FREE)
                .withRestBindAddress("192.0.2.1");
        assertThatThrownBy(() -> LocalCluster.start(spec, dir.resolve("cluster"), System.err))
                .hasMessageStartingWith("--rest-bind-address 192.0.2.1: Flink's REST endpoint cannot bind it")
                .hasMessageEndingWith("is it an address of this machine?");
        assertThat(DetachedClusterTest.javaProcessesMentioning(dir)).isEmpty();
    }

    @Test
    void zooKeeperThatNeverAnswersFailsTheStartAndLeavesNoProcess(@TempDir Path dir) {
        ClusterSpec spec = ClusterSpec.defaults()
                .withHa(true)
                .withPorts(ClusterSpec.PortChoice.FREE)
                .withStartTimeout(Duration.ofMillis(300));
        assertThatThrownBy(() -> LocalCluster.start(spec, dir.resolve("cluster"), System.err))
                .hasMessageContaining("ZooKeeper")
                .hasMessageContaining("not ready within");
        assertThat(DetachedClusterTest.javaProcessesMentioning(dir)).isEmpty();
    }

    @Test
    void anUnwritableFolderIsNamed(@TempDir Path dir) throws IOException {
        Assumptions.assumeFalse(
                "root".equals(System.getProperty("user.name")), "root writes into any folder: nothing to refuse");
        Path locked = Files.createDirectory(dir.resolve("locked"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-x------"));
        try {
            assertThatThrownBy(() -> LocalCluster.start(ClusterSpec.defaults(), locked.resolve("c"), System.err))
                    .hasMessageContaining(locked.resolve("c").toString());
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void theClientOptionsAreTheHighAvailabilityOptionsOfConfigYaml(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(
                dir.resolve("config.yaml"),
                String.join(
                        "\n",
                        "rest.port: 8081",
                        "high-availability.type: zookeeper",
                        "high-availability.zookeeper.quorum: 127.0.0.1:2181",
                        "high-availability.storageDir: 'file:///tmp/its cluster/ha'",
                        ""));
        assertThat(LocalCluster.clientOptions(config))
                .isEqualTo(Map.of(
                        "high-availability.type", "zookeeper",
                        "high-availability.zookeeper.quorum", "127.0.0.1:2181",
                        "high-availability.storageDir", "file:///tmp/its cluster/ha"));
    }

    @Test
    void submittingToAClusterThatIsDownNamesEveryAddressTried(@TempDir Path dir) throws Exception {
        int first = freePort();
        int second = freePort();
        ClusterDescriptor down = new ClusterDescriptor(
                ClusterDescriptor.FORMAT,
                dir.toString(),
                0,
                0,
                "2 JobManagers",
                null,
                new ClusterDescriptor.KafkaPart("127.0.0.1:1", 1, 1, List.of()),
                new ClusterDescriptor.FlinkPart(
                        dir.resolve("conf/config.yaml").toString(),
                        List.of(
                                new ClusterDescriptor.JobManagerPart("http://127.0.0.1:" + first + "/", null),
                                new ClusterDescriptor.JobManagerPart("http://127.0.0.1:" + second + "/", null)),
                        List.of(),
                        Map.of()));
        Path jar = Files.writeString(dir.resolve("job.jar"), "not used");
        assertThatThrownBy(() -> FlinkSubmit.submit(down, jar, List.of(), Duration.ofSeconds(10)))
                .hasMessageContaining("no Flink JobManager answered as leader at http://127.0.0.1:" + first
                        + "/, http://127.0.0.1:" + second + "/")
                .hasMessageContaining("is it up?");
    }

    private static ServerSocket bindOrNull(int port) {
        try {
            return new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
        } catch (IOException takenAlready) {
            return null;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
