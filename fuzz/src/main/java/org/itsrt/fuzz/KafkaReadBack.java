package org.itsrt.fuzz;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.itsrt.records.DeadLetterHeaders;

/**
 * What a run of the job reads back through Kafka, whatever it sends: the job's topics read from
 * their end, so that only what the job writes during the run is read; the handshake, which shows
 * that the job reads the readings topic and writes its dead letters before anything is sent; and
 * those dead letters by the topic of the record each one rejects.
 */
final class KafkaReadBack {

    /** Where a record was written on the topic it was sent to. */
    record Position(int partition, long offset) {}

    /** A dead letter as read back: where its record came from, the reason, its size. */
    record SeenDeadLetter(Position source, String reason, int valueBytes) {}

    private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(180);

    /** How a handshake marker begins: its dead letters are none of a run's records. */
    private static final String MARKER_PREFIX = "{\"its_fuzz_handshake\":\"";

    private KafkaReadBack() {}

    /** Assigns {@code consumer} every partition of {@code topics}, each at its end. */
    static void fromTheEnd(KafkaEnds ends, KafkaConsumer<byte[], byte[]> consumer, String... topics) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            var infos = consumer.partitionsFor(topic);
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("topic " + topic + " does not exist at " + ends.bootstrapServers());
            }
            infos.forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
    }

    /**
     * Sends a marker to the readings topic every second until the job has dead-lettered one.
     *
     * @param deadIn  the dead-letter topic, read from its end
     * @param stopped whether the run was stopped (Ctrl-C), which ends the wait
     */
    static void handshake(
            KafkaEnds ends,
            JobClient job,
            KafkaProducer<byte[], byte[]> producer,
            KafkaConsumer<byte[], byte[]> deadIn,
            BooleanSupplier stopped)
            throws Exception {
        byte[] marker = (MARKER_PREFIX + UUID.randomUUID() + "\"}").getBytes(StandardCharsets.UTF_8);
        long deadline = System.nanoTime() + HANDSHAKE_TIMEOUT.toNanos();
        long nextSend = 0;
        while (System.nanoTime() < deadline && !stopped.getAsBoolean()) {
            if (job.getJobStatus().get(10, TimeUnit.SECONDS).isTerminalState()) {
                throw new IllegalStateException("the job ended before it was ready: "
                        + job.getJobStatus().get(10, TimeUnit.SECONDS));
            }
            if (System.nanoTime() >= nextSend) {
                producer.send(new ProducerRecord<>(ends.readings(), marker)).get(30, TimeUnit.SECONDS);
                nextSend = System.nanoTime() + Duration.ofSeconds(1).toNanos();
            }
            for (ConsumerRecord<byte[], byte[]> r : deadIn.poll(Duration.ofMillis(100))) {
                if (r.value() != null && Arrays.equals(r.value(), marker)) {
                    return;
                }
            }
        }
        throw new IllegalStateException("the job did not answer within " + HANDSHAKE_TIMEOUT.toSeconds() + " s: no "
                + "record sent to " + ends.readings() + " reached " + ends.deadLetters());
    }

    /**
     * Polls {@code deadIn} once and adds each dead letter to the list of the topic its record came
     * from; markers, letters of other topics and records without the job's source headers are
     * passed over.
     *
     * @param bySource source topic -> where its dead letters go
     * @return whether anything arrived, what was passed over included
     */
    static boolean pollDeadLetters(
            KafkaConsumer<byte[], byte[]> deadIn, Duration timeout, Map<String, List<SeenDeadLetter>> bySource) {
        ConsumerRecords<byte[], byte[]> records = deadIn.poll(timeout);
        for (ConsumerRecord<byte[], byte[]> r : records) {
            if (isMarker(r.value())) {
                continue;
            }
            String topic = header(r, DeadLetterHeaders.SOURCE_TOPIC);
            List<SeenDeadLetter> into = topic == null ? null : bySource.get(topic);
            if (into == null) {
                continue;
            }
            try {
                Position source = new Position(
                        Integer.parseInt(header(r, DeadLetterHeaders.SOURCE_PARTITION)),
                        Long.parseLong(header(r, DeadLetterHeaders.SOURCE_OFFSET)));
                into.add(new SeenDeadLetter(
                        source, header(r, DeadLetterHeaders.REASON), r.value() == null ? 0 : r.value().length));
            } catch (NumberFormatException e) {
                // Not one of the job's dead letters: it always writes both.
            }
        }
        return !records.isEmpty();
    }

    /** The letters of records in {@code sent}: another run's, or anyone else's, left out. */
    static List<SeenDeadLetter> own(List<SeenDeadLetter> letters, Map<Position, Integer> sent) {
        return letters.stream().filter(d -> sent.containsKey(d.source())).toList();
    }

    private static boolean isMarker(byte[] value) {
        return value != null
                && value.length > 0
                && value[0] == '{'
                && new String(value, 0, Math.min(value.length, 64), StandardCharsets.UTF_8).startsWith(MARKER_PREFIX);
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
