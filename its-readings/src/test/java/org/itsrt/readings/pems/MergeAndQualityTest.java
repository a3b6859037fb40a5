package org.itsrt.readings.pems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.itsrt.readings.Reading;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** De-duplication, conflicts, flow-only filling, and the quality report's figures and files. */
class MergeAndQualityTest {

    @TempDir
    Path dir;

    private PemsImporter.Result importFrom(Path... inputs) throws IOException {
        return new PemsImporter(PemsImporter.Options.strict(), line -> {}).importFrom(List.of(inputs));
    }

    @Test
    void identicalRowsFromTwoFilesAreDroppedAndCountedPerFilePair() throws IOException {
        ReportExport export =
                ReportExport.full(717731, 4).row("3/15/2018 0:00", 200, 66.0, 0).row("3/15/2018 0:05", 210, 65.0, 0);
        Path kept = export.writeTo(dir.resolve("wilmington/pems_output_1.xlsx"));
        Path dropped = export.writeTo(dir.resolve("wilmington/pems_output_2.xlsx"));

        PemsImporter.Result result = importFrom(dir);

        assertThat(result.readings()).hasSize(2);
        assertThat(result.report().stations().get(0).duplicates()).isEqualTo(2);
        assertThat(result.report().stations().get(0).conflicts()).isZero();
        assertThat(result.report().duplicateSources())
                .containsExactly(new QualityReport.DuplicateSource(dropped.toString(), kept.toString(), 2));
    }

    @Test
    void aConflictKeepsTheRicherReadingAndIsReported() throws IOException {
        Path a = ReportExport.full(764598, 1)
                .row("3/01/2018 0:00", 100, 70.0, 50)
                .row("3/01/2018 0:05", 100, 70.0, 50)
                .writeTo(dir.resolve("a.xlsx"));
        // Higher % observed wins.
        Path b = ReportExport.full(764598, 1)
                .row("3/01/2018 0:00", 110, 70.0, 100)
                .writeTo(dir.resolve("b.xlsx"));
        // Same % observed: the first one seen stays.
        Path c =
                ReportExport.full(764598, 1).row("3/01/2018 0:05", 90, 70.0, 50).writeTo(dir.resolve("c.xlsx"));
        // Flow and speed beat flow only, whatever the % observed.
        Path d = ReportExport.flowOnly(764598, 1)
                .row("3/01/2018 0:05", 80, null, 100)
                .writeTo(dir.resolve("d.xlsx"));

        PemsImporter.Result result = importFrom(dir);

        assertThat(result.readings())
                .extracting(Reading::flow, Reading::pctObserved)
                .containsExactly(tuple(110.0, 100.0), tuple(100.0, 50.0));
        assertThat(result.report().stations().get(0).conflicts()).isEqualTo(3);
        assertThat(result.report().conflictCount()).isEqualTo(3);
        assertThat(result.report().conflictExamples())
                .containsExactly(
                        "764598 at 2018-03-01 00:00-08:00: kept " + b
                                + ":2 (flow 110, speed 70, observed 100%, lanes 1)" + " over " + a
                                + ":2 (flow 100, speed 70, observed 50%, lanes 1)",
                        "764598 at 2018-03-01 00:05-08:00: kept " + a + ":3 (flow 100, speed 70, observed 50%, lanes 1)"
                                + " over " + c + ":2 (flow 90, speed 70, observed 50%, lanes 1)",
                        "764598 at 2018-03-01 00:05-08:00: kept " + a + ":3 (flow 100, speed 70, observed 50%, lanes 1)"
                                + " over " + d + ":2 (flow 80, speed -, observed 100%, lanes 1)");
    }

    @Test
    void flowOnlyReadingsFillTheIntervalsTheFullExportsLack() throws IOException {
        ReportExport full = ReportExport.full(717731, 4);
        ReportExport flowOnly = ReportExport.flowOnly(717731, 1, 2, 3, 4);
        for (int minute = 0; minute <= 25; minute += 5) {
            double flow = 400 + minute;
            if (minute <= 10) {
                full.row("3/08/2018 7:" + String.format("%02d", minute), flow, 60.0, 0);
            }
            flowOnly.row("3/08/2018 7:" + String.format("%02d", minute), flow, null, 0);
        }
        // The flow-only file is read first here; the full export still wins where it has the interval.
        flowOnly.writeTo(dir.resolve("a-flow-only.xlsx"));
        full.writeTo(dir.resolve("b-full.xlsx"));

        PemsImporter.Result result = importFrom(dir);

        assertThat(result.readings())
                .extracting(Reading::source, Reading::speed)
                .containsExactly(
                        tuple(Reading.SOURCE_REPORT, 60.0), tuple(Reading.SOURCE_REPORT, 60.0),
                        tuple(Reading.SOURCE_REPORT, 60.0), tuple(Reading.SOURCE_REPORT_FLOW_ONLY, null),
                        tuple(Reading.SOURCE_REPORT_FLOW_ONLY, null), tuple(Reading.SOURCE_REPORT_FLOW_ONLY, null));
        StationQuality station = result.report().stations().get(0);
        assertThat(station.duplicates()).isEqualTo(3);
        assertThat(station.conflicts()).isZero();
        assertThat(station.filledFromFlowOnly()).isEqualTo(3);
        assertThat(station.unknownSpeed()).isEqualTo(3);
    }

