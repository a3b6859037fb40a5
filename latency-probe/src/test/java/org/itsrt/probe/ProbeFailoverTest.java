package org.itsrt.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.itsrt.probe.report.RunReport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A failover as the probe reports it: {@link FailoverRun}, one fault marked by the program, one by a file. */
class ProbeFailoverTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Path folder;
    static FailoverRun failover;
    static JsonNode summary;

    @BeforeAll
    static void run() throws Exception {
        folder = dir.resolve("run");
        failover = FailoverRun.write(folder, "epoch_ms,label\nSTOP_MS," + FailoverRun.STOP + "\n");
        summary = JSON.readTree(folder.resolve(RunReport.SUMMARY_JSON).toFile());
    }

    @Test
    void bothMarksAreInTheSummaryInTimeOrder() {
        JsonNode marks = summary.at("/faults/marks");
        assertThat(marks).hasSize(2);
        assertThat(marks.get(0).get("label").asText()).isEqualTo(FailoverRun.KILL);
        assertThat(marks.get(1).get("label").asText()).isEqualTo(FailoverRun.STOP);
        // The first arrival is at 1 s on the run's clock; the kill at 3 s.
        assertThat(marks.get(0).get("offset_s").asDouble()).isCloseTo(2.0, within(1e-9));
        assertThat(marks.get(1).get("offset_s").asDouble()).isCloseTo(FailoverRun.STOP_AFTER_S - 1, within(0.02));
        assertThat(failover.log()).contains("its-probe: fault marked: " + FailoverRun.KILL);
    }

    @Test
    void theKillShowsItsOutageDelayedAndDuplicatedRecordsAndRecovery() {
        JsonNode kill = summary.at("/faults/marks/0");
        assertThat(kill.get("last_arrival_before_s").asDouble()).isCloseTo(1.95, within(1e-9));
        assertThat(kill.get("first_arrival_after_s").asDouble()).isCloseTo(5.0, within(1e-9));
        assertThat(kill.get("gap_s").asDouble()).isCloseTo(3.05, within(1e-9));
        assertThat(kill.at("/silence/start_s").asDouble()).isCloseTo(1.95, within(1e-9));
        assertThat(kill.at("/silence/length_s").asDouble()).isCloseTo(3.05, within(1e-9));
        // Polls 100-119, two records each, all late; the latest waited 70 polls plus 2.1 ms.
        assertThat(kill.get("delayed").asLong()).isEqualTo(40);
        assertThat(kill.get("peak_latency_ms").asDouble()).isCloseTo(70 * 50 + 2.1, within(1e-9));
        // On time again from poll 120 at 7 s, 4 s after the kill, for good.
        assertThat(kill.get("recovery_s").asDouble()).isCloseTo(4.0, within(1e-9));
        assertThat(kill.get("duplicated").asLong()).isEqualTo(20);
        assertThat(kill.at("/duplicated_by_detector/1").asLong()).isEqualTo(10);
        assertThat(kill.at("/duplicated_by_detector/2").asLong()).isEqualTo(10);
        assertThat(summary.at("/sequence/total/duplicated").asLong()).isEqualTo(20);
    }

    @Test
    void aFaultWithoutEffectRecoversAtOnceAndHasNoPeak() {
        JsonNode stop = summary.at("/faults/marks/1");
        assertThat(stop.get("gap_s").asDouble()).isCloseTo(0.05, within(1e-9));
        assertThat(stop.get("delayed").asLong()).isZero();
        assertThat(stop.get("peak_latency_ms").isNull()).isTrue();
        assertThat(stop.get("recovery_s").asDouble()).isZero();
        assertThat(stop.get("duplicated").asLong()).isZero();
        assertThat(stop.get("duplicated_by_detector")).isEmpty();
        assertThat(summary.at("/faults/largest_silence/length_s").asDouble()).isCloseTo(3.05, within(1e-9));
    }

    @Test
    void summaryMarkdownShowsTheFaultsBesideTheDuplicatesPerDetector() throws Exception {
        String md = Files.readString(folder.resolve(RunReport.SUMMARY_MD));
        assertThat(md)
                .contains("## Faults and recovery")
                .containsPattern(
                        "\\| F1 \\| kill -9 taskmanager-1 \\| [^|]+ \\| 2\\.000 \\| 4\\.500 \\| 3\\.050 \\| 3\\.050 \\| "
                                + "1\\.950 \\| 40 \\| 3502\\.100 \\| 4\\.000 \\| 1\\.500 \\| 20 \\|")
                .containsPattern(
                        "\\| F2 \\| stop broker 1 \\| .* \\| - \\| 0\\.050 \\| .* \\| 0 \\| - \\| 0\\.000 \\| - \\| 0 \\|")
                .contains("| detector | duplicated after F1 | duplicated after F2 | duplicated, whole run |")
                .contains("| 1 | 10 | 0 | 10 |")
                .contains("| 2 | 10 | 0 | 10 |")
                .contains("marks from the program and from `");
        assertThat(md.indexOf("## Faults and recovery")).isLessThan(md.indexOf("## Delivery per detector"));
    }

    @Test
    void theTimelineMarksTheFaults() throws Exception {
        PlotFiles.assertValid(folder, RunReport.TIMELINE);
        // The marks' dashed lines are the only dark red on the chart; a run without faults has none.
        assertThat(markPixels(folder)).isGreaterThan(200);
        Path plain = dir.resolve("plain");
        SampleRun.write(plain, false);
        assertThat(markPixels(plain)).isZero();
    }

    @Test
    void aMalformedFaultsFileFailsNamingItsLineAfterTheReportIsWritten(@TempDir Path other) throws Exception {
        Path broken = other.resolve("run");

        assertThatThrownBy(() -> FailoverRun.write(broken, "epoch_ms,label\nyesterday,kill\n"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("run-faults.csv:2: epoch_ms is not a whole number of milliseconds")
                .hasMessageContaining("leaves that file's faults out");
        JsonNode written = JSON.readTree(broken.resolve(RunReport.SUMMARY_JSON).toFile());
        assertThat(written.at("/faults/marks")).hasSize(1);
        assertThat(Files.readString(broken.resolve(RunReport.SUMMARY_MD))).contains("could not be read");
    }

    @Test
    void anUnmarkedFailoverStillShowsAsTheLongestSilence(@TempDir Path other) throws Exception {
        Path unmarked = other.resolve("run");
        FailoverRun.write(unmarked, null, false);

        JsonNode json = JSON.readTree(unmarked.resolve(RunReport.SUMMARY_JSON).toFile());
        assertThat(json.at("/faults/marks")).isEmpty();
        assertThat(json.at("/faults/largest_silence/start_s").asDouble()).isCloseTo(1.95, within(1e-9));
        assertThat(json.at("/faults/largest_silence/length_s").asDouble()).isCloseTo(3.05, within(1e-9));
        assertThat(Files.readString(unmarked.resolve(RunReport.SUMMARY_MD)))
                .contains("No fault was marked")
                .contains("Longest silence between two arrivals: **3.050 s**, from 1.950 s to 5.000 s");
        PlotFiles.assertValid(unmarked, RunReport.TIMELINE);
        assertThat(markPixels(unmarked)).isZero();
    }

    /** Pixels of the marks' colour, (140, 0, 0) give or take the edges' anti-aliasing. */
    private static int markPixels(Path run) throws Exception {
        BufferedImage image =
                ImageIO.read(run.resolve(RunReport.TIMELINE + ".png").toFile());
        int count = 0;
        for (int x = 0; x < image.getWidth(); x++) {
            for (int y = 0; y < image.getHeight(); y++) {
                int rgb = image.getRGB(x, y);
                int r = (rgb >> 16) & 0xff;
                int g = (rgb >> 8) & 0xff;
                int b = rgb & 0xff;
                if (r >= 120 && r <= 160 && g <= 30 && b <= 30) {
                    count++;
                }
            }
        }
        return count;
    }
}
