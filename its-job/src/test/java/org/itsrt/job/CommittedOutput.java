package org.itsrt.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.itsrt.job.JobTestKit.AdviceKey;
import org.itsrt.records.AdviceRecord;
import org.itsrt.records.RecordFormatException;
import org.itsrt.records.RecordJson;

/**
 * Everything a {@code read_committed} consumer can see on an advice topic: every partition, from
 * the beginning to its end offset (for {@code read_committed} the last stable offset, so a
 * transaction still open is neither waited for nor read). Unlike a subscription polled until a
 * count is reached, this read cannot stop early on a record that arrived twice, nor miss a
 * partition that was never assigned in time.
 */
final class CommittedOutput {

    private static final Duration READ_LIMIT = Duration.ofSeconds(60);

    private CommittedOutput() {}

    /** The committed advice records of every partition of {@code topic}. */
    static List<AdviceRecord> readAll(String bootstrapServers, String topic) throws RecordFormatException {
        List<AdviceRecord> advice = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : records(bootstrapServers, topic)) {
            advice.add(RecordJson.readAdvice(record.value()));
        }
        return advice;
    }

    /** The committed records of every partition of {@code topic}, as they are on the topic. */
    static List<ConsumerRecord<byte[], byte[]>> records(String bootstrapServers, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, READ_LIMIT).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition()))
                    .toList();
            assertThat(partitions).as("partitions of %s", topic).isNotEmpty();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, READ_LIMIT);
            long deadline = System.nanoTime() + READ_LIMIT.toNanos();
            while (!reached(consumer, end)) {
                assertThat(System.nanoTime())
                        .as("read %s to its end offsets %s in time", topic, end)
                        .isLessThan(deadline);
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() < end.get(new TopicPartition(record.topic(), record.partition()))) {
                        records.add(record);
                    }
                }
            }
        }
        return records;
    }

    private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }

    /**
     * Fails unless {@code advice} holds one record for each expected reading and nothing else: the
     * count, then which readings are missing, duplicated or unexpected.
     */
    static void assertEachReadingExactlyOnce(List<AdviceRecord> advice, Collection<AdviceKey> expected) {
        Map<AdviceKey, Long> counts =
                advice.stream().collect(Collectors.groupingBy(AdviceKey::of, HashMap::new, Collectors.counting()));
        Map<AdviceKey, Long> duplicated = new HashMap<>();
        counts.forEach((key, n) -> {
            if (n > 1) {
                duplicated.put(key, n);
            }
        });
        List<AdviceKey> missing =
                expected.stream().filter(k -> !counts.containsKey(k)).toList();
        List<AdviceKey> unexpected =
                counts.keySet().stream().filter(k -> !expected.contains(k)).toList();
        assertThat(advice)
                .as(
                        "committed advice: %d records for %d readings; missing %s, duplicated %s, unexpected %s",
                        advice.size(), expected.size(), missing, duplicated, unexpected)
                .hasSize(expected.size());
        assertThat(missing).as("readings without committed advice").isEmpty();
        assertThat(duplicated).as("readings advised more than once").isEmpty();
        assertThat(unexpected).as("advice for readings never sent").isEmpty();
    }
}
