package org.itsrt.readings.pems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;
import org.itsrt.readings.StudyStation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The importer on the study's own files (March 2018, six District 7 stations), checked against
 * what the files say when read by another route: the sheet XML inside the workbooks.
 */
class StudyDataImportTest {

    private static Path data;
    private static PemsImporter.Result result;

    @BeforeAll
    static void importTheStudyFiles() throws IOException {
        String shared = System.getProperty("itsrt.shared.data");
        data = shared == null ? null : Path.of(shared, "pems-2018-03-d07");
        assumeTrue(
                data != null && Files.isDirectory(data),
                "the study's PeMS files are not at " + data + " (system property itsrt.shared.data); skipped");
        result = new PemsImporter(PemsImporter.Options.strict(), line -> {}).importFrom(List.of(data));
    }

    @Test
    void everyStationHasAFullMarchWithoutGaps() {
        assertThat(result.report().stations())
                .extracting(StationQuality::stationId)
                .containsExactlyInAnyOrder(764598L, 717731L, 774445L, 774614L, 718155L, 716847L);
        for (StationQuality station : result.report().stations()) {
            assertThat(station.rows()).as("rows of %d", station.stationId()).isEqualTo(8916);
            assertThat(station.first().toInstant()).isEqualTo(Instant.parse("2018-03-01T08:00:00Z"));
            assertThat(station.last().toInstant()).isEqualTo(Instant.parse("2018-04-01T06:55:00Z"));
            assertThat(station.missing()).isZero();
            assertThat(station.conflicts()).isZero();
        }
        assertThat(result.readings()).hasSize(6 * 8916);
        assertThat(result.report().problems().skippedRows()).isZero();
        assertThat(result.report().unrecognised()).isEmpty();
    }

    @Test
    void laneCountsMatchTheStudyStations() {
        for (StudyStation station : StudyStation.values()) {
            assertThat(result.readings())
                    .filteredOn(r -> r.stationId() == station.vdsId())
                    .extracting(Reading::lanes)
                    .as(station.displayName())
                    .containsOnly(station.lanes());
        }
    }

    @Test
    void wilmingtonsMissingWeekIsFilledFromTheFlowOnlyExports() {
        List<Reading> wilmington =
                result.readings().stream().filter(r -> r.stationId() == 717731).toList();
        List<Reading> missingWeek =
                wilmington.stream().filter(StudyDataImportTest::inMarch8To14).toList();

        // 3/08-3/14 is seven days less the spring DST hour.
        assertThat(missingWeek).hasSize(7 * 288 - 12).allSatisfy(r -> {
            assertThat(r.source()).isEqualTo(Reading.SOURCE_REPORT_FLOW_ONLY);
            assertThat(r.speed()).isNull();
        });
        assertThat(wilmington).filteredOn(r -> !inMarch8To14(r)).allSatisfy(r -> {
            assertThat(r.source()).isEqualTo(Reading.SOURCE_REPORT);
            assertThat(r.speed()).isNotNull();
        });
        StationQuality quality = station(717731);
        assertThat(quality.filledFromFlowOnly()).isEqualTo(2004);
        assertThat(quality.unknownSpeed()).isEqualTo(2004);
        assertThat(quality.imputedPct()).isEqualTo(100.0);
    }

    @Test
    void theDuplicatedExportIsCounted() {
        // pems_output_2.xlsx repeats pems_output_1.xlsx (3/15-3/21) row for row.
        assertThat(result.report().duplicateSources())
                .contains(new QualityReport.DuplicateSource(
                        data.resolve("wilmington/pems_output_2.xlsx").toString(),
                        data.resolve("wilmington/pems_output_1.xlsx").toString(),
                        2016));
        // Also dropped as duplicates: the flow-only rows a full export has (they agree on flow)
        // and the 1-hour overlaps of the flow-only windows: 2016 + 6768 + 4 * 12.
        assertThat(station(717731).duplicates()).isEqualTo(2016 + 6768 + 48);
        assertThat(result.report().stations())
                .filteredOn(s -> s.stationId() != 717731)
                .allSatisfy(s -> assertThat(s.duplicates()).isZero());
    }

    @Test
    void theSpringDstHourIsAbsentAndThreeOClockFollowsFiveToTwo() {
        assertThat(result.readings())
                .noneMatch(r -> r.tsLocal().toLocalDate().equals(LocalDate.of(2018, 3, 11))
                        && r.tsLocal().getHour() == 2);
        for (StudyStation station : StudyStation.values()) {
            List<Reading> around = result.readings().stream()
                    .filter(r -> r.stationId() == station.vdsId())
                    .filter(r -> !r.tsUtc().isBefore(Instant.parse("2018-03-11T09:55:00Z"))
                            && !r.tsUtc().isAfter(Instant.parse("2018-03-11T10:00:00Z")))
                    .toList();
            assertThat(around)
                    .extracting(r -> r.tsLocal().toString())
                    .containsExactly("2018-03-11T01:55-08:00", "2018-03-11T03:00-07:00");
        }
    }

