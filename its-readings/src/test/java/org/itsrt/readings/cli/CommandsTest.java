package org.itsrt.readings.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CommandsTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(CommandLine commandLine, String... args) {
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    private static Path fixture(String name) throws URISyntaxException {
        return Path.of(CommandsTest.class.getResource("/pems/" + name).toURI());
    }

    @Test
    void importPrintsEachFileTheTableAndWhereItWrote() throws Exception {
        Path table = dir.resolve("readings.csv.gz");

        int exit = run(
                ImportCommand.commandLine(),
                "--from",
                fixture("d07_text_station_5min_2018_03_11.txt").toString(),
                fixture("d07_text_station_5min_2018_11_04.txt.gz").toString(),
                "--out",
                table.toString(),
                "--stations",
                "764598,717731",
                "--meta",
                fixture("d07_text_meta_2018_03_11.txt").toString());

        assertThat(exit).isZero();
        assertThat(err.toString()).isEmpty();
        assertThat(out.toString())
                .contains("read " + fixture("d07_text_station_5min_2018_03_11.txt") + ": clearinghouse station")
                .contains("station  name        rows")
                .contains(" 764598  El Segundo")
                .contains("wrote 35 readings of 2 stations to " + table)
                .contains(dir.resolve("readings.quality.md").toString());
        assertThat(CanonicalTable.read(table))
                .hasSize(35)
                .extracting(Reading::stationId)
                .containsOnly(764598L, 717731L);
        assertThat(dir.resolve("readings.quality.csv")).exists();
    }

    @Test
    void badInputEndsWithOneClearLineAndExitCode1() throws IOException {
        Path bad = dir.resolve("d07_text_station_5min_2018_03_12.txt");
        Files.writeString(bad, "03/12/2018 00:00:00,764598,7,405,S,ML,.52,50,100,abc,.04,68.0\n");

        int exit = run(
                ImportCommand.commandLine(),
                "--from",
                bad.toString(),
                "--out",
                dir.resolve("t.csv").toString());

        assertThat(exit).isEqualTo(1);
        assertThat(err.toString())
                .isEqualTo(
                        "its import: " + bad + ", line 1, column 'Total Flow' (field 10): expected a number, got 'abc'"
                                + System.lineSeparator());
        assertThat(dir.resolve("t.csv")).doesNotExist();
    }

    @Test
    void verboseAddsTheStackTrace() throws IOException {
        Path bad = dir.resolve("d07_text_station_5min_2018_03_12.txt");
        Files.writeString(bad, "03/12/2018 00:00:00,764598\n");

        int exit = run(
                ImportCommand.commandLine(),
                "--from",
                bad.toString(),
                "--out",
                dir.resolve("t.csv").toString(),
                "--verbose");

        assertThat(exit).isEqualTo(1);
        assertThat(err.toString())
                .contains("expected 12 fields plus 5 per lane, got 2")
                .contains("at org.itsrt.readings.pems.");
    }

    @Test
    void aMissingInputOrNoReadingsIsAClearError() throws IOException {
        assertThat(run(
                        ImportCommand.commandLine(),
                        "--from",
                        dir.resolve("nowhere").toString(),
                        "--out",
                        dir.resolve("t.csv").toString()))
                .isEqualTo(1);
        assertThat(err.toString())
                .isEqualTo("its import: no such file or directory: " + dir.resolve("nowhere") + System.lineSeparator());

        Path empty = Files.createDirectory(dir.resolve("empty"));
        Files.writeString(empty.resolve("README.txt"), "not data");
        err.getBuffer().setLength(0);
        assertThat(run(
                        ImportCommand.commandLine(),
                        "--from",
                        empty.toString(),
                        "--out",
                        dir.resolve("t.csv").toString()))
                .isEqualTo(1);
        assertThat(out.toString()).contains("not recognised: " + empty.resolve("README.txt"));
        assertThat(err.toString()).startsWith("its import: no readings found in");
    }

    @Test
    void badUsageIsExitCode2() {
        assertThat(run(
                        ImportCommand.commandLine(),
                        "--out",
                        dir.resolve("t.csv").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("Missing required option: '--from");
        assertThat(run(
                        ImportCommand.commandLine(),
                        "--from",
                        dir.toString(),
                        "--out",
                        dir.resolve("t.txt").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--out must name a .csv or .csv.gz file");
    }
}
