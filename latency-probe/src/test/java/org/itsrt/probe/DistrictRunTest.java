package org.itsrt.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.itsrt.probe.arrival.ConsumeLoop;
import org.itsrt.probe.district.DistrictReport;
import org.itsrt.probe.report.LatencyCsv;
import org.itsrt.probe.report.RunReport;
import org.itsrt.records.RecordJson;
import org.itsrt.records.RouteOutcome;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.records.Workload;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The district workload's two streams measured apart, on {@link DistrictRun}. */
class DistrictRunTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MS = DistrictRun.MS;

    @TempDir
    static Path dir;

    static Path folder;
    static DistrictRun run;
    static JsonNode predictions;
    static JsonNode routes;
    static Map<String, Map<String, String>> streams;
    static Map<String, Map<String, String>> outcomes;

    @BeforeAll
    static void run() throws Exception {
        folder = dir.resolve("run");
        run = DistrictRun.write(folder);
        predictions = JSON.readTree(
                folder.resolve("predictions").resolve(RunReport.SUMMARY_JSON).toFile());
        routes = JSON.readTree(
                folder.resolve("routes").resolve(RunReport.SUMMARY_JSON).toFile());
        streams = csvByFirstColumn(folder.resolve(DistrictReport.STREAMS_CSV));
        outcomes = csvByFirstColumn(folder.resolve(DistrictReport.OUTCOMES_CSV));
    }

    /** Rows of a CSV without quoted fields, by their first column, each as column name -> value. */
    private static Map<String, Map<String, String>> csvByFirstColumn(Path file) throws Exception {
        List<String> lines = Files.readAllLines(file);
        String[] header = lines.get(0).split(",", -1);
        Map<String, Map<String, String>> rows = new HashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            assertThat(cells).as(line).hasSameSizeAs(header);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], cells[i]);
            }
            rows.put(cells[0], row);
        }
        return rows;
    }

    @Test
    void theTestRecordsAreWhatTheJobWrites() throws Exception {
        RecordJson.readPrediction(TestRecords.prediction(764598, 3, 1000, 900));
        RouteRecordJson.readRoute(TestRecords.answer(3, 17, 1000, 900, true));
        RouteRecordJson.readRoute(TestRecords.answer(3, 17, 1000, 900, false));
        RouteRecordJson.readRequest(TestRecords.routeRequest(3, 17, 1000, 900));
    }

    @Test
    void eachStreamHasAFolderOfTheStudysFiles() {
        for (String stream : List.of("predictions", "routes")) {
            for (String file : List.of(
                    RunReport.SUMMARY_JSON,
                    RunReport.SUMMARY_MD,
                    LatencyCsv.FILE,
                    "latency.hlog",
                    RunReport.WINDOWS_CSV,
                    "ecdf.png",
                    "timeline.svg",
                    "stages.png")) {
                assertThat(folder.resolve(stream).resolve(file))
                        .as(stream + "/" + file)
                        .isRegularFile();
            }
        }
        assertThat(predictions.at("/run/topic").asText()).isEqualTo("its.predictions");
        assertThat(routes.at("/run/topic").asText()).isEqualTo("its.routes");
        assertThat(run.result.reason()).isEqualTo(ConsumeLoop.StopReason.RECORDS);
        assertThat(run.result.stats()).isNull();
        assertThat(run.result.streams()).containsOnlyKeys(Workload.Stream.PREDICTIONS, Workload.Stream.ROUTES);
        // The command refuses to write another run over it.
        assertThat(ProbeRun.runIn(folder)).isEqualTo(DistrictReport.STREAMS_CSV);
        assertThat(ProbeRun.runIn(folder.resolve("routes"))).isEqualTo(RunReport.SUMMARY_JSON);
        assertThat(ProbeRun.runIn(dir.resolve("nothing-here"))).isNull();
    }

    @Test
    void countsEachStreamApart() {
        assertThat(predictions.at("/records/measured").asLong()).isEqualTo(DistrictRun.MEASURED);
        assertThat(predictions.at("/warmup/records").asLong()).isEqualTo(2L * DistrictRun.WARMUP_POLLS);
        assertThat(predictions.at("/records/malformed").asLong()).isZero();
        assertThat(routes.at("/records/measured").asLong()).isEqualTo(DistrictRun.MEASURED);
        assertThat(routes.at("/warmup/records").asLong()).isEqualTo(2L * DistrictRun.WARMUP_POLLS);
        // The request on the answers' topic and the answer of an unknown outcome.
        assertThat(routes.at("/records/malformed").asLong()).isEqualTo(2);
        assertThat(routes.at("/records/malformed_by_reason/missing outcome").asLong())
                .isEqualTo(1);
        assertThat(routes.at("/records/malformed_by_reason/invalid outcome").asLong())
                .isEqualTo(1);

        Map<String, String> p = streams.get("predictions");
        assertThat(p.get("measures")).isEqualTo("readings -> predictions");
        assertThat(p.get("measured")).isEqualTo(Long.toString(DistrictRun.MEASURED));
        assertThat(p.get("warmup")).isEqualTo("40");
        assertThat(p.get("malformed")).isEqualTo("0");
        Map<String, String> r = streams.get("routes");
        assertThat(r.get("measures")).isEqualTo("requests -> answers");
        assertThat(r.get("measured")).isEqualTo(Long.toString(DistrictRun.MEASURED));
        assertThat(r.get("malformed")).isEqualTo("2");
    }

    @Test
    void tellsLossAndDuplicatesPerDetectorAndPerRequestStream() throws Exception {
        JsonNode byDetector = predictions.at("/sequence/per_detector");
        assertThat(byDetector).hasSize(2);
        assertThat(byDetector.get(0).get("detector").asLong()).isEqualTo(1);
        assertThat(byDetector.get(0).get("duplicated").asLong()).isEqualTo(1);
        assertThat(byDetector.get(0).get("lost").asLong()).isZero();
        assertThat(byDetector.get(1).get("detector").asLong()).isEqualTo(2);
        assertThat(byDetector.get(1).get("lost").asLong()).isEqualTo(1);
        assertThat(byDetector.get(1).get("duplicated").asLong()).isZero();

        JsonNode byStream = routes.at("/sequence/per_detector");
        assertThat(byStream).hasSize(2);
        assertThat(byStream.get(0).get("detector").asLong()).isZero();
        assertThat(byStream.get(0).get("duplicated").asLong()).isEqualTo(1);
        assertThat(byStream.get(0).get("lost").asLong()).isZero();
        assertThat(byStream.get(1).get("detector").asLong()).isEqualTo(1);
        assertThat(byStream.get(1).get("lost").asLong()).isEqualTo(1);

        assertThat(Files.readString(folder.resolve("predictions").resolve(RunReport.SUMMARY_MD)))
                .contains("## Delivery per detector (by `seq`)");
        assertThat(Files.readString(folder.resolve("routes").resolve(RunReport.SUMMARY_MD)))
                .contains("## Delivery per request stream (by `seq`)")
                .contains("| request stream | received |");
        for (String stream : List.of("predictions", "routes")) {
            assertThat(streams.get(stream).get("lost")).as(stream).isEqualTo("1");
            assertThat(streams.get(stream).get("duplicated")).as(stream).isEqualTo("1");
        }
    }

    @Test
    void comparesEachStreamWithTheCountItsProducersAnnounced() {
        assertThat(predictions.at("/records/expected").asLong()).isEqualTo(DistrictRun.EXPECTED_READINGS);
        assertThat(predictions.at("/records/shortfall").asLong()).isEqualTo(1);
        assertThat(routes.at("/records/expected").asLong()).isEqualTo(DistrictRun.EXPECTED_REQUESTS);
        assertThat(routes.at("/records/shortfall").asLong()).isEqualTo(2);
        assertThat(streams.get("predictions").get("expected")).isEqualTo(Long.toString(DistrictRun.EXPECTED_READINGS));
        assertThat(streams.get("predictions").get("shortfall")).isEqualTo("1");
        assertThat(streams.get("routes").get("expected")).isEqualTo(Long.toString(DistrictRun.EXPECTED_REQUESTS));
        assertThat(streams.get("routes").get("shortfall")).isEqualTo("2");
    }

    @Test
    void neverMixesTheStreamsLatencies() {
        JsonNode p = predictions.at("/latency/from_sent/all");
        assertThat(p.get("min_ms").asDouble()).isEqualTo(3.0);
        assertThat(p.get("max_ms").asDouble()).isEqualTo(3.0);
        JsonNode r = routes.at("/latency/from_sent/all");
        assertThat(r.get("min_ms").asDouble()).isEqualTo(7.0);
        assertThat(r.get("max_ms").asDouble()).isEqualTo(11.0);
        // 101 routed at 7 ms, 99 unreachable at 11 ms.
        assertThat(r.get("mean_ms").asDouble()).isCloseTo((101 * 7.0 + 99 * 11.0) / 200, within(1e-9));
        assertThat(predictions.at("/primary_latency").asText()).isEqualTo("from_intended");
        assertThat(Double.parseDouble(streams.get("predictions").get("max_ms"))).isEqualTo(3.1);
        assertThat(Double.parseDouble(streams.get("routes").get("max_ms"))).isEqualTo(11.1);
        // The predictions carry parse and infer, the answers parse and route.
        assertThat(predictions.at("/stages/route/count").asLong()).isZero();
        assertThat(predictions.at("/stages/infer/count").asLong()).isEqualTo(DistrictRun.MEASURED);
        assertThat(routes.at("/stages/infer/count").asLong()).isZero();
        assertThat(routes.at("/stages/route/count").asLong()).isEqualTo(DistrictRun.MEASURED);
    }

    @Test
    void countsAndMeasuresTheAnswersByOutcome() {
        Map<String, String> routed = outcomes.get(RouteOutcome.ROUTED.wire());
        assertThat(routed.get("answers")).isEqualTo("121");
        assertThat(routed.get("warmup")).isEqualTo("20");
        assertThat(routed.get("measured")).isEqualTo("101");
        assertThat(Double.parseDouble(routed.get("max_ms"))).isEqualTo(7.1);
        Map<String, String> unreachable = outcomes.get(RouteOutcome.UNREACHABLE.wire());
        assertThat(unreachable.get("answers")).isEqualTo("119");
        assertThat(unreachable.get("warmup")).isEqualTo("20");
        assertThat(unreachable.get("measured")).isEqualTo("99");
        assertThat(Double.parseDouble(unreachable.get("p50_ms"))).isCloseTo(11.1, within(0.02));
        assertThat(Double.parseDouble(unreachable.get("max_ms"))).isEqualTo(11.1);
        assertThat(outcomes).hasSize(RouteOutcome.values().length);
    }

    @Test
    void countsTheDeadLettersOfEachStreamsInput() throws Exception {
        assertThat(streams.get("predictions").get("dead_letters")).isEqualTo("3");
        assertThat(streams.get("routes").get("dead_letters")).isEqualTo("2");
        // Of the lost, those a dead letter names; detector 1's seq 5 was rejected but arrived.
        assertThat(streams.get("predictions").get("lost_dead_lettered")).isEqualTo("1");
        assertThat(streams.get("routes").get("lost_dead_lettered")).isEqualTo("1");
        String md = Files.readString(folder.resolve(RunReport.SUMMARY_MD));
        assertThat(md).contains("| readings -> predictions | field flow | 2 |");
        assertThat(md).contains("| readings -> predictions | unknown detector | 1 |");
        assertThat(md).contains("| requests -> answers | same origin and destination | 2 |");
        assertThat(md).contains("| other source: `its.elsewhere` |  | 1 |");
    }

    @Test
    void theReportHasARowPerStream() throws Exception {
        String md = Files.readString(folder.resolve(RunReport.SUMMARY_MD));
        assertThat(md).startsWith("# Latency probe run: district workload");
        assertThat(md)
                .containsPattern("\\| readings -> predictions \\| `its.predictions` \\| 200 \\| 40 \\| 0 \\| 1 \\| 1 "
                        + "\\| 3 \\| 1 \\| 200 \\| 1 \\| from intended \\|");
        assertThat(md)
                .containsPattern("\\| requests -> answers \\| `its.routes` \\| 200 \\| 40 \\| 2 \\| 1 \\| 1 "
                        + "\\| 2 \\| 1 \\| 201 \\| 2 \\| from intended \\|");
        assertThat(md).contains("[predictions/summary.md](predictions/summary.md)");
        assertThat(md).contains("| routed | 121 | 20 | 101 |");
        assertThat(md).contains("| unreachable | 119 | 20 | 99 |");
    }

    @Test
    void printsProgressAndTheOutcomePerStream() {
        String log = run.log();
        assertThat(log).contains("its-probe: predictions: ");
        assertThat(log).contains("its-probe: routes: ");
        String outcome = run.result.outcome();
        assertThat(outcome).contains("its-probe: readings -> predictions: 200 records");
        assertThat(outcome).contains("its-probe: requests -> answers: 200 records");
        assertThat(outcome).contains("report in " + folder.resolve(RunReport.SUMMARY_MD));
    }

    @Test
    void eachStreamsRawLatenciesHoldItsOwnMeasuredRecords() throws Exception {
        assertThat(Files.readAllLines(folder.resolve("predictions").resolve(LatencyCsv.FILE)))
                .hasSize(1 + DistrictRun.MEASURED);
        List<String> answers = Files.readAllLines(folder.resolve("routes").resolve(LatencyCsv.FILE));
        assertThat(answers).hasSize(1 + DistrictRun.MEASURED);
        assertThat(answers.subList(1, answers.size()))
                .allSatisfy(line -> assertThat(line).matches("[01],.*"));
        assertThat(MS).isPositive();
    }
}