    @Test
    void aHandCheckedValue() {
        // el_segundo/pems_output_0.xlsx, sheet Report Data, row 2: 3/01/2018 0:00, Flow (L2) 137.0,
        // Speed (M2) 71.4, % Observed (O2) 100.0.
        assertThat(reading(764598, "2018-03-01T08:00:00Z"))
                .isEqualTo(new Reading(
                        764598, Instant.parse("2018-03-01T08:00:00Z"), 137, 71.4, 100.0, 5, Reading.SOURCE_REPORT));
    }

    @Test
    void spotValuesAgreeWithTheSheetXml() throws IOException {
        expectSheetRow("el_segundo/pems_output_1.xlsx", "3/11/2018 1:55", reading(764598, "2018-03-11T09:55:00Z"));
        expectSheetRow("el_segundo/pems_output_1.xlsx", "3/11/2018 3:00", reading(764598, "2018-03-11T10:00:00Z"));
        expectSheetRow("athens/pems_output_3.xlsx", "3/24/2018 6:15", reading(774614, "2018-03-24T13:15:00Z"));
        expectSheetRow(
                "east_rancho_dominguez/pems_output_4.xlsx", "3/31/2018 23:55", reading(716847, "2018-04-01T06:55:00Z"));
        expectSheetRow(
                "wilmington-flow-only/pems_output_1.xlsx", "3/10/2018 12:00", reading(717731, "2018-03-10T20:00:00Z"));
    }

    @Test
    void theImportedTableSurvivesAWriteAndARead(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("pems-2018-03.csv.gz");
        CanonicalTable.write(file, result.readings());
        assertThat(CanonicalTable.read(file)).isEqualTo(result.readings());
    }

    private static boolean inMarch8To14(Reading reading) {
        LocalDate day = reading.tsLocal().toLocalDate();
        return !day.isBefore(LocalDate.of(2018, 3, 8)) && !day.isAfter(LocalDate.of(2018, 3, 14));
    }

    private static StationQuality station(long id) {
        return result.report().stations().stream()
                .filter(s -> s.stationId() == id)
                .findFirst()
                .orElseThrow();
    }

    private static Reading reading(long station, String tsUtc) {
        Instant ts = Instant.parse(tsUtc);
        return result.readings().stream()
                .filter(r -> r.stationId() == station && r.tsUtc().equals(ts))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no reading of " + station + " at " + ts));
    }

    /**
     * Finds the row with the given "5 Minutes" text in the workbook's first sheet XML and checks
     * the reading against its Flow, Speed and % Observed cells.
     */
    private static void expectSheetRow(String workbook, String time, Reading reading) throws IOException {
        String xml;
        try (ZipFile zip = new ZipFile(data.resolve(workbook).toFile())) {
            xml = new String(
                    zip.getInputStream(zip.getEntry("xl/worksheets/sheet1.xml")).readAllBytes(),
                    StandardCharsets.UTF_8);
        }
        Matcher rows = Pattern.compile("<row [^>]*>(.*?)</row>").matcher(xml);
        assertThat(rows.find()).isTrue();
        Map<String, String> columnOf = new HashMap<>();
        cells(rows.group(1)).forEach((column, name) -> columnOf.put(name, column));
        assertThat(columnOf).containsKey("5 Minutes");
        while (rows.find()) {
            Map<String, String> cells = cells(rows.group(1));
            if (time.equals(cells.get(columnOf.get("5 Minutes")))) {
                assertThat(reading.flow())
                        .as(workbook + " " + time + " flow")
                        .isEqualTo(Double.parseDouble(cells.get(columnOf.get("Flow (Veh/5 Minutes)"))));
                assertThat(reading.pctObserved())
                        .as(workbook + " " + time + " % observed")
                        .isEqualTo(Double.parseDouble(cells.get(columnOf.get("% Observed"))));
                if (columnOf.containsKey("Speed (mph)")) {
                    assertThat(reading.speed())
                            .as(workbook + " " + time + " speed")
                            .isEqualTo(Double.parseDouble(cells.get(columnOf.get("Speed (mph)"))));
                } else {
                    assertThat(reading.speed()).isNull();
                }
                return;
            }
        }
        throw new AssertionError("no row " + time + " in " + workbook);
    }

    /** Column letter to cell text, for inline strings and numbers. */
    private static Map<String, String> cells(String rowXml) {
        Map<String, String> cells = new HashMap<>();
        Matcher cell = Pattern.compile("<c r=\"([A-Z]+)\\d+\"[^>]*>(?:<is><t>(.*?)</t></is>|<v>(.*?)</v>)")
                .matcher(rowXml);
        while (cell.find()) {
            cells.put(cell.group(1), cell.group(2) != null ? cell.group(2) : cell.group(3));
        }
        return cells;
    }
}
