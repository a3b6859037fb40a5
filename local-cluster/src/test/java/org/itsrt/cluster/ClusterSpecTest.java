package org.itsrt.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ClusterSpecTest {

    private static final Path DIR = Path.of("/tmp/its-cluster");

    @Test
    void flinksRestEndpointListensOnLoopbackUnlessToldOtherwise() {
        assertThat(ClusterConfigFile.hostSettings(ClusterSpec.defaults(), DIR))
                .containsEntry("rest.bind-address", "127.0.0.1")
                .containsEntry("rest.address", "127.0.0.1");

        ClusterSpec open = ClusterSpec.defaults().withRestBindAddress("0.0.0.0");
        assertThat(ClusterConfigFile.hostSettings(open, DIR)).containsEntry("rest.bind-address", "0.0.0.0");
        // The file says how it was made, so a rendering with an open endpoint can be told apart.
        assertThat(ClusterConfigFile.forHost(open, DIR)).contains("--rest-bind-address 0.0.0.0");
        // Everything but the endpoint's address stays as it was.
        assertThat(open.withRestBindAddress(ClusterSpec.LOOPBACK)).isEqualTo(ClusterSpec.defaults());
    }

    @Test
    void aKeeperStartsTheSpecItWasGiven() {
        ClusterSpec spec =
                ClusterSpec.defaults().withRestBindAddress("192.0.2.10").withSlots(2);
        assertThat(ClusterKeeper.arguments(spec, DIR))
                .containsSequence("--rest-bind-address", "192.0.2.10")
                .containsSequence("--slots", "2");
        // The keeper reads them with ./its cluster up's own options, back into the very same spec.
        for (ClusterSpec given : java.util.List.of(
                spec,
                ClusterSpec.defaults().withBrokers(3).withHa(true),
                ClusterSpec.defaults().withBrokers(0))) {
            ClusterKeeper keeper = new ClusterKeeper();
            new picocli.CommandLine(keeper)
                    .parseArgs(ClusterKeeper.arguments(given, DIR).toArray(String[]::new));
            assertThat(keeper.shape.spec(keeper.ports, java.time.Duration.ofSeconds(keeper.startTimeoutSeconds)))
                    .isEqualTo(given);
            assertThat(keeper.folder.resolve()).isEqualTo(DIR);
        }
    }

    @Test
    void aRestEndpointOnAnotherAddressIsReachedThereWhileTheProcessesTalkOverLoopback() {
        ClusterSpec rtVm = ClusterSpec.defaults().withBrokers(0).withRestBindAddress("10.0.0.2");
        assertThat(ClusterConfigFile.hostSettings(rtVm, DIR))
                // Where clients, the leader's record and up/status/submit reach the endpoint.
                .containsEntry("rest.bind-address", "10.0.0.2")
                .containsEntry("rest.address", "10.0.0.2")
                // The JobManager's RPC and the TaskManagers stay on loopback.
                .containsEntry("jobmanager.rpc.address", "127.0.0.1")
                .containsEntry("jobmanager.bind-host", "127.0.0.1")
                .containsEntry("taskmanager.host", "127.0.0.1")
                .containsEntry("taskmanager.bind-host", "127.0.0.1");
        // Every interface names none to reach: this host reaches it over loopback.
        assertThat(ClusterConfigFile.hostSettings(ClusterSpec.defaults().withRestBindAddress("0.0.0.0"), DIR))
                .containsEntry("rest.address", "127.0.0.1")
                .containsEntry("jobmanager.bind-host", "127.0.0.1");
    }

    @Test
    void anEmptyBindAddressIsRefused() {
        assertThatThrownBy(() -> ClusterSpec.defaults().withRestBindAddress(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--rest-bind-address");
    }

    @Test
    void brokersAreNoneOneOrThree() {
        assertThat(ClusterSpec.defaults().withBrokers(0).describe())
                .isEqualTo("1 JobManager, 1 TaskManager x 1 slot, 0 Kafka brokers");
        assertThatThrownBy(() -> ClusterSpec.defaults().withBrokers(2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--brokers must be 0 (Flink only, for a Kafka cluster that runs elsewhere), 1, or 3 "
                        + "(replication factor 3), got 2");
    }
}
