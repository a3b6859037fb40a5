package org.itsrt.readings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CanonicalTableTest {

    private static final String HEADER = "station_id,ts_utc,ts_local,flow,speed,pct_observed,lanes,source\n";

    @TempDir
    Path dir;

    @Test
    void writesTheDocumentedFormat() throws IOException {
        Path file = dir.resolve("t.csv");
        CanonicalTable.write(
                file,
                List.of(
                        new Reading(
                                764598,
                                Instant.parse("2018-03-11T10:00:00Z"),
                                137,
                                71.4,
                                100.0,
                                5,
                                Reading.SOURCE_REPORT),
                        new Reading(
                                717731,
                                Instant.parse("2018-03-08T08:00:00Z"),
                                185,
                                null,
                                0.0,
                                4,
                                Reading.SOURCE_REPORT_FLOW_ONLY),
                        new Reading(
                                764598,
                                Instant.parse("2018-03-11T09:55:00Z"),
                                120.5,
                                68.0,
                                null,
                                5,
                                Reading.syntheticSource(-7))));

        assertThat(Files.readString(file))
                .isEqualTo(HEADER
                        + "717731,2018-03-08T08:00:00Z,2018-03-08T00:00:00-08:00,185,,0,4,pems-report-flow-only\n"
                        + "764598,2018-03-11T09:55:00Z,2018-03-11T01:55:00-08:00,120.5,68,,5,synthetic:seed=-7\n"
                        + "764598,2018-03-11T10:00:00Z,2018-03-11T03:00:00-07:00,137,71.4,100,5,pems-report\n");
    }

    @Test
    void gzipIsChosenByTheFileName() throws IOException {
        List<Reading> readings = List.of(reading(764598, "2018-03-01T08:00:00Z", 137));
        Path file = dir.resolve("t.csv.gz");
        CanonicalTable.write(file, readings);

        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).startsWith(HEADER);
        }
        assertThat(CanonicalTable.read(file)).isEqualTo(readings);
    }

    @Property(tries = 50)
    void readGivesBackWhatWasWritten(@ForAll("tables") List<Reading> readings) throws IOException {
        Path file = Files.createTempFile("round-trip", ".csv");
        try {
            CanonicalTable.write(file, readings);
            List<Reading> expected = new ArrayList<>(readings);
            expected.sort(CanonicalTable.ORDER);
            assertThat(CanonicalTable.read(file)).isEqualTo(expected);
        } finally {
            Files.delete(file);
        }
    }

    @Provide
    Arbitrary<List<Reading>> tables() {
        Arbitrary<Reading> reading = Combinators.combine(
                        Arbitraries.of(716847L, 717731L, 764598L),
                        Arbitraries.longs().between(0, 200_000).map(i -> Instant.parse("2018-01-01T00:00:00Z")
                                .plus(Reading.INTERVAL.multipliedBy(i))),
                        Arbitraries.integers().between(0, 99_999).map(tenths -> tenths / 10.0),
                        Arbitraries.integers()
                                .between(0, 900)
                                .map(tenths -> tenths / 10.0)
                                .injectNull(0.3),
                        Arbitraries.integers()
                                .between(0, 1000)
                                .map(tenths -> tenths / 10.0)
                                .injectNull(0.3),
                        Arbitraries.integers().between(1, 8),
                        Arbitraries.of(Reading.SOURCE_REPORT, Reading.SOURCE_CLEARINGHOUSE, Reading.syntheticSource(3)))
                .as(Reading::new);
        return reading.list().ofMaxSize(40).uniqueElements(r -> List.of(r.stationId(), r.tsUtc()));
    }

    @Test
    void writingRefusesTwoReadingsOfOneInterval() {
        Reading reading = reading(764598, "2018-03-01T08:00:00Z", 137);
        assertThatThrownBy(() -> CanonicalTable.write(dir.resolve("t.csv"), List.of(reading, reading)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("764598");
    }

    @Test
    void writingRefusesOtherFileNames() {
        assertThatThrownBy(() -> CanonicalTable.write(dir.resolve("t.txt"), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void acceptsQuotedCells() throws IOException {
        Path file = write(HEADER + "\"764598\",2018-03-01T08:00:00Z,2018-03-01T00:00:00-08:00,137,\"71.4\",,5,"
                + "\"pems-report\"\n");
        assertThat(CanonicalTable.read(file))
                .containsExactly(new Reading(
                        764598, Instant.parse("2018-03-01T08:00:00Z"), 137, 71.4, null, 5, Reading.SOURCE_REPORT));
    }

    @Test
    void rejectsAWrongHeaderNamingTheColumn() throws IOException {
        Path file = write("station_id,ts_utc,ts_local,flow,speed,pct,lanes,source\n");
        assertThatThrownBy(() -> CanonicalTable.read(file))
                .isInstanceOf(BadInputException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("line 1")
                .hasMessageContaining("#6 ('pct_observed')");
    }

    @Test
    void rejectsAnEmptyFile() throws IOException {
        Path file = write("");
        assertThatThrownBy(() -> CanonicalTable.read(file))
                .isInstanceOf(BadInputException.class)
                .hasMessageContaining("empty file");
    }

    @ParameterizedTest(name = "{1}: {0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "abc,2018-03-01T08:00:00Z,2018-03-01T00:00:00-08:00,137,71.4,100,5,pems-report | 'station_id' | positive integer",
                "764598,2018-03-01 08:00:00,2018-03-01T00:00:00-08:00,137,71.4,100,5,pems-report | 'ts_utc' | UTC instant",
                "764598,2018-03-01T08:01:00Z,2018-03-01T00:01:00-08:00,137,71.4,100,5,pems-report | 'ts_utc' | 5-minute",
                "764598,2018-03-01T08:00:00Z,2018-03-01T00:00:00-07:00,137,71.4,100,5,pems-report | 'ts_local' | 2018-03-01T00:00:00-08:00",
                "764598,2018-03-01T08:00:00Z,2018-03-01T00:00:00-08:00,1.37e2,71.4,100,5,pems-report | 'flow' | plain decimal",
                "764598,2018-03-01T08:00:00Z,2018-03-01T00:00:00-08:00,137,-3,100,5,pems-report | 'speed' | plain decimal",
                "764598,2018-03-01T08:00:00Z,2018-03-01T00:00:00-08:00,137,71.4,100.5,5,pems-report | 'pct_observed' | 0..100",
                "764598,2018-03-01T08:00:00Z,2018-03-01T00:00:00-08:00,137,71.4,100,0,pems-report | 'lanes' | positive integer",
                "764598,2018-03-01T08:00:00Z,2018-03-01T00:00:00-08:00,137,71.4,100,5,pems | 'source' | synthetic:seed=N",
            })
    void rejectsAMalformedCellNamingLineAndColumn(String row, String column, String expected) throws IOException {
        Path file = write(HEADER + "764598,2018-03-01T07:55:00Z,2018-02-28T23:55:00-08:00,130,70,100,5,pems-report\n"
                + row + "\n");
        assertThatThrownBy(() -> CanonicalTable.read(file))
                .isInstanceOf(BadInputException.class)
                .hasMessageStartingWith(file + ", line 3, column " + column + ": ")
                .hasMessageContaining(expected);
    }

    @Test
    void rejectsARowWithTooFewColumns() throws IOException {
        Path file = write(HEADER + "764598,2018-03-01T08:00:00Z,2018-03-01T00:00:00-08:00,137,71.4,100,5\n");
        assertThatThrownBy(() -> CanonicalTable.read(file))
                .isInstanceOf(BadInputException.class)
                .hasMessageContaining("line 2")
                .hasMessageContaining("expected 8 columns, got 7");
    }

    @Test
    void rejectsRowsOutOfOrderAndRepeatedKeys() throws IOException {
        String first = "764598,2018-03-01T08:05:00Z,2018-03-01T00:05:00-08:00,137,71.4,100,5,pems-report\n";
        Path earlier = write(
                HEADER + first + "764598,2018-03-01T08:00:00Z,2018-03-01T00:00:00-08:00,137,71.4,100,5,pems-report\n");
        assertThatThrownBy(() -> CanonicalTable.read(earlier))
                .isInstanceOf(BadInputException.class)
                .hasMessageContaining("line 3")
                .hasMessageContaining("out of order");

        Path repeated = write(HEADER + first + first);
        assertThatThrownBy(() -> CanonicalTable.read(repeated))
                .isInstanceOf(BadInputException.class)
                .hasMessageContaining("line 3")
                .hasMessageContaining("repeats line 2");
    }

    private Path write(String content) throws IOException {
        Path file = Files.createTempFile(dir, "table", ".csv");
        Files.writeString(file, content);
        return file;
    }

    private static Reading reading(long station, String tsUtc, double flow) {
        return new Reading(station, Instant.parse(tsUtc), flow, 70.0, 100.0, 5, Reading.SOURCE_REPORT);
    }
}
