package org.itsrt.probe;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.itsrt.probe.arrival.ConsumeLoop;
import org.itsrt.probe.stats.RunStats;
import org.itsrt.records.DeadLetterHeaders;
import org.itsrt.records.Topics;
import org.itsrt.records.Workload;

/**
 * A constructed district run through a MockConsumer reading its.predictions, its.routes and
 * its.dead-letters, one poll every 50 ms for 6 s (120 polls); polls 0-19 carry warm-up records.
 *
 * <p>Predictions: detectors 1 and 2, seq = poll, 3 ms from sent; detector 2 loses seq 60, detector
 * 1 delivers seq 30 twice. Answers: request stream 0 routed, request stream 1 unreachable, seq =
 * poll, 7 ms from sent when routed and 11 ms when unreachable; stream 1 loses seq 70, stream 0
 * delivers seq 40 twice. Intended times 100 µs before the send stamps. At poll 50 the answers'
 * topic also carries a request (no outcome) and an answer with an outcome the records do not know.
 * Dead letters: 3 of its.readings (2 {@code field flow}, one of them detector 2's lost seq 60, and
 * 1 {@code unknown detector}, of detector 1's seq 5, which arrived), 2 of its.route-requests (one
 * of them request stream 1's lost seq 70), 1 of another topic. The run stops at {@link #DISTINCT} distinct measured
 * records of both streams together.
 */
public final class DistrictRun {

    public static final long MS = SampleRun.MS;
    public static final long START = SampleRun.START;
    public static final int POLLS = 120;
    public static final int WARMUP_POLLS = 20;
    /** Per stream: measured records received (one lost, one duplicated). */
    public static final int MEASURED = (POLLS - WARMUP_POLLS) * 2;
    /** Per stream: distinct measured records. */
    public static final int DISTINCT_PER_STREAM = MEASURED - 1;

    public static final int DISTINCT = 2 * DISTINCT_PER_STREAM;
    /** What the producers announced: readings, and requests. */
    public static final long EXPECTED_READINGS = MEASURED;

    public static final long EXPECTED_REQUESTS = MEASURED + 1;

    public final ManualClock clock = new ManualClock(START - 1000 * MS);
    public final ByteArrayOutputStream log = new ByteArrayOutputStream();
    public ProbeRun.Result result;

    public static DistrictRun write(Path folder) throws Exception {
        DistrictRun run = new DistrictRun();
        run.run(folder);
        return run;
    }

