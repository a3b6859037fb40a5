package org.itsrt.probe.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The faults file another process writes: epoch_ms,label per line. */
class FaultFileTest {

    @TempDir
    Path dir;

    @Test
    void readsEveryFaultWithItsLabelAndSkipsHeaderCommentsAndBlankLines() throws Exception {
        Path file = Files.writeString(
                dir.resolve("faults.csv"),
                """
                epoch_ms,label
                # written by the chaos script
                1718000000123,kill -9 taskmanager-1

                  1718000060000 , stop broker 2, then start it again\s
                """);

        assertThat(FaultFile.read(file))
                .containsExactly(
                        new FaultFile.Line(Instant.ofEpochMilli(1718000000123L), "kill -9 taskmanager-1"),
                        new FaultFile.Line(Instant.ofEpochMilli(1718000060000L), "stop broker 2, then start it again"));
    }

    @Test
    void anEmptyFileHasNoFaults() throws Exception {
        assertThat(FaultFile.read(Files.writeString(dir.resolve("none.csv"), "")))
                .isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "1718000000123 kill -9 taskmanager-1 | expected epoch_ms,label",
                "2024-06-10T06:13:20Z,kill | epoch_ms is not a whole number of milliseconds",
                "1718000000123.5,kill | epoch_ms is not a whole number of milliseconds",
                "-5,kill | epoch_ms is negative",
                "1718000000123, | the label is empty"
            })
    void aMalformedLineFailsNamingTheFileAndTheLine(String line, String problem) throws Exception {
        Path file = Files.writeString(dir.resolve("faults.csv"), "epoch_ms,label\n1718000000000,fine\n" + line + "\n");

        assertThatThrownBy(() -> FaultFile.read(file))
                .isInstanceOf(IOException.class)
                .hasMessage(file + ":3: " + problem + ": '" + line.strip() + "'");
    }
}
