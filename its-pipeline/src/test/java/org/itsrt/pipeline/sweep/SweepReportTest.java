package org.itsrt.pipeline.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.imageio.ImageIO;
import org.itsrt.pipeline.LoadSpec;
import org.itsrt.pipeline.plan.LoadPlan;
import org.itsrt.probe.report.Charts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweep's report files from steps built by hand, and a step's load. */
class SweepReportTest {

    private static final List<SweepStep> STEPS = List.of(
            new SweepStep(1000, 60_000, 60_000, 999.6, 3.2, 12.5, 40.1, 0, 0, 0, 0),
            new SweepStep(6000, 360_000, 359_990, 4_800.0, 9_000.0, 19_000.0, 19_400.0, 10, 2, 0, 0),
            new SweepStep(10000, 600_000, 0, 0, null, null, null, 600_000, 0, -1, 130));

    @Test
    void csvHasOneRowPerStepWithEmptyCellsForNoLatency() {
        List<String> lines = SweepReport.csv(STEPS).lines().toList();
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).startsWith("offered_per_s,records,measured,delivered_per_s,p50_ms,p99_ms,max_ms,lost");
        assertThat(lines.get(1)).isEqualTo("1000.0,60000,60000,999.6,3.200,12.500,40.100,0,0,0,0");
        assertThat(lines.get(3)).isEqualTo("10000.0,600000,0,0.0,,,,600000,0,-1,130");
    }

    @Test
    void markdownTablesEveryStepAndSaysWhenInterrupted() {
        String md = SweepReport.markdown(STEPS, List.of("job: linear"), true);
        assertThat(md)
                .contains("- job: linear")
                .contains("**interrupted**")
                .contains("| 1,000 | 60,000 | 60,000 | 1,000 | 3.2 | 12.5 | 40.1 | 0 | 0 | 0 | 0 |")
                .contains("| 6,000 | 360,000 | 359,990 | 4,800 | 9000.0 | 19000.0 | 19400.0 | 10 | 2 | 0 | 0 |")
                .contains("| 10,000 | 600,000 | 0 | 0 | n/a | n/a | n/a | 600000 | 0 | n/a | 130 |");
        assertThat(SweepReport.markdown(STEPS, List.of(), false)).doesNotContain("interrupted");
    }

    @Test
    void writesTheFilesAndPlotsThatDecode(@TempDir Path dir) throws Exception {
        SweepReport.write(dir, STEPS, List.of(), false);
        assertThat(dir.resolve(SweepReport.CSV)).isRegularFile();
        assertThat(dir.resolve(SweepReport.MARKDOWN)).isRegularFile();
        for (String plot : List.of(SweepReport.PLOT, SweepReport.LATENCY_PLOT)) {
            BufferedImage png = ImageIO.read(dir.resolve(plot + ".png").toFile());
            assertThat(png.getWidth()).isEqualTo(Charts.WIDTH);
            assertThat(png.getHeight()).isEqualTo(Charts.HEIGHT);
            assertThat(Files.readString(dir.resolve(plot + ".svg"))).contains("<svg");
        }
    }

    @Test
    void nothingMeasuredStillWritesTheTableAndNoPlot(@TempDir Path dir) throws Exception {
        SweepReport.write(dir, List.of(), List.of(), true);
        assertThat(Files.readString(dir.resolve(SweepReport.MARKDOWN))).contains("**interrupted**");
        assertThat(dir.resolve(SweepReport.PLOT + ".png")).doesNotExist();
    }

    @Test
    void aStepSpreadsItsTotalRateOverTheDetectorsForItsWarmupAndItsDuration(@TempDir Path dir) throws Exception {
        Path data = Files.writeString(dir.resolve("readings.csv"), "x\n");
        LoadSpec base = new LoadSpec(
                data,
                LoadPlan.builder()
                        .detectors(List.of(1L, 2L, 3L, 4L, 5L, 6L))
                        .warmupRecords(0)
                        .build());
        RateSweep.Plan plan =
                new RateSweep.Plan(List.of(1000.0, 3000.0), Duration.ofSeconds(60), Duration.ofSeconds(20));
        LoadSpec step = plan.step(base, 3000);
        assertThat(step.ratePerDetector()).isEqualTo(500.0);
        assertThat(step.records()).isEqualTo(180_000);
        assertThat(step.warmupRecords()).isEqualTo(60_000);
        assertThat(step.warmupDuration()).isEqualTo(Duration.ofSeconds(20));
        assertThat(plan.rates()).containsExactly(1000.0, 3000.0);
    }
}
