package org.itsrt.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.itsrt.probe.arrival.ConsumeLoop;
import org.itsrt.probe.report.LatencyCsv;
import org.itsrt.probe.report.ProbeSummary;
import org.itsrt.probe.report.RunReport;
import org.itsrt.probe.stats.RunStats;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run that starts with a warm-up: 2 detectors, one poll every 50 ms. Polls 0-39 (the first 2 s)
 * carry warm-up records, latency from sent 40 ms in the first second and 10 ms in the second;
 * polls 40-159 carry measured records at 2 ms, seq running on from the warm-up. 80 warm-up and
 * 240 measured records; the run stops at 240 distinct measured ones.
 */
class WarmupRunTest {

    private static final long MS = SampleRun.MS;
    private static final long START = SampleRun.START;
    private static final int WARMUP_POLLS = 40;
    private static final int POLLS = 160;
    private static final int MEASURED = (POLLS - WARMUP_POLLS) * 2;

    @TempDir
    static Path dir;

    static Path folder;
    static ProbeRun.Result result;
    static JsonNode summary;
    static String log;

    @BeforeAll
    static void run() throws Exception {
        folder = dir.resolve("run");
        TopicPartition p0 = new TopicPartition("its.advice", 0);
        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("latest");
        consumer.updateBeginningOffsets(Map.of(p0, 0L));
        consumer.updateEndOffsets(Map.of(p0, 0L));
        ManualClock clock = new ManualClock(START - 1000 * MS);
        long[] offset = {0};
        for (int k = 0; k < POLLS; k++) {
            long arrival = START + k * 50 * MS;
            boolean warmup = k < WARMUP_POLLS;
            long latency = k < 20 ? 40 * MS : warmup ? 10 * MS : 2 * MS;
            int poll = k;
            consumer.schedulePollTask(() -> {
                clock.set(arrival);
                for (int detector = 1; detector <= 2; detector++) {
                    long sent = arrival - latency;
                    byte[] value = TestRecords.advice(detector, poll, sent, sent, 10_000, 400_000, 60_000);
                    consumer.addRecord(TestRecords.record(
                            "its.advice", 0, offset[0]++, warmup ? TestRecords.warmup(value) : value));
                }
            });
        }
        ProbeOptions options = ProbeOptions.builder()
                .topic("its.advice")
                .bootstrapServers("mock:9092")
                .groupId("its-probe-test")
                .limits(new ConsumeLoop.Limits(MEASURED, 0, 0))
                .settings(new RunStats.Settings(1000 * MS, 20 * MS, 0))
                .expected(MEASURED)
                .progressEveryNs(500 * MS)
                .stopDescription(Map.of(ConsumeLoop.StopReason.RECORDS, "--records " + MEASURED))
                .build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        result = new ProbeRun(options, clock, new PrintStream(out, true, StandardCharsets.UTF_8))
                .run(consumer, List.of(p0), folder);
        log = out.toString(StandardCharsets.UTF_8);
        summary = new ObjectMapper()
                .readTree(folder.resolve(RunReport.SUMMARY_JSON).toFile());
    }

    @Test
    void theRecordLimitAndTheExpectedCountCountMeasuredRecordsOnly() {
        assertThat(result.reason()).isEqualTo(ConsumeLoop.StopReason.RECORDS);
        assertThat(summary.at("/records/measured").asLong()).isEqualTo(MEASURED);
        assertThat(summary.at("/records/shortfall").asLong()).isZero();
    }

    @Test
    void warmupRecordsAreKeptOutOfEveryMeasuredFigure() throws Exception {
        for (String kind : List.of("from_sent", "from_intended")) {
            JsonNode all = summary.at("/latency/" + kind + "/all");
            assertThat(all.get("count").asLong()).isEqualTo(MEASURED);
            assertThat(all.get("max_ms").asDouble()).isEqualTo(2.0);
        }
        assertThat(summary.at("/slo/from_intended/all/records").asLong()).isEqualTo(MEASURED);
        assertThat(summary.at("/slo/from_intended/all/windows").asLong())
                .as("the measured windows start at the first measured arrival")
                .isEqualTo(6);
        assertThat(summary.at("/run/active_span_s").asDouble()).isCloseTo(5.95, within(1e-9));
        // latencies.csv: a header and the measured records only.
        assertThat(Files.readAllLines(folder.resolve(LatencyCsv.FILE))).hasSize(MEASURED + 1);
    }

    @Test
    void warmupRecordsAreReportedApart() throws Exception {
        JsonNode warmup = summary.at("/warmup");
        assertThat(warmup.get("records").asLong()).isEqualTo(WARMUP_POLLS * 2);
        // 40 records at 40 ms and 40 at 10 ms: nearest-rank p50 is 10 ms, p99 and max 40 ms.
        assertThat(warmup.get("p50_ms").asDouble()).isBetween(10.0, 10.01);
        assertThat(warmup.get("p99_ms").asDouble()).isBetween(40.0, 40.04);
        assertThat(warmup.get("max_ms").asDouble()).isEqualTo(40.0);
        String md = Files.readString(folder.resolve(RunReport.SUMMARY_MD));
        assertThat(md).contains("| warm-up records (apart, not measured) | 80 |");
        assertThat(md)
                .containsPattern(
                        "\\| warm-up \\(not measured\\) \\| from intended \\| 80 \\| 10\\.\\d+ \\| 40\\.\\d+ \\| 40\\.000 \\|");
        assertThat(ProbeSummary.read(folder.resolve(RunReport.SUMMARY_JSON))
                        .warmup()
                        .records())
                .isEqualTo(80);
    }

    @Test
    void lossAndOrderCoverWarmupAndMeasuredRecordsTogether() {
        assertThat(summary.at("/sequence/total/distinct").asLong()).isEqualTo(POLLS * 2);
        assertThat(summary.at("/sequence/total/max_seq").asLong()).isEqualTo(POLLS - 1);
        assertThat(summary.at("/sequence/total/lost").asLong()).isZero();
        assertThat(summary.at("/sequence/total/reordered").asLong()).isZero();
    }

    @Test
    void latencySettlesWhereTheWindowsP95StaysWithinTwiceTheMedianMeasuredP95() throws Exception {
        JsonNode warmup = summary.at("/warmup");
        // Windows from the first arrival: 40 ms, 10 ms, then 2 ms; the measured median is 2 ms,
        // the limit 4 ms; windows 0 and 1 exceed it, so latency settled at the start of window 2.
        assertThat(warmup.get("median_window_p95_ms").asDouble()).isEqualTo(2.0);
        assertThat(warmup.get("settled_after_s").asDouble()).isEqualTo(2.0);
        assertThat(warmup.get("windows_over").asLong()).isEqualTo(2);
        assertThat(warmup.get("measured_windows_over").asLong()).isZero();
        assertThat(Files.readString(folder.resolve(RunReport.SUMMARY_MD)))
                .contains("Latency settled 2 s after the first arrival (warm-up records included)");
    }

    @Test
    void progressSaysWhileOnlyWarmupRecordsArrived() {
        assertThat(log).contains("its-probe: warm-up, ").contains("(not measured)");
        assertThat(log).contains("warm-up 80 apart");
    }
}
