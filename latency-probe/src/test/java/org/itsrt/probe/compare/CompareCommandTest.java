package org.itsrt.probe.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.itsrt.probe.PlotFiles;
import org.itsrt.probe.ProbeCli;
import org.itsrt.probe.ProbeCli.Result;
import org.itsrt.probe.SampleRun;
import org.itsrt.probe.stats.LatencyKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareCommandTest {

    private static Result compare(String... args) {
        return ProbeCli.run("compare", args);
    }

    /** docs/study.md, section 2, second table: min, p50, p90, p99, p99.9, max in ms per study configuration. */
    private static final Map<String, double[]> STUDY_TABLE = Map.of(
            "study RTDS 100000/100000", new double[] {5.15, 10.02, 18.64, 28.00, 35.86, 48.52},
            "study RTDS 80000/100000", new double[] {5.16, 11.32, 20.75, 30.29, 35.43, 43.81},
            "study RTDS 77500/100000", new double[] {5.13, 8.55, 14.20, 23.54, 31.20, 50.34},
            "study RTDS 76750/100000", new double[] {5.11, 9.10, 13.67, 18.96, 20.89, 38.29},
            "study RTDS 76000/100000", new double[] {5.20, 13.85, 21.41, 30.81, 36.53, 56.03},
            "study RTDS 75000/100000", new double[] {5.07, 8.65, 12.91, 18.60, 26.11, 52.66},
            "study Credit no cap", new double[] {5.18, 6.59, 9.24, 16.48, 46.86, 116.95},
            "study Credit cap 153", new double[] {5.29, 6.66, 9.03, 37.69, 713.96, 1040.94},
            "study Credit2", new double[] {5.17, 5.82, 8.17, 14.09, 601.35, 951.15});

    @Test
    void theStudysRawFilesGiveTheReferenceTable(@TempDir Path out) throws Exception {
        String shared = System.getProperty("itsrt.shared.data");
        Path folder = shared == null ? null : Path.of(shared, "study-latencies");
        assumeTrue(
                folder != null && Files.isDirectory(folder),
                "the study's raw latencies are not at " + folder + " (system property itsrt.shared.data); skipped");

        List<Distribution> rows = StudyLatencies.folder(folder, StudyLatencies.STUDY_CYCLES_PER_NS);

        assertThat(rows)
                .extracting(Distribution::label)
                .containsExactly(
                        "study RTDS 100000/100000",
                        "study RTDS 80000/100000",
                        "study RTDS 77500/100000",
                        "study RTDS 76750/100000",
                        "study RTDS 76000/100000",
                        "study RTDS 75000/100000",
                        "study Credit no cap",
                        "study Credit cap 153",
                        "study Credit2");
        for (Distribution row : rows) {
            double[] expected = STUDY_TABLE.get(row.label());
            double[] actual = {row.minMs(), row.p50Ms(), row.p90Ms(), row.p99Ms(), row.p999Ms(), row.maxMs()};
            for (int i = 0; i < expected.length; i++) {
                assertThat(actual[i]).as("%s column %d", row.label(), i).isCloseTo(expected[i], within(0.005));
            }
            assertThat(row.count()).as(row.label()).isEqualTo(20_000);
            assertThat(row.sloRatio()).isNaN();
        }

        Result result = compare(folder.toString(), "--out", out.toString());
        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.out())
                .contains("| study RTDS 100000/100000 | 20,000 | 5.15 | 10.02 | 18.64 | 28.00 | 35.86 | 48.52 | n/a |");
    }

    @Test
    void cyclesBecomeMillisecondsAtTheGivenRateWithExactPercentiles(@TempDir Path dir) throws Exception {
        // 1..101 ms at 2.1 cycles/ns: p50 is the middle value, p99 lies between ranks 99 and 100.
        StringBuilder text = new StringBuilder();
        for (int ms = 101; ms >= 1; ms--) {
            text.append(ms * 2_100_000L).append('\n');
        }
        Path file = dir.resolve("flink_kafka_rtds_50000_100000_latency.txt");
        Files.writeString(file, text + "\n");

        Distribution d = StudyLatencies.distribution(file, 2.1);

        assertThat(d.label()).isEqualTo("study RTDS 50000/100000");
        assertThat(d.count()).isEqualTo(101);
        assertThat(d.minMs()).isCloseTo(1.0, within(1e-9));
        assertThat(d.p50Ms()).isCloseTo(51.0, within(1e-9));
        assertThat(d.p90Ms()).isCloseTo(91.0, within(1e-9));
        assertThat(d.p99Ms()).isCloseTo(100.0, within(1e-9));
        assertThat(d.p999Ms()).isCloseTo(100.9, within(1e-9));
        assertThat(d.maxMs()).isCloseTo(101.0, within(1e-9));

        Distribution slower = StudyLatencies.distribution(file, 1.05);
        assertThat(slower.p50Ms()).isCloseTo(102.0, within(1e-9));
    }

    @Test
    void aBadLineInAStudyFileIsNamedWithItsLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("flink_kafka_credit_full_latency.txt");
        Files.writeString(file, "2100000\n2200000\nabc\n");

        assertThatThrownBy(() -> StudyLatencies.readMs(file, 2.1))
                .hasMessageContaining(file + ":3")
                .hasMessageContaining("'abc'");

        Result result = compare(file.toString(), "--out", dir.resolve("out").toString());
        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err()).contains(file + ":3");
    }

    @Test
    void aRunIsReadBackAsTheProbeMeasuredIt(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("run");
        SampleRun.write(run, false);

        Distribution fromIntended = RunLatencies.read(run, LatencyKind.FROM_INTENDED, 1_000_000_000L, 20_000_000L);
        Distribution fromSent = RunLatencies.read(run, LatencyKind.FROM_SENT, 1_000_000_000L, 20_000_000L);

        // 600 records: 540 at 2 ms and the 60 of second 7 at 30 ms from sent; intended is 0.1 ms earlier.
        assertThat(fromSent.count()).isEqualTo(SampleRun.RECORDS);
        assertThat(fromSent.minMs()).isCloseTo(2.0, within(1e-9));
        assertThat(fromSent.p50Ms()).isCloseTo(2.0, within(1e-9));
        assertThat(fromSent.maxMs()).isCloseTo(30.0, within(1e-9));
        assertThat(fromIntended.p50Ms()).isCloseTo(2.1, within(1e-9));
        assertThat(fromIntended.maxMs()).isCloseTo(30.1, within(1e-9));
        // p95 of each 1 s window: only second 7 is above 20 ms, of the 10 windows of the active span.
        assertThat(fromSent.sloRatio()).isCloseTo(0.1, within(1e-9));
    }

    @Test
    void writesTheTableAndTheOverlayPlots(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("run-a");
        SampleRun.write(run, false);
        Path study = dir.resolve("flink_kafka_credit2_full_latency.txt");
        Files.writeString(study, "10500000\n12600000\n21000000\n");
        Path out = dir.resolve("compare");

        Result result = compare(run.toString(), study.toString(), "--out", out.toString(), "--latency", "sent");

        assertThat(result.exit()).as(result.err()).isZero();
        String md = Files.readString(out.resolve(CompareReport.MARKDOWN));
        assertThat(md)
                .contains("| run-a | 600 | 2.00 |")
                .contains("| study Credit2 | 3 | 5.00 | 6.00 |")
                .contains("| 10.00% |")
                .contains("| 9.20 | 9.92 | 9.99 | 10.00 | n/a |");
        PlotFiles.assertValid(out, CompareReport.ECDF);
        PlotFiles.assertValid(out, CompareReport.ECDF_LOG);
    }

    @Test
    void aMissingInputIsNamed(@TempDir Path dir) {
        Path missing = dir.resolve("no-such-run");
        Result result = compare(missing.toString(), "--out", dir.resolve("out").toString());
        assertThat(result.exit()).isEqualTo(1);
        assertThat(result.err()).contains(missing.toString());
    }

    @Test
    void aDemoRunIsNamedAfterItsFolderAndEqualNamesAreTold(@TempDir Path dir) throws Exception {
        SampleRun.write(dir.resolve("demo-a").resolve("probe"), false);
        SampleRun.write(dir.resolve("other").resolve("demo-a"), false);
        Path out = dir.resolve("compare");

        Result result = compare(
                dir.resolve("demo-a").toString(), dir.resolve("other/demo-a").toString(), "--out", out.toString());

        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.out()).contains("| demo-a | 600 |").contains("| demo-a #2 | 600 |");
    }
}
