package org.itsrt.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.itsrt.clock.Clocks;
import org.itsrt.clock.LatencyClock;
import org.itsrt.probe.district.DistrictReport;
import org.itsrt.probe.report.RunReport;
import org.itsrt.producers.ProducerCommand;
import org.itsrt.records.DeadLetterHeaders;
import org.itsrt.records.Topics;
import org.itsrt.records.Workload;
import org.itsrt.stack.kafka.LocalKafka;
import org.itsrt.stack.kafka.LocalKafkaOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The probe and the producer CLI against a real local broker: what the producers send on
 * its.readings, the probe receives, each record once and in order, measured with the same clock;
 * the district workload's predictions, answers and dead letters, each counted in its stream.
 */
class ProbeAgainstKafkaTest {

    private static final Path SAMPLE =
            Path.of(System.getProperty("itsrt.repo.root", ".."), "data", "sample", "synthetic-readings.csv");

    private static LocalKafka kafka;

    @BeforeAll
    static void startKafka() {
        kafka = LocalKafka.start(LocalKafkaOptions.defaults());
        kafka.createTopics(List.of("its.readings"), 3);
        kafka.createTopics(
                Workload.DISTRICT.topics().stream()
                        .filter(t -> !t.equals(Topics.READINGS))
                        .toList(),
                2);
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    private record Result(int exit, String out, String err) {}

    /** Runs the probe's command line; its stderr (progress, outcome) is captured by redirecting System.err. */
    private static Result probe(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        CommandLine cmd = ProbeCommand.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        PrintStream old = System.err;
        int exit;
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        try {
            exit = cmd.execute(args);
        } finally {
            System.setErr(old);
        }
        return new Result(exit, out.toString(), err + stderr.toString(StandardCharsets.UTF_8));
    }

    @Test
    void measuresEveryRecordTheProducersSendOnce(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("run");
        int records = 120;
        // Two flagged warm-up records per detector first: kept apart, not counted by --records.
        int warmupRecords = 12;
        CompletableFuture<Result> probe = CompletableFuture.supplyAsync(() -> probe(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--topic",
                "its.readings",
                "--out",
                run.toString(),
                "--records",
                Integer.toString(records),
                "--expect",
                Integer.toString(records),
                "--steady-after",
                "0s",
                "--duration",
                "60s",
                "--progress",
                "0"));
        awaitReady(run, probe);

        int producerExit = new CommandLine(new ProducerCommand())
                .setOut(new PrintWriter(new StringWriter()))
                .execute(
                        "--bootstrap-servers",
                        kafka.bootstrapServers(),
                        "--data",
                        SAMPLE.toString(),
                        "--records",
                        Integer.toString(records),
                        "--warmup-records",
                        Integer.toString(warmupRecords),
                        "--rate",
                        "20",
                        "--progress-every",
                        "10s");
        assertThat(producerExit).isZero();

        Result result = probe.get(90, TimeUnit.SECONDS);
        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.err())
                .contains("its-probe: ready, reading its.readings partitions")
                .contains("records, latency from intended");

        JsonNode summary =
                new ObjectMapper().readTree(run.resolve(RunReport.SUMMARY_JSON).toFile());
        assertThat(summary.at("/run/stopped_by").asText()).isEqualTo("--records " + records);
        assertThat(summary.at("/records/measured").asLong()).isEqualTo(records);
        assertThat(summary.at("/records/malformed").asLong()).isZero();
        assertThat(summary.at("/records/shortfall").asLong()).isZero();
        assertThat(summary.at("/sequence/total/lost").asLong()).isZero();
        assertThat(summary.at("/sequence/total/duplicated").asLong()).isZero();
        assertThat(summary.at("/sequence/total/reordered").asLong()).isZero();
        assertThat(summary.at("/sequence/per_detector").size()).isEqualTo(6);
        assertThat(summary.at("/sequence/total/distinct").asLong()).isEqualTo(records + warmupRecords);
        assertThat(summary.at("/warmup/records").asLong()).isEqualTo(warmupRecords);
        assertThat(summary.at("/warmup/max_ms").isNumber()).isTrue();
        assertThat(summary.at("/latency/from_sent/all/count").asLong()).isEqualTo(records);
        // Same clock on both ends: every arrival comes after its send, which comes after its intended time,
        // and each row's latencies are its own stamps' differences.
        List<String> rows = Files.readAllLines(run.resolve("latencies.csv"));
        assertThat(rows).hasSize(records + 1);
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",");
            long sent = Long.parseLong(f[2]);
            long intended = Long.parseLong(f[3]);
            long arrival = Long.parseLong(f[4]);
            assertThat(arrival).as(row).isGreaterThan(sent);
            assertThat(sent).as(row).isGreaterThanOrEqualTo(intended);
            assertThat(Double.parseDouble(f[5])).as(row).isCloseTo((arrival - sent) / 1e6, within(1e-6));
            assertThat(Double.parseDouble(f[6])).as(row).isCloseTo((arrival - intended) / 1e6, within(1e-6));
        }
    }

    @Test
    void measuresTheDistrictWorkloadsStreamsApart(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("district");
        CompletableFuture<Result> probe = CompletableFuture.supplyAsync(() -> probe(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--workload",
                "district",
                "--out",
                run.toString(),
                "--expect",
                "30",
                "--expect-requests",
                "20",
                "--steady-after",
                "0s",
                "--idle-timeout",
                "3s",
                "--duration",
                "60s",
                "--progress",
                "0"));
        awaitReady(run, probe);

        // Stamped with the clock the probe stamps arrivals with, as the producers do.
        LatencyClock clock = Clocks.system();
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            for (int seq = 0; seq < 10; seq++) {
                for (long detector = 1; detector <= 3; detector++) {
                    long now = clock.nanos();
                    producer.send(new ProducerRecord<>(
                            Topics.PREDICTIONS, key(detector), TestRecords.prediction(detector, seq, now, now - 1000)));
                }
                for (int stream = 0; stream <= 1; stream++) {
                    if (stream == 1 && seq == 4) {
                        continue; // lost: its answer never comes
                    }
                    long now = clock.nanos();
                    byte[] answer = TestRecords.answer(stream, seq, now, now - 1000, stream == 0);
                    long traveller = 90_000 + seq;
                    producer.send(new ProducerRecord<>(Topics.ROUTES, key(traveller), answer));
                    if (stream == 0 && seq == 7) {
                        producer.send(new ProducerRecord<>(Topics.ROUTES, key(traveller), answer));
                    }
                }
            }
            ProducerRecord<byte[], byte[]> deadLetter =
                    new ProducerRecord<>(Topics.DEAD_LETTERS, key(90_004), TestRecords.routeRequest(1, 4, 1, 1));
            deadLetter.headers().add(DeadLetterHeaders.REASON, utf8("unknown station: 5 is not in the routing graph"));
            deadLetter.headers().add(DeadLetterHeaders.SOURCE_TOPIC, utf8(Topics.ROUTE_REQUESTS));
            producer.send(deadLetter);
        }

        Result result = probe.get(90, TimeUnit.SECONDS);
        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.err())
                .contains("its-probe: ready, reading its.predictions, its.routes, its.dead-letters partitions")
                .contains("its-probe: readings -> predictions: 30 records, latency from intended")
                .contains("its-probe: requests -> answers: 20 records, latency from intended");
        List<String> streams = Files.readAllLines(run.resolve(DistrictReport.STREAMS_CSV));
        assertThat(streams.get(1))
                .startsWith("predictions,readings -> predictions,its.predictions,30,0,0,0,0,0,0,0,30,0,from_intended,");
        // Stream 1's seq 4 is lost (and dead-lettered), stream 0's seq 7 came twice; answers of
        // one stream cross partitions, keyed by traveller, so their order is not checked here.
        assertThat(streams.get(2)).startsWith("routes,requests -> answers,its.routes,20,0,0,1,1,");
        // One dead letter, the request of the lost answer: dead letters 1, of the lost 1.
        assertThat(streams.get(2)).contains(",1,1,20,1,from_intended,");
        JsonNode routes = new ObjectMapper()
                .readTree(run.resolve("routes").resolve(RunReport.SUMMARY_JSON).toFile());
        assertThat(routes.at("/sequence/total/distinct").asLong()).isEqualTo(19);
        assertThat(Files.readString(run.resolve(DistrictReport.OUTCOMES_CSV)))
                .contains("routed,11,0,11,from_intended,")
                .contains("unreachable,9,0,9,from_intended,");
    }

    private static byte[] key(long id) {
        return utf8(Long.toString(id));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aMissingTopicIsNamed(@TempDir Path dir) {
        Result result = probe(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--topic",
                "no.such.topic",
                "--out",
                dir.resolve("run").toString(),
                "--connect-timeout",
                "5s");
        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err()).contains("no.such.topic");
    }

    @Test
    void anUnreachableBrokerIsNamed(@TempDir Path dir) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String servers = "127.0.0.1:" + port;
        Result result = probe(
                "--bootstrap-servers", servers, "--out", dir.resolve("run").toString(), "--connect-timeout", "2s");
        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err()).contains(servers);
    }

    private static void awaitReady(Path run, CompletableFuture<Result> probe) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(run.resolve(ProbeRun.READY_FILE))) {
            if (probe.isDone()) {
                throw new AssertionError(
                        "the probe ended before it was ready: " + probe.get().err());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the probe was not ready within 60 s");
            }
            Thread.sleep(50);
        }
    }
}
