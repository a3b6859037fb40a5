package org.itsrt.pipeline;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.itsrt.kafka.KafkaClientConfig;

/**
 * The dead-letter topic, used twice: as the readiness handshake of the job, and to count what the
 * job rejected during a run.
 *
 * <p>Handshake: a source reading from the latest offsets only sees what is sent after it has
 * fetched its first positions, and a job that is RUNNING may not have done so yet. So the demo
 * sends a marker record that is not a reading to the input topic, every second, until the job
 * routes one of them to the dead-letter topic: then the whole path (source, parsing, Kafka sink)
 * is live. Markers are left out of the dead-letter count.
 */
public final class DeadLetters {

    static final String MARKER_PREFIX = "{\"its_demo_handshake\":\"";

    private final String bootstrapServers;
    private final String inputTopic;
    private final String deadLetterTopic;
    private final KafkaClientConfig clientConfig;

    public DeadLetters(String bootstrapServers, String inputTopic, String deadLetterTopic) {
        this(bootstrapServers, inputTopic, deadLetterTopic, KafkaClientConfig.none());
    }

    /**
     * @param clientConfig the settings of a user that may write the input topic and read the
     *                     dead-letter topic (on a secured local broker, its admin)
     */
    public DeadLetters(
            String bootstrapServers, String inputTopic, String deadLetterTopic, KafkaClientConfig clientConfig) {
        this.bootstrapServers = bootstrapServers;
        this.inputTopic = inputTopic;
        this.deadLetterTopic = deadLetterTopic;
        this.clientConfig = clientConfig;
    }

    /**
     * Sends markers until one comes back as a dead letter.
     *
     * @param stillRunning false stops the wait (the job failed)
     * @return markers sent
     * @throws NoAnswerException when none came back within {@code timeout}
     * @throws IllegalStateException when the job stopped first
     */
    public int awaitPipeline(Duration timeout, BooleanSupplier stillRunning) {
        String marker = MARKER_PREFIX + UUID.randomUUID() + "\"}";
        byte[] value = marker.getBytes(StandardCharsets.UTF_8);
        long deadline = System.nanoTime() + timeout.toNanos();
        int sent = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps());
                KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps())) {
            List<TopicPartition> partitions = consumer.partitionsFor(deadLetterTopic).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long nextSend = 0;
            while (System.nanoTime() < deadline) {
                if (!stillRunning.getAsBoolean()) {
                    throw new IllegalStateException("the job stopped before it was ready");
                }
                if (System.nanoTime() >= nextSend) {
                    producer.send(new ProducerRecord<>(inputTopic, value));
                    producer.flush();
                    sent++;
                    nextSend = System.nanoTime() + Duration.ofSeconds(1).toNanos();
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    if (marker.equals(new String(record.value(), StandardCharsets.UTF_8))) {
                        return sent;
                    }
                }
            }
        }
        throw new NoAnswerException("the job did not answer within " + timeout.toSeconds() + " s: no record sent to "
                + inputTopic + " reached " + deadLetterTopic);
    }

    /** The job runs but answered no marker in the time given. */
    public static final class NoAnswerException extends IllegalStateException {
        NoAnswerException(String message) {
            super(message);
        }
    }

    /** Dead letters other than handshake markers, by the reason in their {@code reason} header. */
    public Map<String, Long> countByReason() {
        Map<String, Long> counts = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps())) {
            List<TopicPartition> partitions = consumer.partitionsFor(deadLetterTopic).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!reached(consumer, end) && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (new String(record.value(), StandardCharsets.UTF_8).startsWith(MARKER_PREFIX)) {
                        continue;
                    }
                    Header reason = record.headers().lastHeader(org.itsrt.records.DeadLetterHeaders.REASON);
                    String text =
                            reason == null ? "(no reason header)" : new String(reason.value(), StandardCharsets.UTF_8);
                    counts.merge(text, 1L, Long::sum);
                }
            }
        }
        return counts;
    }

    private static boolean reached(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private Properties producerProps() {
        Properties p = clientConfig.applyTo(new Properties());
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        return p;
    }

    private Properties consumerProps() {
        Properties p = clientConfig.applyTo(new Properties());
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // A broker that is gone should fail a call in seconds, not after the default minute.
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        return p;
    }
}