    private void run(Path folder) throws Exception {
        TopicPartition predictions = new TopicPartition(Topics.PREDICTIONS, 0);
        TopicPartition routes = new TopicPartition(Topics.ROUTES, 0);
        TopicPartition deadLetters = new TopicPartition(Topics.DEAD_LETTERS, 0);
        List<TopicPartition> partitions = List.of(predictions, routes, deadLetters);
        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("latest");
        Map<TopicPartition, Long> zero = new HashMap<>();
        partitions.forEach(p -> zero.put(p, 0L));
        consumer.updateBeginningOffsets(zero);
        consumer.updateEndOffsets(zero);
        Map<String, Long> offsets = new HashMap<>();
        for (int k = 0; k < POLLS; k++) {
            int poll = k;
            long arrival = START + k * 50 * MS;
            boolean warmup = poll < WARMUP_POLLS;
            consumer.schedulePollTask(() -> {
                clock.set(arrival);
                if (poll == 50) {
                    add(consumer, offsets, Topics.ROUTES, TestRecords.routeRequest(0, 1000, arrival, arrival), null);
                    add(
                            consumer,
                            offsets,
                            Topics.ROUTES,
                            new String(TestRecords.answer(0, 1001, arrival, arrival, false), StandardCharsets.UTF_8)
                                    .replace("\"unreachable\"", "\"late\"")
                                    .getBytes(StandardCharsets.UTF_8),
                            null);
                }
                if (poll == 60) {
                    // Detector 2's seq 60, lost below, and detector 1's seq 5, which arrived.
                    deadLetter(
                            consumer,
                            offsets,
                            Topics.READINGS,
                            "field flow: [0] out of range 0..2000: -1",
                            TestRecords.reading(2, 60, arrival, arrival));
                    deadLetter(consumer, offsets, Topics.READINGS, "field flow: has 3 values, expected 12", null);
                    deadLetter(
                            consumer,
                            offsets,
                            Topics.READINGS,
                            "unknown detector: 1 is not in the graph",
                            TestRecords.reading(1, 5, arrival, arrival));
                    // Request stream 1's seq 70, lost below.
                    deadLetter(
                            consumer,
                            offsets,
                            Topics.ROUTE_REQUESTS,
                            "same origin and destination: 764598",
                            TestRecords.routeRequest(1, 70, arrival, arrival));
                    deadLetter(consumer, offsets, Topics.ROUTE_REQUESTS, "same origin and destination: 717731", null);
                    deadLetter(consumer, offsets, "its.elsewhere", "not valid JSON: x", null);
                }
                long seq = poll;
                for (int detector = 1; detector <= 2; detector++) {
                    if (detector == 2 && seq == 60) {
                        continue;
                    }
                    long sent = arrival - 3 * MS;
                    byte[] value = TestRecords.prediction(detector, seq, sent, sent - 100_000);
                    value = warmup ? TestRecords.warmup(value) : value;
                    add(consumer, offsets, Topics.PREDICTIONS, value, null);
                    if (detector == 1 && seq == 30) {
                        add(consumer, offsets, Topics.PREDICTIONS, value, null);
                    }
                }
                for (int stream = 0; stream <= 1; stream++) {
                    if (stream == 1 && seq == 70) {
                        continue;
                    }
                    boolean routed = stream == 0;
                    long sent = arrival - (routed ? 7 : 11) * MS;
                    byte[] value = TestRecords.answer(stream, seq, sent, sent - 100_000, routed);
                    value = warmup ? TestRecords.warmup(value) : value;
                    add(consumer, offsets, Topics.ROUTES, value, null);
                    if (stream == 0 && seq == 40) {
                        add(consumer, offsets, Topics.ROUTES, value, null);
                    }
                }
            });
        }
        ProbeOptions options = ProbeOptions.builder()
                .workload(Workload.DISTRICT)
                .bootstrapServers("mock:9092")
                .groupId("its-probe-test")
                .limits(new ConsumeLoop.Limits(DISTINCT, 0, 0))
                .settings(new RunStats.Settings(1000 * MS, 20 * MS, 0))
                .expected(EXPECTED_READINGS)
                .expectedRequests(EXPECTED_REQUESTS)
                .progressEveryNs(500 * MS)
                .stopDescription(Map.of(ConsumeLoop.StopReason.RECORDS, "--records " + DISTINCT))
                .build();
        ProbeRun run = new ProbeRun(options, clock, new PrintStream(log, true, StandardCharsets.UTF_8));
        result = run.run(consumer, partitions, folder);
    }

    private static void add(
            MockConsumer<byte[], byte[]> consumer,
            Map<String, Long> offsets,
            String topic,
            byte[] value,
            String[][] headers) {
        long offset = offsets.merge(topic, 1L, Long::sum) - 1;
        ConsumerRecord<byte[], byte[]> record = TestRecords.record(topic, 0, offset, value);
        if (headers != null) {
            for (String[] header : headers) {
                record.headers().add(header[0], header[1].getBytes(StandardCharsets.UTF_8));
            }
        }
        consumer.addRecord(record);
    }

    /** A dead letter of {@code value}, or of bytes that name no record when null. */
    private static void deadLetter(
            MockConsumer<byte[], byte[]> consumer,
            Map<String, Long> offsets,
            String source,
            String reason,
            byte[] value) {
        add(
                consumer,
                offsets,
                Topics.DEAD_LETTERS,
                value != null ? value : "{\"v\":1,\"broken\":true}".getBytes(StandardCharsets.UTF_8),
                new String[][] {
                    {DeadLetterHeaders.REASON, reason},
                    {DeadLetterHeaders.SOURCE_TOPIC, source},
                    {DeadLetterHeaders.SOURCE_PARTITION, "0"},
                    {DeadLetterHeaders.SOURCE_OFFSET, "7"}
                });
    }

    public String log() {
        return log.toString(StandardCharsets.UTF_8);
    }
}
