package org.itsrt.readings.pems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.itsrt.readings.BadInputException;
import org.itsrt.readings.Reading;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Clearinghouse station and metadata files through the importer. */
class ClearinghouseImportTest {

    private static final String SPRING = "d07_text_station_5min_2018_03_11.txt";
    private static final String AUTUMN = "d07_text_station_5min_2018_11_04.txt.gz";
    private static final String META = "d07_text_meta_2018_03_11.txt";

    @TempDir
    Path dir;

    private final List<String> progress = new ArrayList<>();

    private static Path fixture(String name) throws URISyntaxException {
        return StationMetaReaderTest.fixture(name);
    }

    private PemsImporter.Result importFrom(PemsImporter.Options options, Path... inputs) throws IOException {
        return new PemsImporter(options, progress::add).importFrom(List.of(inputs));
    }

    @Test
    void readsTheSpringDstDayOfADistrictFile() throws Exception {
        PemsImporter.Result result = importFrom(PemsImporter.Options.strict(), fixture(SPRING));

        assertThat(result.readings())
                .filteredOn(r -> r.stationId() == 764598)
                .extracting(Reading::tsUtc, Reading::flow, Reading::speed, Reading::pctObserved, Reading::lanes)
                .containsExactly(
                        tuple(Instant.parse("2018-03-11T09:45:00Z"), 150.0, 68.0, 100.0, 5),
                        tuple(Instant.parse("2018-03-11T09:50:00Z"), 157.0, 68.3, 100.0, 5),
                        tuple(Instant.parse("2018-03-11T09:55:00Z"), 164.0, 68.6, 100.0, 5),
                        tuple(Instant.parse("2018-03-11T10:00:00Z"), 171.0, 68.9, 100.0, 5),
                        // An empty Avg Speed is an unknown speed, not 0.
                        tuple(Instant.parse("2018-03-11T10:05:00Z"), 178.0, null, 100.0, 5));
        assertThat(result.readings()).allMatch(r -> r.source().equals(Reading.SOURCE_CLEARINGHOUSE));
        assertThat(result.report().stations())
                .extracting(
                        StationQuality::stationId,
                        StationQuality::rows,
                        StationQuality::missing,
                        StationQuality::skipped)
                .containsExactly(tuple(717731L, 4, 1L, 1), tuple(764598L, 5, 0L, 0), tuple(800001L, 5, 0L, 0));
        assertThat(progress).singleElement().asString().contains("3 stations", "14 readings");
    }

    @Test
    void aLineWithoutTotalFlowIsSkippedAndCountedAndLanesComeFromTheLanesWithData() throws Exception {
        PemsImporter.Result result = importFrom(PemsImporter.Options.strict(), fixture(SPRING));

        // Wilmington's lane 4 reports nothing in the fixture, so without metadata it has 3 lanes.
        assertThat(result.readings())
                .filteredOn(r -> r.stationId() == 717731)
                .extracting(Reading::lanes)
                .containsOnly(3);
        assertThat(result.report().problems().skippedByReason()).isEqualTo(Map.of("no flow", 1));
        assertThat(result.report().problems().examples())
                .extracting(InputProblems.SkippedRow::describe)
                .containsExactly(fixture(SPRING) + ":5 'Total Flow' (field 10): "
                        + "empty Total Flow: the interval has no reading");
    }

    @Test
    void metadataGivesTheLaneCounts() throws Exception {
        PemsImporter.Result result =
                importFrom(new PemsImporter.Options(Set.of(), fixture(META), false), fixture(SPRING));

        assertThat(result.readings())
                .filteredOn(r -> r.stationId() == 717731)
                .extracting(Reading::lanes)
                .containsOnly(4);
        assertThat(result.readings())
                .filteredOn(r -> r.stationId() == 800001)
                .extracting(Reading::lanes)
                .containsOnly(2);
        assertThat(result.report().notes())
                .containsExactly("station 800001 is not in the metadata; its lane count comes from its files");
    }

    @Test
    void aMetadataFileAmongTheInputsIsUsedToo() throws Exception {
        Files.copy(fixture(SPRING), dir.resolve(SPRING));
        Files.copy(fixture(META), dir.resolve(META));

        PemsImporter.Result result = importFrom(PemsImporter.Options.strict(), dir);

        assertThat(result.readings())
                .filteredOn(r -> r.stationId() == 717731)
                .extracting(Reading::lanes)
                .containsOnly(4);
        assertThat(progress).first().asString().contains(META, "4 stations");
        assertThat(result.report().unrecognised()).isEmpty();
    }