    @Test
    void theQualityFiguresDescribeGapsAndObservedShares() throws IOException {
        Path file = ReportExport.full(774614, 3)
                .row("3/01/2018 0:00", 100, 70.0, 0)
                .row("3/01/2018 0:05", 100, 70.0, 100)
                .row("3/01/2018 0:20", 100, 70.0, 50)
                .row("3/01/2018 0:25", 100, 70.0, 0)
                .row("3/01/2018 1:00", 100, 70.0, 100)
                .writeTo(dir.resolve("athens.xlsx"));

        StationQuality station = importFrom(file).report().stations().get(0);

        assertThat(station.name()).isEqualTo("Athens");
        assertThat(station.rows()).isEqualTo(5);
        assertThat(station.first()).hasToString("2018-03-01T00:00-08:00");
        assertThat(station.last()).hasToString("2018-03-01T01:00-08:00");
        assertThat(station.expected()).isEqualTo(13);
        assertThat(station.missing()).isEqualTo(8);
        assertThat(station.gaps())
                .extracting(gap -> gap.firstMissing().toString(), StationQuality.Gap::intervals)
                .containsExactly(tuple("2018-03-01T00:10-08:00", 2L), tuple("2018-03-01T00:30-08:00", 6L));
        assertThat(station.longestGap()).isEqualTo(6);
        assertThat(station.imputedPct()).isEqualTo(40.0);
        assertThat(station.meanPctObserved()).isEqualTo(50.0);
    }

    @Test
    void theReportIsPrintedAsATableAndWrittenAsMarkdownAndCsvNextToTheTable() throws IOException {
        Path file = ReportExport.full(774614, 3)
                .row("3/01/2018 0:00", 100, 70.0, 0)
                .row("3/01/2018 0:15", 100, 70.0, 100)
                .writeTo(dir.resolve("athens.xlsx"));
        QualityReport report = importFrom(file).report();

        List<String> table = report.toTextTable().lines().toList();
        assertThat(table).hasSize(2);
        assertThat(table.get(0)).startsWith("station  name    rows  first (Pacific)   last (Pacific)    expected");
        assertThat(table.get(1))
                .startsWith(" 774614  Athens     2  2018-03-01 00:00  2018-03-01 00:15         4"
                        + "        2     1          10m");
        assertThat(table.get(0).indexOf("skipped") + "skipped".length())
                .isEqualTo(table.get(1).length());

        List<Path> written = report.writeNextTo(dir.resolve("out/readings.csv.gz"));
        assertThat(written)
                .containsExactly(dir.resolve("out/readings.quality.md"), dir.resolve("out/readings.quality.csv"));
        assertThat(Files.readString(written.get(0)))
                .contains(
                        "# Import quality report",
                        "| 774614 | Athens | 2 | 2018-03-01 00:00 | 2018-03-01 00:15 | 4 | 2 | 1 | 10m |",
                        "- 774614: 2018-03-01 00:05-08:00 .. 2018-03-01 00:10-08:00 (2 intervals, 10m)");
        assertThat(Files.readAllLines(written.get(1)))
                .containsExactly(
                        "station_id,name,rows,first_local,last_local,expected_intervals,missing_intervals,gaps,"
                                + "longest_gap_intervals,duplicates_dropped,conflicts,filled_from_flow_only,unknown_speed,"
                                + "imputed_pct,mean_pct_observed,skipped_rows",
                        "774614,Athens,2,2018-03-01T00:00:00-08:00,2018-03-01T00:15:00-08:00,4,2,1,2,0,0,0,0,50.0,50.0,0");
    }

    @Test
    void durationsReadLikeTime() {
        assertThat(QualityReport.duration(0)).isEqualTo("-");
        assertThat(QualityReport.duration(5)).isEqualTo("25m");
        assertThat(QualityReport.duration(13)).isEqualTo("1h05m");
        assertThat(QualityReport.duration(2004)).isEqualTo("6d23h00m");
    }

    @Test
    void aMissingSpeedContradictsNothing() {
        Instant ts = Instant.parse("2018-03-01T08:00:00Z");
        Reading full = new Reading(1, ts, 10, 60.0, 0.0, 4, Reading.SOURCE_REPORT);
        assertThat(ReadingMerger.sameMeasurement(
                        full, new Reading(1, ts, 10, null, 0.0, 4, Reading.SOURCE_REPORT_FLOW_ONLY)))
                .isTrue();
        assertThat(ReadingMerger.sameMeasurement(full, new Reading(1, ts, 10, 61.0, 0.0, 4, Reading.SOURCE_REPORT)))
                .isFalse();
        assertThat(ReadingMerger.sameMeasurement(full, new Reading(1, ts, 10, 60.0, null, 4, Reading.SOURCE_REPORT)))
                .isFalse();
        assertThat(ReadingMerger.sameMeasurement(full, new Reading(1, ts, 10, 60.0, 0.0, 3, Reading.SOURCE_REPORT)))
                .isFalse();
    }
}
