package org.itsrt.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.probe.ProbeCommand;
import org.itsrt.probe.ProbeRun;
import org.itsrt.probe.report.RunReport;
import org.itsrt.records.MalformedRecordException;
import org.itsrt.records.RecordStamps;
import org.itsrt.records.RecordStampsReader;
import org.itsrt.records.Topics;
import org.itsrt.stack.kafka.LocalKafka;
import org.itsrt.stack.kafka.LocalKafkaOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The latency probe fed a campaign's records on the advice topic, garbage of every kind among
 * records it can measure: it counts each one it cannot measure as malformed, by the reason its
 * reader gives, never stops for one, and measures every measurable record, up to the last one sent.
 */
class ProbeUnderFuzzTest {

    private static final long[] STUDY = {716847, 717731, 718155, 764598, 774445, 774614};

    @Test
    void countsGarbageAsMalformedAndGoesOnMeasuring(@TempDir Path dir) throws Exception {
        CampaignPlan plan = CampaignPlan.generate(300, STUDY, 9);
        List<FuzzRecord> records = new ArrayList<>(plan.records());
        // A last record the probe can measure, so that it has read everything before it when it stops.
        records.add(new FuzzRecord(
                null,
                null,
                ("{\"v\":1,\"detector\":1,\"seq\":0,\"sent_ns\":5}").getBytes(StandardCharsets.UTF_8),
                1,
                0));
        Map<String, Long> malformed = new TreeMap<>();
        Set<String> measurable = new HashSet<>();
        for (FuzzRecord record : records) {
            try {
                RecordStamps stamps = RecordStampsReader.read(record.value());
                measurable.add(stamps.detector() + "/" + stamps.seq());
            } catch (MalformedRecordException e) {
                malformed.merge(e.reason(), 1L, Long::sum);
            }
        }
        assertThat(malformed.values().stream().mapToLong(Long::longValue).sum())
                .as("the campaign holds garbage for the probe")
                .isGreaterThan(50);

        try (LocalKafka kafka = LocalKafka.start(LocalKafkaOptions.defaults())) {
            kafka.createTopics(List.of(Topics.ADVICE), 1);
            Path run = dir.resolve("run");
            CompletableFuture<String> probe = CompletableFuture.supplyAsync(() -> probe(
                    "--bootstrap-servers",
                    kafka.bootstrapServers(),
                    "--topic",
                    Topics.ADVICE,
                    "--out",
                    run.toString(),
                    "--records",
                    Integer.toString(measurable.size()),
                    "--steady-after",
                    "0s",
                    "--duration",
                    "120s",
                    "--progress",
                    "0"));
            awaitReady(run, probe);
            KafkaEnds ends = new KafkaEnds(
                    kafka.bootstrapServers(), KafkaClientConfig.none(), Topics.READINGS, Topics.ADVICE, "unused");
            try (KafkaProducer<byte[], byte[]> producer = ends.producer(plan.largestValue())) {
                for (FuzzRecord record : records) {
                    producer.send(new ProducerRecord<>(Topics.ADVICE, record.key(), record.value()))
                            .get(30, TimeUnit.SECONDS);
                }
            }
            String err = probe.get(150, TimeUnit.SECONDS);

            JsonNode summary = new ObjectMapper()
                    .readTree(run.resolve(RunReport.SUMMARY_JSON).toFile());
            assertThat(summary.at("/run/stopped_by").asText()).as(err).isEqualTo("--records " + measurable.size());
            assertThat(summary.at("/records/malformed").asLong())
                    .isEqualTo(malformed.values().stream()
                            .mapToLong(Long::longValue)
                            .sum());
            Map<String, Long> byReason = new TreeMap<>();
            summary.at("/records/malformed_by_reason")
                    .fields()
                    .forEachRemaining(e -> byReason.put(e.getKey(), e.getValue().asLong()));
            assertThat(byReason).isEqualTo(malformed);
        }
    }

    private static String probe(String... args) {
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        CommandLine cmd = ProbeCommand.commandLine();
        cmd.setOut(new PrintWriter(new StringWriter(), true));
        cmd.setErr(new PrintWriter(new StringWriter(), true));
        PrintStream old = System.err;
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        try {
            int exit = cmd.execute(args);
            return "exit " + exit + ": " + stderr.toString(StandardCharsets.UTF_8);
        } finally {
            System.setErr(old);
        }
    }

    private static void awaitReady(Path run, CompletableFuture<String> probe) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(run.resolve(ProbeRun.READY_FILE))) {
            if (probe.isDone()) {
                throw new AssertionError("the probe ended before it was ready: " + probe.get());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the probe was not ready within 60 s");
            }
            Thread.sleep(50);
        }
    }
}