    @Test
    void theStationFilterKeepsOnlyTheStationsAskedFor() throws Exception {
        PemsImporter.Result result =
                importFrom(new PemsImporter.Options(Set.of(764598L, 111111L), null, false), fixture(SPRING));

        assertThat(result.readings()).extracting(Reading::stationId).containsOnly(764598L);
        assertThat(result.report().files()).singleElement().satisfies(file -> assertThat(file.otherStations())
                .isEqualTo(10));
        assertThat(result.report().stations())
                .extracting(StationQuality::stationId, StationQuality::rows)
                .containsExactly(tuple(111111L, 0), tuple(764598L, 5));
        assertThat(result.report().notes())
                .containsExactly("station 111111 was asked for but no input has readings of it");
    }

    @Test
    void readsTheAutumnDstDayOfAGzippedFile() throws Exception {
        PemsImporter.Result result = importFrom(PemsImporter.Options.strict(), fixture(AUTUMN));

        List<Reading> readings = result.readings();
        assertThat(readings).hasSize(26);
        assertThat(readings.get(0).tsUtc()).isEqualTo(Instant.parse("2018-11-04T07:55:00Z"));
        // 01:00-01:55 first in daylight time, then again in standard time.
        assertThat(readings.get(1))
                .extracting(Reading::tsUtc, Reading::flow)
                .containsExactly(Instant.parse("2018-11-04T08:00:00Z"), 100.0);
        assertThat(readings.get(13))
                .extracting(Reading::tsUtc, Reading::flow)
                .containsExactly(Instant.parse("2018-11-04T09:00:00Z"), 200.0);
        assertThat(readings.get(25))
                .extracting(Reading::tsUtc, Reading::flow)
                .containsExactly(Instant.parse("2018-11-04T10:00:00Z"), 300.0);
        StationQuality station = result.report().stations().get(0);
        assertThat(station.expected()).isEqualTo(26);
        assertThat(station.missing()).isZero();
        assertThat(station.duplicates()).isZero();
    }

    @Test
    void aMalformedLineFailsAStrictImportNamingLineAndField() throws Exception {
        Path file = malformedDay();

        assertThatThrownBy(() -> importFrom(PemsImporter.Options.strict(), file))
                .isInstanceOf(BadInputException.class)
                .hasMessage(file + ", line 2, column 'Total Flow' (field 10): expected a number, got '15O'");
    }

    @Test
    void aLenientImportCountsMalformedLinesByReason() throws Exception {
        Path file = malformedDay();

        PemsImporter.Result result = importFrom(new PemsImporter.Options(Set.of(), null, true), file);

        assertThat(result.readings()).hasSize(1);
        InputProblems problems = result.report().problems();
        assertThat(problems.skippedByReason())
                .isEqualTo(Map.of(
                        "not a number",
                        1,
                        "wrong field count",
                        1,
                        "bad station id",
                        1,
                        "not a 5-minute interval",
                        1,
                        "time in the DST gap",
                        1));
        assertThat(problems.examples())
                .extracting(InputProblems.SkippedRow::describe)
                .contains(
                        file + ":3: expected 12 fields plus 5 per lane, got 15",
                        file + ":4 'Station' (field 2): expected a positive integer, got 'x1'");
        // Rows whose station could be read are charged to it; the others only to the total.
        assertThat(result.report().stations().get(0).skipped()).isEqualTo(3);
        assertThat(problems.skippedRows()).isEqualTo(5);
    }

    /** A day file with one good line and a malformed line of each kind. */
    private Path malformedDay() throws IOException, URISyntaxException {
        String good = Files.readAllLines(fixture(SPRING)).get(0);
        String[] fields = good.split(",", -1);
        List<String> lines = new ArrayList<>();
        lines.add(good);
        lines.add(with(fields, 9, "15O"));
        lines.add(String.join(",", List.of(fields).subList(0, 15)));
        lines.add(with(fields, 1, "x1"));
        lines.add(with(fields, 0, "03/11/2018 03:07:00"));
        lines.add(with(fields, 0, "03/11/2018 02:30:00"));
        Path file = dir.resolve("d07_text_station_5min_2018_03_12.txt");
        Files.write(file, lines);
        return file;
    }

    private static String with(String[] fields, int index, String value) {
        String[] copy = fields.clone();
        copy[index] = value;
        return String.join(",", copy);
    }
}
