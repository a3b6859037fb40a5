package org.itsrt.stack.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalKafkaTest {

    @Test
    void startsARealBrokerCarriesRecordsAndLeavesNothingBehind(@TempDir Path parent) throws Exception {
        Path dataDir;
        ProcessHandle broker;
        int port;
        try (LocalKafka kafka = LocalKafka.start(LocalKafkaOptions.defaults().withParentDir(parent))) {
            dataDir = kafka.dataDir();
            broker = ProcessHandle.of(kafka.pid()).orElseThrow();
            port = Integer.parseInt(
                    kafka.bootstrapServers().substring(kafka.bootstrapServers().lastIndexOf(':') + 1));
            kafka.createTopics(LocalKafka.PIPELINE_TOPICS, 1);
            kafka.createTopics(List.of("its.readings"), 1); // again: existing topics are kept

            try (var admin = kafka.admin()) {
                assertThat(admin.listTopics().names().get()).containsAll(LocalKafka.PIPELINE_TOPICS);
            }
            try (var producer = new KafkaProducer<String, String>(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                    new StringSerializer(),
                    new StringSerializer())) {
                for (int i = 0; i < 5; i++) {
                    producer.send(new ProducerRecord<>("its.readings", "r" + i)).get();
                }
            }
            List<String> read = new ArrayList<>();
            try (var consumer = new KafkaConsumer<String, String>(
                    Map.of(
                            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                            ConsumerConfig.GROUP_ID_CONFIG, "local-kafka-test",
                            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                    new StringDeserializer(),
                    new StringDeserializer())) {
                consumer.subscribe(Set.of("its.readings"));
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (read.size() < 5 && System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                        read.add(r.value());
                    }
                }
            }
            assertThat(read).containsExactly("r0", "r1", "r2", "r3", "r4");
            assertThat(kafka.brokers()).isEqualTo(1);
            assertThat(kafka.bootstrapServers()).doesNotContain(",");
            assertThat(kafka.logFile(1)).startsWith(dataDir);
            assertThat(Files.readString(kafka.logFile(1), StandardCharsets.UTF_8))
                    .as("the broker logs through the bundled SLF4J binding")
                    .contains("Kafka Server started");
        }
        assertThat(broker.isAlive()).isFalse();
        assertThat(dataDir).doesNotExist();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            throw new AssertionError("port " + port + " still accepts connections after close");
        } catch (java.io.IOException expected) {
            // refused: nothing listens any more
        }
    }
}
