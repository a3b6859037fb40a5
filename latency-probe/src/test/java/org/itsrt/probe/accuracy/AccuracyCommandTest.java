package org.itsrt.probe.accuracy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.itsrt.probe.ProbeCli;
import org.itsrt.probe.ProbeCli.Result;
import org.itsrt.probe.arrival.Arrival;
import org.itsrt.probe.arrival.ArrivalSink;
import org.itsrt.probe.report.LatencyCsv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccuracyCommandTest {

    @TempDir
    Path dir;

    private static Result accuracy(String... args) {
        return ProbeCli.run("accuracy", args);
    }

    /** A measured record as the probe keeps it: detector 1, the sequence number, a prediction. */
    private static Arrival arrival(long seq, double predictedFlow, boolean degraded) {
        long sent = 1_000_000_000L + seq * 100_000_000L;
        return new Arrival(
                1, seq, sent, sent, 10_000, 100_000, 5_000, sent + 2_000_000, false, degraded, predictedFlow);
    }

    /** Writes a probe run folder's latencies.csv as the probe writes it, arrival by arrival. */
    private Path run(String name, List<Arrival> arrivals) throws Exception {
        Path folder = Files.createDirectories(dir.resolve(name));
        LatencyCsv csv = new LatencyCsv(folder.resolve(LatencyCsv.FILE));
        arrivals.forEach(csv::arrived);
        csv.finish();
        return folder;
    }

    @Test
    void theCostOfDegradingIsTheSquaredDifferenceOnTheDegradedRecordsOverAllMatched() throws Exception {
        Path plain = run(
                "plain",
                List.of(
                        arrival(0, 300.25, false),
                        arrival(1, 310.5, false),
                        arrival(2, 320.125, false),
                        arrival(3, 330.0, false)));
        // Records 1 and 2 served by the cheap engine, 4 and 3 veh/5 min off; record 5 only here.
        Path degrade = run(
                "degrade",
                List.of(
                        arrival(0, 300.25, false),
                        arrival(1, 314.5, true),
                        arrival(2, 317.125, true),
                        arrival(3, 330.0, false),
                        arrival(5, 1.0, false)));

        Result result = accuracy(
                "--reference",
                plain.toString(),
                "--out",
                dir.resolve("report").toString(),
                degrade.toString(),
                plain.toString());

        assertThat(result.exit()).as(result.err()).isZero();
        List<String> csv = Files.readAllLines(dir.resolve("report").resolve(AccuracyReport.CSV));
        assertThat(csv.get(0)).isEqualTo(AccuracyReport.CSV_HEADER);
        String[] degraded = csv.get(1).split(",");
        assertThat(degraded[0]).isEqualTo("degrade");
        assertThat(degraded[1]).as("records").isEqualTo("5");
        assertThat(degraded[2]).as("matched").isEqualTo("4");
        assertThat(degraded[3]).as("degraded").isEqualTo("2");
        assertThat(Double.parseDouble(degraded[5])).as("mse").isCloseTo((16 + 9) / 4.0, within(1e-12));
        assertThat(Double.parseDouble(degraded[7])).as("mse of degraded").isCloseTo((16 + 9) / 2.0, within(1e-12));
        assertThat(Double.parseDouble(degraded[8])).as("max abs, degraded").isEqualTo(4.0);
        assertThat(degraded[10]).as("LSTM records differing").isEqualTo("0");
        String[] itself = csv.get(2).split(",", -1);
        assertThat(Double.parseDouble(itself[5]))
                .as("the reference against itself")
                .isZero();
        assertThat(itself[7]).as("no degraded record, no MSE of them").isEmpty();
        String markdown = Files.readString(dir.resolve("report").resolve(AccuracyReport.MARKDOWN));
        assertThat(markdown).contains("| degrade |", "6.250", "12.5", "has the same prediction in both");
        assertThat(result.out()).contains("| degrade |");
    }

    @Test
    void recordsTheLstmServedInBothThatDifferSayTheRunsAreNotTheSameRecords() throws Exception {
        Path plain = run("plain", List.of(arrival(0, 300.0, false), arrival(1, 310.0, false)));
        Path other = run("other", List.of(arrival(0, 300.0, false), arrival(1, 311.5, false)));

        Result result = accuracy(
                "--reference", plain.toString(), "--out", dir.resolve("r").toString(), other.toString());

        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.out()).contains("1 (max 1.500)");
        assertThat(Files.readString(dir.resolve("r").resolve(AccuracyReport.MARKDOWN)))
                .contains("Not the same records");
    }

    @Test
    void aPredictionIsWrittenAndReadBackExactly() throws Exception {
        double awkward = 0.1 + 0.2;
        Path folder = run("exact", List.of(arrival(0, awkward, true), arrival(1, Double.NaN, false)));

        RunPredictions read = RunPredictions.read(folder);

        assertThat(read.byRecord()).hasSize(1);
        assertThat(read.byRecord().get(new RunPredictions.RecordKey(1, 0)))
                .isEqualTo(new RunPredictions.Prediction(awkward, true));
        assertThat(read.withoutPrediction()).isEqualTo(1);
    }

    @Test
    void aReferenceWithDegradedRecordsIsRefusedInOneLine() throws Exception {
        Path degrade = run("degrade", List.of(arrival(0, 300.0, true)));

        Result result = accuracy(
                "--reference", degrade.toString(), "--out", dir.resolve("r").toString(), degrade.toString());

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err().strip())
                .contains("has 1 degraded records, expected none")
                .doesNotContain("\n");
    }

    @Test
    void aRunWrittenBeforePredictionsWereKeptIsNamedWithWhatIsMissing() throws Exception {
        Path old = Files.createDirectories(dir.resolve("old"));
        Files.writeString(
                old.resolve(LatencyCsv.FILE),
                "detector,seq,sent_ns,intended_ns,arrival_ns,latency_ms,"
                        + "latency_from_intended_ms,parse_us,infer_us,route_us\n1,0,1,1,2,0.000001,0.000001,,,\n");
        Path plain = run("plain", List.of(arrival(0, 300.0, false)));

        Result result = accuracy("--reference", plain.toString(), old.toString());

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err()).contains(old.resolve(LatencyCsv.FILE).toString(), "no predicted_flow column");
    }

    @Test
    void runsThatShareNoRecordAreRefused() throws Exception {
        Path plain = run("plain", List.of(arrival(0, 300.0, false)));
        Path elsewhere = run("elsewhere", List.of(arrival(7, 300.0, false)));

        Result result = accuracy(
                "--reference", plain.toString(), "--out", dir.resolve("r").toString(), elsewhere.toString());

        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err()).contains("shares no record");
    }

    @Test
    void anOlderFileIsStillReplayedForItsReport() throws Exception {
        Path file = dir.resolve(LatencyCsv.FILE);
        Files.writeString(
                file,
                "detector,seq,sent_ns,intended_ns,arrival_ns,latency_ms,"
                        + "latency_from_intended_ms,parse_us,infer_us,route_us\n1,0,1,1,2,0.000001,0.000001,,,\n");
        List<Arrival> replayed = new ArrayList<>();
        LatencyCsv.replay(file, new ArrivalSink() {
            @Override
            public void arrived(Arrival a) {
                replayed.add(a);
            }

            @Override
            public void finish() {}
        });
        assertThat(replayed).hasSize(1);
    }
}
