package org.itsrt.stack.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;
import org.itsrt.stack.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A broker for clients on other machines: its client listener on an address given, advertised as
 * that address. 127.0.0.2 stands for such an address here - a loopback address, but not the one
 * the broker uses by default, so a listener left on 127.0.0.1 would show.
 */
class ListeningKafkaTest {

    private static final String OTHER_LOOPBACK = "127.0.0.2";

    @Test
    void theListenerBindsAndAdvertisesTheAddressGivenAndClientsUseIt(@TempDir Path parent) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getByName(OTHER_LOOPBACK))) {
            port = free.getLocalPort();
        }
        try (LocalKafka kafka = LocalKafka.start(LocalKafka.Options.defaults()
                .withParentDir(parent)
                .withHost(OTHER_LOOPBACK)
                .withPorts(List.of(port), List.of())
                .withStartTimeout(Duration.ofSeconds(120)))) {
            assertThat(kafka.bootstrapServers()).isEqualTo(OTHER_LOOPBACK + ":" + port);
            kafka.createTopics(List.of("its.readings"), 1);
            try (Admin admin = Admin.create(
                    Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, OTHER_LOOPBACK + ":" + port))) {
                // What a client on another machine is told to connect to.
                List<Node> nodes = List.copyOf(admin.describeCluster().nodes().get());
                assertThat(nodes).singleElement().satisfies(node -> {
                    assertThat(node.host()).isEqualTo(OTHER_LOOPBACK);
                    assertThat(node.port()).isEqualTo(port);
                });
                assertThat(admin.listTopics().names().get()).contains("its.readings");
            }
        }
    }

    @Test
    void anAddressThisMachineDoesNotHaveIsRefusedBeforeAnythingStarts() {
        // TEST-NET-1 (RFC 5737): never an address of this machine; only a bind is tried.
        assertThatThrownBy(() -> ChildJvm.requireFreePort("192.0.2.1", 9092, "Kafka broker 1 listener"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("port 9092 on 192.0.2.1 (Kafka broker 1 listener) cannot be bound (")
                .hasMessageEndingWith("): is 192.0.2.1 an address of this machine?");
    }

    @Test
    void theCommandRefusesAMalformedListenAndOneItCannotServeInOneLine() {
        for (List<String> args : List.of(
                List.of("--listen", "10.0.0.1"),
                List.of("--listen", "10.0.0.1:99999"),
                List.of("--listen", "10.0.0.1:9092", "--brokers", "3"),
                List.of("--listen", "10.0.0.1:9092", "--secure"),
                List.of("--start-timeout", "0s"))) {
            StringWriter err = new StringWriter();
            CommandLine cmd = new CommandLine(new LocalKafkaCommand());
            cmd.setErr(new PrintWriter(err));
            int exit = cmd.execute(args.toArray(String[]::new));
            assertThat(exit).as(String.join(" ", args)).isEqualTo(2);
            assertThat(err.toString().lines().findFirst().orElse(""))
                    .as(String.join(" ", args))
                    .containsAnyOf("--listen", "--start-timeout")
                    .doesNotContain("Exception");
        }
    }
}
