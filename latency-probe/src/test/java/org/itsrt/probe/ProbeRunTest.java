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
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.itsrt.probe.arrival.ConsumeLoop;
import org.itsrt.probe.report.HistogramLog;
import org.itsrt.probe.report.LatencyCsv;
import org.itsrt.probe.report.RunReport;
import org.itsrt.probe.stats.RunStats;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeRunTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Path folder;
    static SampleRun sample;
    static JsonNode summary;

    @BeforeAll
    static void run() throws Exception {
        folder = dir.resolve("run");
        sample = SampleRun.write(folder, false);
        summary = JSON.readTree(folder.resolve(RunReport.SUMMARY_JSON).toFile());
    }

    @Test
    void stopsAtTheRequestedCount() {
        assertThat(sample.result.reason()).isEqualTo(ConsumeLoop.StopReason.RECORDS);
        assertThat(summary.at("/records/measured").asLong()).isEqualTo(SampleRun.RECORDS);
        assertThat(summary.at("/records/malformed").asLong()).isEqualTo(1);
        assertThat(summary.at("/records/malformed_by_reason/not JSON").asLong()).isEqualTo(1);
        assertThat(summary.at("/run/stopped_by").asText()).isEqualTo("--records 600");
        assertThat(summary.at("/run/clock").asText()).isEqualTo("manual at 1000.000 MHz (test)");
        assertThat(summary.at("/run/active_span_s").asDouble()).isCloseTo(9.95, within(1e-9));
    }

    @Test
    void findsTheLostDuplicatedAndReorderedRecords() {
        assertThat(summary.at("/sequence/total/lost").asLong()).isEqualTo(1);
        assertThat(summary.at("/sequence/total/duplicated").asLong()).isEqualTo(1);
        assertThat(summary.at("/sequence/total/reordered").asLong()).isEqualTo(1);
        JsonNode perDetector = summary.at("/sequence/per_detector");
        assertThat(perDetector).hasSize(3);
        assertThat(perDetector.get(1).get("detector").asLong()).isEqualTo(2);
        assertThat(perDetector.get(1).get("lost").asLong()).isEqualTo(1);
        assertThat(perDetector.get(2).get("duplicated").asLong()).isEqualTo(1);
        assertThat(perDetector.get(0).get("reordered").asLong()).isEqualTo(1);
        assertThat(summary.at("/records/shortfall").asLong()).isEqualTo(1);
    }

    @Test
    void reportsBothLatenciesWithExactExtremesAndHistogramPercentiles() {
        JsonNode sent = summary.at("/latency/from_sent/all");
        assertThat(sent.get("count").asLong()).isEqualTo(600);
        assertThat(sent.get("min_ms").asDouble()).isEqualTo(2.0);
        assertThat(sent.get("max_ms").asDouble()).isEqualTo(30.0);
        // 540 records at 2 ms, 60 at 30 ms.
        assertThat(sent.get("mean_ms").asDouble()).isCloseTo((540 * 2.0 + 60 * 30.0) / 600, within(1e-9));
        assertThat(sent.get("p50_ms").asDouble()).isBetween(2.0, 2.002);
        assertThat(sent.get("p90_ms").asDouble()).isBetween(2.0, 2.002);
        assertThat(sent.get("p99_ms").asDouble()).isBetween(30.0, 30.03);
        JsonNode intended = summary.at("/latency/from_intended/all");
        assertThat(intended.get("min_ms").asDouble()).isEqualTo(2.1);
        assertThat(intended.get("max_ms").asDouble()).isEqualTo(30.1);
        assertThat(summary.at("/primary_latency").asText()).isEqualTo("from_intended");
    }

    @Test
    void steadyStateLeavesOutTheWarmup() {
        // Warm-up 5 s: arrivals from 5 s on, polls 100..199, 300 records less the lost one... the lost
        // seq 50 was at 2.5 s, so 300 records.
        assertThat(summary.at("/latency/from_sent/steady_state/count").asLong()).isEqualTo(300);
    }

    @Test
    void sloRatioCountsTheOneBadSecond() {
        JsonNode all = summary.at("/slo/from_sent/all");
        assertThat(all.get("windows").asLong()).isEqualTo(10);
        assertThat(all.get("empty_windows").asLong()).isZero();
        assertThat(all.get("violating_windows").asLong()).isEqualTo(1);
        assertThat(all.get("violation_ratio").asDouble()).isEqualTo(0.1);
        assertThat(all.get("records_over_slo").asLong()).isEqualTo(60);
        JsonNode steady = summary.at("/slo/from_intended/steady_state");
        assertThat(steady.get("windows").asLong()).isEqualTo(5);
        assertThat(steady.get("violation_ratio").asDouble()).isEqualTo(0.2);
    }

    @Test
    void stagesAreSummarisedInMicroseconds() {
        assertThat(summary.at("/stages/infer/count").asLong()).isEqualTo(600);
        assertThat(summary.at("/stages/infer/max_us").asDouble()).isEqualTo(400.0);
        assertThat(summary.at("/stages/parse/p50_us").asDouble()).isBetween(10.0, 10.01);
    }

    @Test
    void writesOneCsvRowPerRecord() throws Exception {
        List<String> lines = Files.readAllLines(folder.resolve(LatencyCsv.FILE));
        assertThat(lines).hasSize(SampleRun.RECORDS + 1);
        assertThat(lines.get(0)).isEqualTo(LatencyCsv.HEADER);
        long arrival = SampleRun.START;
        long sent = arrival - 2 * SampleRun.MS;
        assertThat(lines)
                .contains(String.join(
                        ",",
                        "1",
                        "0",
                        Long.toString(sent),
                        Long.toString(sent - 100_000),
                        Long.toString(arrival),
                        "2.000000",
                        "2.100000",
                        "10.000",
                        "400.000",
                        "60.000",
                        "false",
                        "412.5"));
    }

    @Test
    void theHistogramLogAddsUpToTheRun() throws Exception {
        Histogram total = new Histogram(3);
        int intervals = 0;
        try (HistogramLogReader reader =
                new HistogramLogReader(folder.resolve(HistogramLog.FILE).toFile())) {
            EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                if ("from_sent".equals(h.getTag())) {
                    total.add((Histogram) h);
                    intervals++;
                }
            }
        }
        assertThat(intervals).isEqualTo(10);
        assertThat(total.getTotalCount()).isEqualTo(600);
        assertThat(total.getValueAtPercentile(50))
                .isEqualTo((long) (summary.at("/latency/from_sent/all/p50_ms").asDouble() * 1e6 + 0.5));
    }

    @Test
    void writesEveryPlotAsPngAndSvgOfTheFixedSize() throws Exception {
        for (String plot : List.of(RunReport.ECDF, RunReport.ECDF_LOG, RunReport.TIMELINE, RunReport.STAGES)) {
            PlotFiles.assertValid(folder, plot);
        }
    }

    @Test
    void summaryMarkdownHasTheSections() throws Exception {
        String md = Files.readString(folder.resolve(RunReport.SUMMARY_MD));
        assertThat(md)
                .contains("| clock | manual at 1000.000 MHz (test) |")
                .contains("## End-to-end latency (ms)")
                .contains("| from intended | steady state (from 5 s) | 300 |")
                .contains("## Stages in the job (µs)")
                .contains("| infer | 600 |")
                .contains("## Delivery per detector")
                .contains("| 2 | 199 | 199 | 199 | 1 | 0 | 0 |")
                .contains("| not JSON | 1 |")
                .contains("| from sent | all | 10 | 0 | 1 | 10.00% | 600 | 60 |")
                .contains("![ECDF of latency](ecdf.png)")
                .contains("(stages.svg)");
    }

    @Test
    void announcesReadinessAndProgress() throws Exception {
        assertThat(folder.resolve(ProbeRun.READY_FILE)).hasContent("0@0");
        assertThat(sample.log())
                .contains("its-probe: ready, reading its.advice partitions 0@0")
                .containsPattern("its-probe: [0-9,]+ records, [0-9,]+/s, p50 2\\.10[0-9] ms")
                .contains("% of " + SampleRun.DISTINCT + ", ETA");
    }

    @Test
    void onItsReadingsThereAreNoStages(@TempDir Path other) throws Exception {
        SampleRun readings = SampleRun.write(other, true);
        assertThat(readings.result.stats().hasStages()).isFalse();
        assertThat(other.resolve(RunReport.STAGES + ".png")).doesNotExist();
        PlotFiles.assertValid(other, RunReport.TIMELINE);
        assertThat(Files.readString(other.resolve(RunReport.SUMMARY_MD)))
                .contains("None: the records carry no stage durations");
    }

    @Test
    void anInterruptedRunWithNothingReceivedStillWritesItsReport(@TempDir Path empty) throws Exception {
        TopicPartition p0 = new TopicPartition("its.advice", 0);
        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("latest");
        consumer.updateEndOffsets(Map.of(p0, 0L));
        ManualClock clock = new ManualClock(0);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        ProbeRun run = new ProbeRun(
                ProbeOptions.builder()
                        .topic("its.advice")
                        .bootstrapServers("mock:9092")
                        .groupId("g")
                        .settings(new RunStats.Settings(SampleRun.MS * 1000, 20 * SampleRun.MS, 0))
                        .stopDescription(Map.of(ConsumeLoop.StopReason.INTERRUPTED, "interrupt (Ctrl-C)"))
                        .build(),
                clock,
                new PrintStream(log, true, StandardCharsets.UTF_8));
        consumer.schedulePollTask(run::stop);

        ProbeRun.Result result = run.run(consumer, List.of(p0), empty);

        assertThat(result.reason()).isEqualTo(ConsumeLoop.StopReason.INTERRUPTED);
        JsonNode json = JSON.readTree(empty.resolve(RunReport.SUMMARY_JSON).toFile());
        assertThat(json.at("/records/measured").asLong()).isZero();
        assertThat(json.at("/run/stopped_by").asText()).isEqualTo("interrupt (Ctrl-C)");
        assertThat(Files.readString(empty.resolve(RunReport.SUMMARY_MD)))
                .contains("No record arrived")
                .contains("None: no record arrived.");
        assertThat(Files.readAllLines(empty.resolve(LatencyCsv.FILE))).containsExactly(LatencyCsv.HEADER);
    }
}
