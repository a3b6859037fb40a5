package org.itsrt.readings.pems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dhatim.fastexcel.Workbook;
import org.itsrt.readings.BadInputException;
import org.itsrt.readings.Reading;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Report exports (.xlsx) through the importer: both variants, bad cells, DST days. */
class ReportExportImportTest {

    private static final PemsImporter.Options LENIENT = new PemsImporter.Options(Set.of(), null, true);

    @TempDir
    Path dir;

    private final List<String> progress = new ArrayList<>();

    private PemsImporter.Result importFrom(PemsImporter.Options options, Path... inputs) throws IOException {
        return new PemsImporter(options, progress::add).importFrom(List.of(inputs));
    }

    @Test
    void aFullExportGivesFlowSpeedAndObservedShareInUtc() throws IOException {
        Path file = ReportExport.full(764598, 5)
                .row("3/01/2018 0:00", 137, 71.4, 100)
                .row("3/01/2018 0:05", 142, 70.9, 80)
                .writeTo(dir.resolve("pems_output_0.xlsx"));

        PemsImporter.Result result = importFrom(PemsImporter.Options.strict(), file);

        assertThat(result.readings())
                .containsExactly(
                        new Reading(
                                764598,
                                Instant.parse("2018-03-01T08:00:00Z"),
                                137,
                                71.4,
                                100.0,
                                5,
                                Reading.SOURCE_REPORT),
                        new Reading(
                                764598,
                                Instant.parse("2018-03-01T08:05:00Z"),
                                142,
                                70.9,
                                80.0,
                                5,
                                Reading.SOURCE_REPORT));
        assertThat(progress)
                .singleElement()
                .asString()
                .contains(file.toString(), "station 764598", "2 readings", "2018-03-01 00:00-08:00");
    }

    @Test
    void columnsAreFoundByNameInAnyOrder() throws IOException {
        Path file = ReportExport.full(764598, 2)
                .header(
                        "% Observed",
                        "Speed (mph)",
                        "5 Minutes",
                        "Lane 2 Flow (Veh/5 Minutes)",
                        "Lane 1 Flow (Veh/5 Minutes)",
                        "Lane 1 Speed (mph)",
                        "Flow (Veh/5 Minutes)",
                        "Lane 1 Occ (%)")
                .rawRow(50.0, 65.5, "3/01/2018 0:00", 60.0, 70.0, 66.0, 130.0, 4.2)
                .writeTo(dir.resolve("shuffled.xlsx"));

        assertThat(importFrom(PemsImporter.Options.strict(), file).readings())
                .containsExactly(new Reading(
                        764598, Instant.parse("2018-03-01T08:00:00Z"), 130, 65.5, 50.0, 2, Reading.SOURCE_REPORT));
    }

    @Test
    void aFlowOnlyExportHasNoSpeedAndCountsLanesUpToTheHighestNumber() throws IOException {
        // Real flow-only exports of Wilmington list lanes 1, 3 and 4 of its four lanes.
        Path file = ReportExport.flowOnly(717731, 1, 3, 4)
                .row("3/08/2018 0:00", 185, null, 0)
                .writeTo(dir.resolve("flow-only.xlsx"));

        assertThat(importFrom(PemsImporter.Options.strict(), file).readings())
                .containsExactly(new Reading(
                        717731,
                        Instant.parse("2018-03-08T08:00:00Z"),
                        185,
                        null,
                        0.0,
                        4,
                        Reading.SOURCE_REPORT_FLOW_ONLY));
    }

    @Test
    void aMalformedCellFailsAStrictImportNamingFileRowAndColumn() throws IOException {
        Path file = ReportExport.full(764598, 3)
                .row("3/01/2018 0:00", 120, 70.0, 100)
                .rawRow("3/01/2018 0:05", 40.0, 70.0, 40.0, 70.0, 40.0, 70.0, 120.0, "n/a", 3, 100.0)
                .writeTo(dir.resolve("bad.xlsx"));

        assertThatThrownBy(() -> importFrom(PemsImporter.Options.strict(), file))
                .isInstanceOf(BadInputException.class)
                .hasMessage(file + ", sheet 'Report Data' row 3, column 'Speed (mph)' (I3): "
                        + "expected a number, got text 'n/a'");
    }

