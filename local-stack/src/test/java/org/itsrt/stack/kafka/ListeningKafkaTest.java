package org.itsrt.stack.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.itsrt.stack.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ./its kafka --listen HOST:PORT}: one broker whose client listener binds HOST:PORT and
 * is advertised as HOST:PORT, for clients on other machines (the Xen lab's dom0 at 10.0.0.1).
 * Here HOST is 127.0.0.1, the only address these tests send to; the port given, not a free one
 * the broker picked, is what shows the option took.
 */
class ListeningKafkaTest {

    private static final String LOOPBACK = "127.0.0.1";
    private static final String TOPIC = "its.readings";

    @Test
    void theBrokerListensOnAndAdvertisesExactlyTheAddressGivenAndClientsUseIt(@TempDir Path parent) throws Exception {
        int port = ChildJvm.freeLoopbackPort();
        String listen = LOOPBACK + ":" + port;
        LocalKafkaOptions options = command("--listen", listen).options().withParentDir(parent);
        assertThat(options.host()).isEqualTo(LOOPBACK);
        assertThat(options.brokerPorts()).containsExactly(port);
        try (LocalKafka kafka = LocalKafka.start(options)) {
            assertThat(kafka.bootstrapServers()).isEqualTo(listen);
            kafka.createTopics(List.of(TOPIC), 1);
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, listen))) {
                // What the cluster's metadata tells a client to connect to.
                List<Node> nodes = List.copyOf(admin.describeCluster().nodes().get());
                assertThat(nodes).singleElement().satisfies(node -> {
                    assertThat(node.host()).isEqualTo(LOOPBACK);
                    assertThat(node.port()).isEqualTo(port);
                });
            }
            try (var producer = new KafkaProducer<String, String>(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, listen),
                    new StringSerializer(),
                    new StringSerializer())) {
                List<PartitionInfo> partitions = producer.partitionsFor(TOPIC);
                assertThat(partitions).singleElement().satisfies(p -> {
                    assertThat(p.leader().host()).isEqualTo(LOOPBACK);
                    assertThat(p.leader().port()).isEqualTo(port);
                });
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, "r" + i)).get();
                }
            }
            List<String> read = new ArrayList<>();
            try (var consumer = new KafkaConsumer<String, String>(
                    Map.of(
                            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, listen,
                            ConsumerConfig.GROUP_ID_CONFIG, "listening-kafka-test",
                            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                    new StringDeserializer(),
                    new StringDeserializer())) {
                consumer.subscribe(Set.of(TOPIC));
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (read.size() < 3 && System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                        read.add(r.value());
                    }
                }
            }
            assertThat(read).containsExactly("r0", "r1", "r2");
        }
    }

    @Test
    void withoutListenTheBrokerIsOnAFreeLoopbackPortAsBefore() {
        LocalKafkaOptions options = command().options();
        assertThat(options.host()).isEqualTo(LOOPBACK);
        assertThat(options.brokerPorts()).isEmpty();
    }

    @Test
    void anAddressToListenOnIsForOnePlaintextNodeWhateverTheOrderOfTheOptions() {
        assertThatThrownBy(
                        () -> LocalKafkaOptions.defaults().withHost("10.0.0.1").withBrokers(3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one PLAINTEXT node");
        assertThatThrownBy(() -> LocalKafkaOptions.defaults().withSecurity(true).withHost("10.0.0.1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one PLAINTEXT node");
    }

    @Test
    void theCommandRefusesWhatItCannotServeInOneLineNamingListenBeforeAnythingStarts() throws Exception {
        // TEST-NET-1 (RFC 5737) is never an address of this machine: only a bind is tried, no packet sent.
        assertRefused("must be HOST:PORT", "--listen", "10.0.0.1");
        assertRefused("must be HOST:PORT", "--listen", ":9092");
        assertRefused("must be HOST:PORT", "--listen", "10.0.0.1:99999");
        assertRefused("must be HOST:PORT", "--listen", "10.0.0.1:http");
        assertRefused("not 0.0.0.0", "--listen", "0.0.0.0:9092");
        assertRefused("is 192.0.2.1 an address of this machine?", "--listen", "192.0.2.1:9092");
        assertRefused("one PLAINTEXT broker", "--listen", "10.0.0.1:9092", "--brokers", "3");
        assertRefused("one PLAINTEXT broker", "--listen", "10.0.0.1:9092", "--secure");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            assertRefused("is taken by another process", "--listen", LOOPBACK + ":" + taken.getLocalPort());
        }
    }

    @Test
    void aStartTimeoutMustBePositive() {
        assertThatThrownBy(() -> command("--start-timeout", "0s").options())
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageStartingWith("--start-timeout must be positive");
    }

    /** The command with its arguments parsed, not run. */
    private static LocalKafkaCommand command(String... args) {
        LocalKafkaCommand command = new LocalKafkaCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }

    /** Runs the command as ./its kafka does: exit 2, and the first line says what to fix, no stack trace. */
    private static void assertRefused(String expected, String... args) {
        StringWriter err = new StringWriter();
        CommandLine cmd = new CommandLine(new LocalKafkaCommand());
        cmd.setErr(new PrintWriter(err));
        String given = String.join(" ", args);
        assertThat(cmd.execute(args)).as(given).isEqualTo(2);
        assertThat(err.toString()).as(given).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(err.toString().lines().findFirst().orElse(""))
                .as(given)
                .startsWith("--listen")
                .contains(expected);
    }
}
