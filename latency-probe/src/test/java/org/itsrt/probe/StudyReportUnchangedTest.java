package org.itsrt.probe;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The study's report, byte for byte but for the wall-clock times, is what the probe wrote for
 * {@link SampleRun} before it learnt to measure the district workload (the files under
 * {@code study-sample/} in the test resources), but for the two columns {@code latencies.csv} has
 * since gained at the end of each row, {@code degraded} and {@code predicted_flow}, and the
 * percentiles that read above the exact max (a histogram bucket's top), now held to it.
 */
class StudyReportUnchangedTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"advice", "readings"})
    void theStudysFilesAreAsBefore(String topic) throws Exception {
        Path folder = dir.resolve(topic);
        SampleRun.write(folder, topic.equals("readings"));
        for (String file : List.of("summary.md", "summary.json", "latencies.csv", "windows.csv")) {
            String before;
            try (InputStream in = getClass().getResourceAsStream("/study-sample/" + topic + "/" + file)) {
                before = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            String now = Files.readString(folder.resolve(file));
            assertThat(withoutWallClock(now)).as(topic + "/" + file).isEqualTo(withoutWallClock(before));
        }
        assertThat(Files.exists(folder.resolve("predictions"))).isFalse();
        assertThat(Files.exists(folder.resolve("streams.csv"))).isFalse();
    }

    /** The start and end of a run and its length on the wall clock, which differ from run to run. */
    private static String withoutWallClock(String text) {
        return text.replaceAll("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z", "<instant>")
                .replaceAll("\"duration_s\" : [0-9.]+", "\"duration_s\" : <s>");
    }
}