    @Test
    void aLenientImportSkipsBadRowsAndCountsThemByReason() throws IOException {
        Path file = ReportExport.full(764598, 3)
                .row("3/11/2018 1:55", 120, 70.0, 100)
                .rawRow("3/11/2018 2:00", 40.0, 70.0, 40.0, 70.0, 40.0, 70.0, 120.0, 70.0, 3, 100.0)
                .rawRow("3/11/2018 3:00", 40.0, 70.0, 40.0, 70.0, 40.0, 70.0, 120.0, "n/a", 3, 100.0)
                .rawRow("3/11/2018 3:05", 40.0, 70.0, 40.0, 70.0, 40.0, 70.0, -1.0, 70.0, 3, 100.0)
                .rawRow("3/11/18 3:10", 40.0, 70.0, 40.0, 70.0, 40.0, 70.0, 120.0, 70.0, 3, 100.0)
                .rawRow("3/11/2018 3:15", 40.0, 70.0, 40.0, 70.0, 40.0, 70.0, 120.0, 70.0, 3, 101.0)
                .row("3/11/2018 3:20", 125, 69.0, 100)
                .writeTo(dir.resolve("bad.xlsx"));

        PemsImporter.Result result = importFrom(LENIENT, file);

        assertThat(result.readings())
                .extracting(Reading::tsUtc)
                .containsExactly(Instant.parse("2018-03-11T09:55:00Z"), Instant.parse("2018-03-11T10:20:00Z"));
        InputProblems problems = result.report().problems();
        assertThat(problems.skippedRows()).isEqualTo(5);
        assertThat(problems.skippedByReason())
                .isEqualTo(Map.of(
                        "time in the DST gap",
                        1,
                        "not a number",
                        1,
                        "negative",
                        1,
                        "bad timestamp",
                        1,
                        "out of range",
                        1));
        assertThat(problems.examples())
                .extracting(InputProblems.SkippedRow::describe)
                .containsExactly(
                        file + ":3 '5 Minutes' (A3): local time 2018-03-11T02:00 does not exist in America/Los_Angeles "
                                + "(clocks jump from 02:00 to 03:00 on 2018-03-11)",
                        file + ":4 'Speed (mph)' (I4): expected a number, got text 'n/a'",
                        file + ":5 'Flow (Veh/5 Minutes)' (H5): expected a number >= 0, got -1.0",
                        file + ":6 '5 Minutes' (A6): expected a timestamp like 3/01/2018 0:05, got '3/11/18 3:10'",
                        file + ":7 '% Observed' (K7): expected a share in 0..100, got 101.0");
        StationQuality station = result.report().stations().get(0);
        assertThat(station.skipped()).isEqualTo(5);
        assertThat(station.gaps()).extracting(StationQuality.Gap::intervals).containsExactly(4L);
        assertThat(result.report().toMarkdown())
                .contains(
                        "## Skipped rows (5)",
                        "| time in the DST gap | 1 |",
                        "- " + file + ":4 'Speed (mph)' (I4): expected a number, got text 'n/a'");
    }

    @Test
    void anEmptyFlowCellIsSkippedAndCountedEvenInAStrictImport() throws IOException {
        Path file = ReportExport.full(764598, 1)
                .rawRow("3/01/2018 0:00", null, null, null, null, 1, 0.0)
                .row("3/01/2018 0:05", 50, 66.0, 100)
                .writeTo(dir.resolve("empty-flow.xlsx"));

        PemsImporter.Result result = importFrom(PemsImporter.Options.strict(), file);

        assertThat(result.readings()).hasSize(1);
        assertThat(result.report().problems().skippedByReason()).isEqualTo(Map.of("no flow", 1));
    }

    @Test
    void aMissingColumnOrReportLinkMakesTheFileUnreadable() throws IOException {
        Path noFlow = ReportExport.full(764598, 1)
                .header("5 Minutes", "Lane 1 Flow (Veh/5 Minutes)", "Speed (mph)", "% Observed")
                .writeTo(dir.resolve("a/no-flow.xlsx"));
        assertThatThrownBy(() -> importFrom(PemsImporter.Options.strict(), noFlow))
                .isInstanceOf(BadInputException.class)
                .hasMessageStartingWith(noFlow + ", sheet 'Report Data' row 1: no 'Flow (Veh/5 Minutes)' column");

        Path noLink = ReportExport.full(764598, 1)
                .reportLink(null)
                .row("3/01/2018 0:00", 50, 66.0, 100)
                .writeTo(dir.resolve("a/no-link.xlsx"));
        assertThatThrownBy(() -> importFrom(PemsImporter.Options.strict(), noLink))
                .hasMessage(noLink + ", sheet 'PeMS Report Description': no 'Report link' row, so no station id");

        Path laneSpeedsOnly = ReportExport.full(764598, 1)
                .header(
                        "5 Minutes",
                        "Lane 1 Flow (Veh/5 Minutes)",
                        "Lane 1 Speed (mph)",
                        "Flow (Veh/5 Minutes)",
                        "% Observed")
                .writeTo(dir.resolve("a/lane-speeds-only.xlsx"));
        assertThatThrownBy(() -> importFrom(PemsImporter.Options.strict(), laneSpeedsOnly))
                .hasMessageContaining("lane speed columns but no 'Speed (mph)' column");

        PemsImporter.Result lenient = importFrom(LENIENT, dir.resolve("a"));
        assertThat(lenient.readings()).isEmpty();
        assertThat(lenient.report().problems().skippedFiles())
                .extracting(InputProblems.SkippedFile::file)
                .containsExactly(laneSpeedsOnly.toString(), noFlow.toString(), noLink.toString());
    }

