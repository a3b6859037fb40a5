package org.itsrt.routing.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.itsrt.readings.CanonicalTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class GenerateCommandTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = GenerateCommand.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @Test
    void generateWritesTheSameFileForTheSameSeed() throws IOException {
        Path first = dir.resolve("a.csv");
        Path second = dir.resolve("b.csv.gz");

        assertThat(run("--seed", "5", "--start", "2018-11-03", "--days", "2", "--out", first.toString()))
                .isZero();
        assertThat(run("--seed", "5", "--start", "2018-11-03", "--days", "2", "--out", second.toString()))
                .isZero();

        assertThat(out.toString())
                .contains("wrote 3528 synthetic readings (6 stations, 2018-11-03 .. 2018-11-04 "
                        + "Pacific, synthetic:seed=5) to " + first);
        // 288 + 300 intervals (the autumn DST day) for six stations.
        assertThat(CanonicalTable.read(first)).hasSize(6 * (288 + 300)).isEqualTo(CanonicalTable.read(second));
    }

    @Test
    void generateRefusesNoDays() {
        assertThat(run("--days", "0", "--out", dir.resolve("a.csv").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--days must be at least 1");
    }

    @Test
    void aDistrictIsWrittenCheckedAndLabelledAndTheSameTwice() throws IOException {
        Path first = dir.resolve("first");
        Path second = dir.resolve("second");

        assertThat(run(
                        "--detectors",
                        "120",
                        "--seed",
                        "6",
                        "--start",
                        "2018-03-10",
                        "--days",
                        "2",
                        "--out",
                        first.toString()))
                .as(err.toString())
                .isZero();
        assertThat(run(
                        "--detectors",
                        "120",
                        "--seed",
                        "6",
                        "--start",
                        "2018-03-10",
                        "--days",
                        "2",
                        "--out",
                        second.toString()))
                .isZero();

        assertThat(out.toString())
                .contains("wrote a synthetic district (synthetic:seed=6): 120 mainline detectors (")
                // 2018-03-11 is the spring DST day: 288 + 276 intervals.
                .contains(120 * (288 + 276) + " readings, 2018-03-10 .. 2018-03-11 Pacific")
                .contains("its graph: 120 detectors, ")
                .contains("(d07_text_meta_2018_03_10.txt)");
        assertThat(Files.readString(first.resolve("README.md")))
                .contains("`./its generate --detectors 120 --seed 6 --start 2018-03-10 --days 2 --profiles "
                        + "data/sample/synthetic-readings.csv --out FOLDER`");
        try (Stream<Path> files = Files.list(first)) {
            for (Path file : files.toList()) {
                assertThat(Files.readAllBytes(second.resolve(file.getFileName())))
                        .as(file.toString())
                        .isEqualTo(Files.readAllBytes(file));
            }
        }
    }

    @Test
    void aDistrictNeedsANewOrEmptyFolderEnoughDetectorsAndAUsableProfileTable() throws IOException {
        Files.writeString(dir.resolve("old.txt"), "x");
        assertThat(run("--detectors", "200", "--out", dir.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--out " + dir + " must be a new or empty folder");

        assertThat(run("--detectors", "20", "--out", dir.resolve("d").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--detectors must be at least 100 mainline detectors, got 20");

        assertThat(run("--detectors", "100,200", "--out", dir.resolve("d").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--detectors takes one number N here, got 100,200");

        assertThat(run("--profiles", "t.csv", "--out", dir.resolve("t.csv").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--profiles applies only with --detectors");

        Path oneDay = dir.resolve("one-day.csv");
        assertThat(run("--days", "1", "--out", oneDay.toString())).isZero();
        assertThat(run(
                        "--detectors",
                        "200",
                        "--profiles",
                        oneDay.toString(),
                        "--out",
                        dir.resolve("e").toString()))
                .isEqualTo(1);
        assertThat(err.toString())
                .contains("its generate: " + oneDay + ": station 764598 (El Segundo) has no readings on a " + "Monday");
    }
}
