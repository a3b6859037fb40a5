package org.itsrt.producers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordJson;
import org.itsrt.stack.kafka.LocalKafka;
import org.itsrt.stack.kafka.LocalKafkaOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The producer CLI against a real local broker. */
class ProducerCommandTest {

    private static LocalKafka kafka;
    private static final Path SAMPLE =
            Path.of(System.getProperty("itsrt.repo.root", ".."), "data", "sample", "synthetic-readings.csv");

    @BeforeAll
    static void startKafka() {
        kafka = LocalKafka.start(LocalKafkaOptions.defaults());
        kafka.createTopics(List.of("its.readings", "sweep"), 1);
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    private record Result(int exit, String out, String err) {}

    private static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = new CommandLine(new ProducerCommand()).execute(args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void sendsEveryDetectorsWindowsInOrderOnTheOpenLoopSchedule(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("producer.md");
        Result result = run(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--data",
                SAMPLE.toString(),
                "--records",
                "60",
                "--warmup-records",
                "12",
                "--rate",
                "20",
                "--progress-every",
                "200ms",
                "--report",
                report.toString());

        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.out())
                .contains("72 of 72 records sent")
                .contains("of which warm-up 12 of 12 (flagged, first), measured 60 of 60")
                .contains("acknowledged 72, failed 0");
        // The first progress line comes before the first send: still in the warm-up.
        assertThat(result.err()).contains("warm-up: sent 0/72");
        assertThat(Files.readString(report)).isEqualTo(result.out());

        Map<Long, List<ReadingRecord>> byDetector = new TreeMap<>();
        for (byte[] value : consume("its.readings", 72)) {
            ReadingRecord r = RecordJson.readReading(value);
            byDetector.computeIfAbsent(r.detector(), k -> new ArrayList<>()).add(r);
        }
        assertThat(byDetector).hasSize(6);
        long period = 50_000_000L;
        for (List<ReadingRecord> records : byDetector.values()) {
            // Two warm-up records, flagged, then ten measured ones, seq running on.
            assertThat(records)
                    .extracting(ReadingRecord::seq)
                    .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L);
            assertThat(records)
                    .extracting(ReadingRecord::warmup)
                    .containsExactly(true, true, false, false, false, false, false, false, false, false, false, false);
            for (int k = 0; k < records.size(); k++) {
                ReadingRecord r = records.get(k);
                assertThat(r.intendedNs() - records.get(0).intendedNs()).isEqualTo(k * period);
                assertThat(r.sentNs()).as("never sent before its intended time").isGreaterThanOrEqualTo(r.intendedNs());
                if (k > 0) {
                    assertThat(r.ts()).isAfter(records.get(k - 1).ts());
                }
            }
        }
    }

