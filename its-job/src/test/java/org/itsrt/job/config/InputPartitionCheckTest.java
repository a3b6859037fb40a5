package org.itsrt.job.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.itsrt.stack.kafka.LocalKafka;
import org.itsrt.stack.kafka.LocalKafkaOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The start-up warning for an input topic with fewer partitions than the job's parallelism. */
class InputPartitionCheckTest {

    private static LocalKafka kafka;

    @BeforeAll
    static void startKafka() {
        kafka = LocalKafka.start(LocalKafkaOptions.defaults());
        kafka.createTopics(List.of("two.partitions"), 2);
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    private static KafkaSettings reading(String bootstrapServers, String topic) {
        return new KafkaSettings(
                bootstrapServers,
                topic,
                "out",
                "dead",
                "partition-check-test",
                KafkaSettings.StartingOffsets.LATEST,
                Map.of(),
                Map.of());
    }

    @Test
    void fewerPartitionsThanSubtasksAreNamedWithBothCounts() {
        KafkaSettings settings = reading(kafka.bootstrapServers(), "two.partitions");

        assertThat(InputPartitionCheck.warnings(settings, 2, InputPartitionCheck.TIMEOUT))
                .isEmpty();
        assertThat(InputPartitionCheck.warnings(settings, 1, InputPartitionCheck.TIMEOUT))
                .isEmpty();
        assertThat(InputPartitionCheck.warnings(settings, 3, InputPartitionCheck.TIMEOUT))
                .containsExactly("input topic 'two.partitions' has 2 partition(s) but the job's parallelism is 3: 1 "
                        + "source subtask(s) will read nothing; give the topic at least 3 partitions or lower "
                        + "--parallelism");
    }

    @Test
    void theDistrictsRequestsTopicIsCheckedByItsOwnName() {
        // The readings topic has enough partitions; the requests topic is another one.
        KafkaSettings settings = reading(kafka.bootstrapServers(), "two.partitions");

        assertThat(InputPartitionCheck.warnings(settings, "two.partitions", 2, InputPartitionCheck.TIMEOUT))
                .isEmpty();
        assertThat(InputPartitionCheck.warnings(settings, "no.requests", 2, InputPartitionCheck.TIMEOUT))
                .singleElement()
                .asString()
                .startsWith("partition check skipped: input topic 'no.requests' does not exist");
    }

    @Test
    void aMissingTopicGivesANoteInsteadOfAWarning() {
        assertThat(InputPartitionCheck.warnings(
                        reading(kafka.bootstrapServers(), "no.such.topic"), 2, InputPartitionCheck.TIMEOUT))
                .singleElement()
                .asString()
                .startsWith("partition check skipped: input topic 'no.such.topic' does not exist on "
                        + kafka.bootstrapServers());
    }

    @Test
    void anUnreachableBrokerSkipsTheCheckWithANote() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String servers = "127.0.0.1:" + closedPort;

        assertThat(InputPartitionCheck.warnings(reading(servers, "its.readings"), 4, Duration.ofSeconds(2)))
                .singleElement()
                .asString()
                .startsWith("partition check of input topic 'its.readings' skipped: cannot reach Kafka at " + servers);
    }

    @Test
    void theAdminClientConnectsAsTheSourceDoes(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(
                dir.resolve("client.properties"), "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n");
        KafkaSettings settings = new KafkaSettings(
                "b:9092",
                "in",
                "out",
                "dead",
                "group",
                KafkaSettings.StartingOffsets.LATEST,
                Map.of("sasl.mechanism", "PLAIN", "max.poll.records", "10"),
                Map.of(),
                org.itsrt.kafka.KafkaClientConfig.load(file));

        assertThat(InputPartitionCheck.adminProperties(settings, Duration.ofSeconds(1)))
                .containsEntry("security.protocol", "SASL_SSL")
                // --consumer.KEY over the file, as in the source; consumer-only keys left out.
                .containsEntry("sasl.mechanism", "PLAIN")
                .doesNotContainKey("max.poll.records");
    }
}
