package org.itsrt.stack.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.itsrt.stack.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalKafkaClusterTest {

    private static final String TOPIC = "its.cluster-test";
    private static final int PARTITIONS = 3;

    @Test
    void threeBrokersKeepEveryAcknowledgedRecordWhileOneIsDownAndCatchUpAfterARestart(@TempDir Path parent)
            throws Exception {
        Path dataDir;
        List<ProcessHandle> processes = new ArrayList<>();
        long started = System.nanoTime();
        try (LocalKafka kafka =
                LocalKafka.start(LocalKafkaOptions.defaults().withBrokers(3).withParentDir(parent))) {
            report("3-broker start", started);
            dataDir = kafka.dataDir();
            kafka.pids().forEach(pid -> processes.add(ProcessHandle.of(pid).orElseThrow()));
            assertThat(kafka.brokers()).isEqualTo(3);
            assertThat(kafka.pids()).doesNotHaveDuplicates();
            assertThat(kafka.bootstrapServers().split(","))
                    .containsExactly(IntStream.rangeClosed(1, 3)
                            .mapToObj(id -> "127.0.0.1:" + kafka.port(id))
                            .toArray(String[]::new));
            for (int id = 1; id <= 3; id++) {
                assertThat(kafka.broker(id).dir().getParent()).isEqualTo(dataDir);
                assertThat(kafka.broker(id).dir().getFileName().toString()).startsWith("broker-" + id + "-");
            }

            long creating = System.nanoTime();
            kafka.createTopics(List.of(TOPIC), PARTITIONS);
            report("topic created, replicas in sync", creating);
            assertThat(kafka.describe(List.of(TOPIC)).get(TOPIC))
                    .hasSize(PARTITIONS)
                    .allSatisfy(p -> {
                        assertThat(p.replicas()).containsExactlyInAnyOrder(1, 2, 3);
                        assertThat(p.isr()).containsExactlyInAnyOrder(1, 2, 3);
                        assertThat(p.inSync()).isTrue();
                    });
            try (Admin admin = kafka.admin()) {
                ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, TOPIC);
                assertThat(admin.describeConfigs(List.of(topic))
                                .all()
                                .get()
                                .get(topic)
                                .get("min.insync.replicas")
                                .value())
                        .isEqualTo("2");
            }

            try (var producer = producer(kafka)) {
                sendAll(producer, 0, 100);
                long stopping = System.nanoTime();
                kafka.stopBroker(2);
                report("broker 2 stopped", stopping);
                assertThat(processes.get(1).isAlive()).isFalse();
                assertThat(kafka.broker(2).dir()).isDirectory();
                // acks=all with two of three replicas in sync: every record is acknowledged.
                sendAll(producer, 100, 200);
            }
            assertThat(readAll(kafka, 200))
                    .as("every acknowledged record, read with broker 2 down")
                    .containsExactlyInAnyOrderElementsOf(values(0, 200));
            assertThat(kafka.describe(List.of(TOPIC)).get(TOPIC))
                    .allSatisfy(p -> assertThat(p.isr()).doesNotContain(2));

            long restarting = System.nanoTime();
            kafka.restartBroker(2);
            report("broker 2 restarted, back in the cluster", restarting);
            kafka.awaitInSync(List.of(TOPIC), Duration.ofSeconds(60));
            report("broker 2 restarted, back in every ISR", restarting);
            assertThat(kafka.describe(List.of(TOPIC)).get(TOPIC)).allMatch(PartitionState::inSync);
            processes.add(ProcessHandle.of(kafka.broker(2).pid()).orElseThrow());

            // A crash: killed, broker 3 comes back on its own log after recovery.
            kafka.killBroker(3);
            assertThat(processes.get(2).isAlive()).isFalse();
            long recovering = System.nanoTime();
            kafka.restartBroker(3);
            kafka.awaitInSync(List.of(TOPIC), Duration.ofSeconds(60));
            report("broker 3 killed, restarted, back in every ISR", recovering);
            processes.add(ProcessHandle.of(kafka.broker(3).pid()).orElseThrow());
            try (var producer = producer(kafka)) {
                sendAll(producer, 200, 210);
            }
            assertThat(readAll(kafka, 210)).containsExactlyInAnyOrderElementsOf(values(0, 210));
            started = System.nanoTime();
        }
        report("close", started);
        assertThat(processes).noneMatch(ProcessHandle::isAlive);
        assertThat(dataDir).doesNotExist();
    }

    @Test
    void aTakenFixedPortFailsTheStartNamingItAndLeavesNothingBehind(@TempDir Path parent) throws Exception {
        Set<Long> childrenBefore = children();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            Set<Integer> ports = new HashSet<>(Set.of(port));
            while (ports.size() < 3) {
                ports.add(ChildJvm.freeLoopbackPort());
            }
            ports.remove(port);
            List<Integer> others = List.copyOf(ports);
            assertThatThrownBy(() -> LocalKafka.start(LocalKafkaOptions.defaults()
                            .withBrokers(3)
                            .withParentDir(parent)
                            .withPorts(List.of(others.get(0), port, others.get(1)), List.of())))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("port " + port)
                    .hasMessageContaining("Kafka broker 2 listener");
        }
        assertThat(children()).as("no process started").isSubsetOf(childrenBefore);
        try (var left = Files.list(parent)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void refusesOtherSizesAndPortsThatDoNotFit() {
        assertThatThrownBy(() -> LocalKafkaOptions.defaults().withBrokers(2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 or 3 brokers, not 2");
        assertThatThrownBy(() -> LocalKafka.start(
                        LocalKafkaOptions.defaults().withBrokers(3).withPorts(List.of(19092), List.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("do not fit 3 brokers");
        assertThatThrownBy(
                        () -> LocalKafka.start(LocalKafkaOptions.defaults().withPorts(List.of(19092), List.of(19092))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not all different");
    }

    private static KafkaProducer<String, String> producer(LocalKafka kafka) {
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        kafka.bootstrapServers(),
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        true,
                        ProducerConfig.LINGER_MS_CONFIG,
                        0),
                new StringSerializer(),
                new StringSerializer());
    }

    /** Sends records from {@code from} to {@code to} (keys spread them over every partition); all must be acknowledged. */
    private static void sendAll(KafkaProducer<String, String> producer, int from, int to) throws Exception {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (int i = from; i < to; i++) {
            acks.add(producer.send(new ProducerRecord<>(TOPIC, "k" + i, "r" + i)));
        }
        for (Future<RecordMetadata> ack : acks) {
            ack.get();
        }
    }

    /** Reads the topic from the start without a consumer group (no offsets topic needed). */
    private static List<String> readAll(LocalKafka kafka, int expected) {
        List<String> read = new ArrayList<>();
        try (var consumer = new KafkaConsumer<String, String>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        kafka.bootstrapServers(),
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = IntStream.range(0, PARTITIONS)
                    .mapToObj(p -> new TopicPartition(TOPIC, p))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (read.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    read.add(r.value());
                }
            }
        }
        return read;
    }

    private static Set<Long> children() {
        return ProcessHandle.current().children().map(ProcessHandle::pid).collect(java.util.stream.Collectors.toSet());
    }

    private static List<String> values(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "r" + i).toList();
    }

    private static void report(String what, long sinceNanos) {
        System.out.printf("LocalKafkaClusterTest: %s: %.1f s%n", what, (System.nanoTime() - sinceNanos) / 1e9);
    }
}