    @Test
    void aSpeedupOnTwoSenderThreadsKeepsEveryDetectorsScheduleAndSeq() throws Exception {
        createTopic("speedup");
        Result result = run(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--data",
                SAMPLE.toString(),
                "--topic",
                "speedup",
                "--records",
                "48",
                "--speedup",
                "6000", // 300 s / 6000 = 50 ms: 20 records/s per detector
                "--sender-threads",
                "2");

        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.out())
                .contains("6 detectors at 20 records/s each")
                .contains("48 of 48 records sent")
                .contains("acknowledged 48, failed 0");
        Map<Long, List<ReadingRecord>> byDetector = new TreeMap<>();
        for (byte[] value : consume("speedup", 48)) {
            ReadingRecord r = RecordJson.readReading(value);
            byDetector.computeIfAbsent(r.detector(), k -> new ArrayList<>()).add(r);
        }
        assertThat(byDetector).hasSize(6);
        long period = 50_000_000L;
        for (List<ReadingRecord> records : byDetector.values()) {
            assertThat(records).extracting(ReadingRecord::seq).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
            for (int k = 0; k < records.size(); k++) {
                assertThat(records.get(k).intendedNs() - records.get(0).intendedNs())
                        .isEqualTo(k * period);
            }
        }
        // The detectors stay spread over the period: detector i of 6 one sixth of a period after i-1.
        List<Long> firsts = byDetector.values().stream()
                .map(records -> records.get(0).intendedNs())
                .sorted()
                .toList();
        for (int i = 1; i < firsts.size(); i++) {
            assertThat(firsts.get(i) - firsts.get(i - 1)).isBetween(period / 6, period / 6 + 1);
        }
    }

    private static void createTopic(String name) {
        kafka.createTopics(List.of(name), 1);
    }

    @Test
    void aMissingTopicIsNamed() {
        Result result = run(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--data",
                SAMPLE.toString(),
                "--topic",
                "no.such.topic",
                "--records",
                "6");
        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err()).contains("topic no.such.topic does not exist on " + kafka.bootstrapServers());
    }

    @Test
    void anUnreachableBrokerIsNamed() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        Result result = run("--bootstrap-servers", "127.0.0.1:" + port, "--data", SAMPLE.toString(), "--records", "6");
        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err()).contains("cannot reach Kafka at 127.0.0.1:" + port);
    }

    @Test
    void badOptionsAreNamed() {
        assertThat(run("--rate", "0").err()).contains("--rate must be in");
        // The plan's refusal, reported as a bad option: exit 2, naming the option.
        Result tooFast = run("--rate", "1000001");
        assertThat(tooFast.exit()).isEqualTo(2);
        assertThat(tooFast.err()).contains("--rate must be in (0, 1000000] records/s per detector, got 1000001.0");
        assertThat(run("--records", "0").err()).contains("--records must be >= 1, got 0");
        assertThat(run("--duration", "soon").err())
                .contains("Invalid value for option '--duration': 'soon' is not a duration; write e.g. 500ms, 30s");
        assertThat(run("--step-duration", "0s").err()).contains("--step-duration must be longer than 0, got 0s");
        assertThat(run("--progress-every", "-1s").err())
                .contains("Invalid value for option '--progress-every': " + "'-1s' is negative");
        assertThat(run("--acks", "2").err()).contains("--acks must be all, 1 or 0");
        assertThat(run("--warmup", "10s", "--warmup-records", "5").err())
                .contains("--warmup and --warmup-records are mutually exclusive");
        assertThat(run("--warmup-records", "-1").err()).contains("--warmup-records must be >= 0, got -1");
        assertThat(run("--topic", "its readings").err())
                .contains("--topic: Topic name is invalid: 'its readings' contains");
        assertThat(run("--data", "/no/such.csv", "--records", "6").err()).contains("cannot read /no/such.csv");
        Result both = run("--rate", "10", "--speedup", "3000");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).startsWith("Error: --rate=HZ, --speedup=X are mutually exclusive (specify only one)");
        assertThat(run("--speedup", "0").err()).contains("Invalid value for option '--speedup': expected a factor > 0");
        assertThat(run("--speedup", "4.5e8").err())
                .contains("--speedup 450000000 (1500000 records/s per detector): must be in (0, 1000000] records/s "
                        + "per detector");
        assertThat(run("--sender-threads", "-1").err())
                .contains("--sender-threads must be >= 1, or 0 for the default, got -1");
        Result requestsAlone = run("--requests", "10");
        assertThat(requestsAlone.exit()).isEqualTo(2);
        assertThat(requestsAlone.err()).contains("--requests needs --district META, the stations requests go between");
        assertThat(run("--district", "d07_text_meta.txt", "--detectors", "1,2").err())
                .contains("--detectors names detectors; with --district every detector of --data is replayed");
    }

    @Test
    void withoutDataTheCommittedSampleIsReplayed() {
        // The Maven build sets itsrt.repo.root, as the launcher does; the command finds the table itself.
        Result result = run(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--records",
                "6",
                "--detectors",
                "764598",
                "--rate",
                "100",
                "--duration",
                "0.05s");
        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.out()).contains(SAMPLE.getFileName().toString());
    }

    @Test
    void aMissingDefaultTableIsNamedBeforeKafkaIsAsked(@TempDir Path emptyRepository) {
        String before = System.getProperty("itsrt.repo.root");
        System.setProperty("itsrt.repo.root", emptyRepository.toString());
        try {
            Result result = run("--bootstrap-servers", "127.0.0.1:1", "--records", "6");
            assertThat(result.exit()).isEqualTo(1);
            assertThat(result.err())
                    .contains("its-producer: --data not given, and its default is missing: "
                            + emptyRepository.resolve("data/sample/synthetic-readings.csv") + ": missing; expected the "
                            + "committed synthetic readings table");
        } finally {
            if (before == null) {
                System.clearProperty("itsrt.repo.root");
            } else {
                System.setProperty("itsrt.repo.root", before);
            }
        }
    }

    @Test
    void aSweepReportsEachStep() {
        Result result = run(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--data",
                SAMPLE.toString(),
                "--topic",
                "sweep",
                "--sweep",
                "120,600",
                "--step-duration",
                "1s");
        assertThat(result.exit()).as(result.err()).isZero();
        List<String> rows =
                result.out().lines().filter(l -> l.matches("\\| [0-9,]+ \\|.*")).toList();
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).startsWith("| 120 |");
        assertThat(rows.get(1)).startsWith("| 600 |");
    }

    private static List<byte[]> consume(String topic, int expected) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "producer-test-" + System.nanoTime());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<byte[]> values = new ArrayList<>();
        try (var consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(Set.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    values.add(r.value());
                }
            }
            // anything beyond the expected count would be a duplicate
            consumer.poll(Duration.ofMillis(500)).forEach(r -> values.add(r.value()));
        }
        assertThat(values).hasSize(expected);
        return values;
    }
}