    @Test
    void theStationIdIsTheReportLinksParameter() {
        assertThat(ReportExportReader.stationIdFromLink(
                        "http://pems.dot.ca.gov/?report_form=1&dnode=VDS&station_id=764598&s_time_id=1519862400"))
                .contains(764598L);
        assertThat(ReportExportReader.stationIdFromLink("http://pems.dot.ca.gov/?dnode=VDS"))
                .isEmpty();
        assertThat(ReportExportReader.stationIdFromLink("http://pems.dot.ca.gov/?station_id=abc"))
                .isEmpty();
    }

    @Test
    void onTheSpringDstDayThreeOClockFollowsFiveToTwo() throws IOException {
        Path file = ReportExport.full(764598, 1)
                .row("3/11/2018 1:50", 40, 70.0, 100)
                .row("3/11/2018 1:55", 41, 70.0, 100)
                .row("3/11/2018 3:00", 42, 70.0, 100)
                .writeTo(dir.resolve("spring.xlsx"));

        PemsImporter.Result result = importFrom(PemsImporter.Options.strict(), file);

        assertThat(result.readings())
                .extracting(Reading::tsUtc, Reading::flow)
                .containsExactly(
                        tuple(Instant.parse("2018-03-11T09:50:00Z"), 40.0),
                        tuple(Instant.parse("2018-03-11T09:55:00Z"), 41.0),
                        tuple(Instant.parse("2018-03-11T10:00:00Z"), 42.0));
        assertThat(result.report().stations().get(0).missing()).isZero();

        Path gap = ReportExport.full(764598, 1)
                .row("3/11/2018 2:30", 40, 70.0, 100)
                .writeTo(dir.resolve("gap.xlsx"));
        assertThatThrownBy(() -> importFrom(PemsImporter.Options.strict(), gap))
                .hasMessageStartingWith(gap + ", sheet 'Report Data' row 2, column '5 Minutes' (A2): "
                        + "local time 2018-03-11T02:30 does not exist");
    }

    @Test
    void onTheAutumnDstDayTheRepeatedHourBecomesTwoHours() throws IOException {
        ReportExport export = ReportExport.full(764598, 1).row("11/04/2018 0:55", 99, 70.0, 100);
        for (int pass = 1; pass <= 2; pass++) {
            for (int minute = 0; minute < 60; minute += 5) {
                export.row("11/04/2018 1:" + String.format("%02d", minute), 100 * pass + minute / 5, 70.0, 100);
            }
        }
        Path file = export.row("11/04/2018 2:00", 300, 70.0, 100).writeTo(dir.resolve("autumn.xlsx"));

        PemsImporter.Result result = importFrom(PemsImporter.Options.strict(), file);

        assertThat(result.readings()).hasSize(26);
        assertThat(result.readings().get(0).tsUtc()).isEqualTo(Instant.parse("2018-11-04T07:55:00Z"));
        assertThat(result.readings().get(1).tsLocal()).hasToString("2018-11-04T01:00-07:00");
        assertThat(result.readings().get(13).tsLocal()).hasToString("2018-11-04T01:00-08:00");
        assertThat(result.readings().get(13).tsUtc()).isEqualTo(Instant.parse("2018-11-04T09:00:00Z"));
        assertThat(result.readings().get(13).flow()).isEqualTo(200);
        assertThat(result.readings().get(25).tsUtc()).isEqualTo(Instant.parse("2018-11-04T10:00:00Z"));
        StationQuality station = result.report().stations().get(0);
        assertThat(station.expected()).isEqualTo(26);
        assertThat(station.duplicates()).isZero();
    }

    @Test
    void aWorkbookThatIsNoReportExportIsListedNotRead() throws IOException {
        Path other = dir.resolve("in/budget.xlsx");
        Files.createDirectories(other.getParent());
        try (OutputStream out = Files.newOutputStream(other)) {
            Workbook workbook = new Workbook(out, "its-rt-tests", "1.0");
            workbook.newWorksheet("Sheet1").inlineString(0, 0, "total");
            workbook.finish();
        }
        ReportExport.full(764598, 1).row("3/01/2018 0:00", 40, 70.0, 100).writeTo(dir.resolve("in/pems.xlsx"));

        PemsImporter.Result result = importFrom(PemsImporter.Options.strict(), dir.resolve("in"));

        assertThat(result.readings()).hasSize(1);
        assertThat(result.report().unrecognised())
                .extracting(QualityReport.UnrecognisedFile::file)
                .containsExactly(other.toString());
        assertThat(progress).anySatisfy(line -> assertThat(line).startsWith("not recognised: " + other));
        assertThatThrownBy(() -> importFrom(PemsImporter.Options.strict(), other))
                .isInstanceOf(BadInputException.class)
                .hasMessageContaining("a workbook without the sheets 'Report Data' and 'PeMS Report Description'");
    }
}
