package org.itsrt.experiments.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.probe.arrival.Arrival;
import org.itsrt.probe.report.LatencyCsv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's section on degraded readings, from run folders the probe's own writer wrote. */
class DegradedPredictionsTest {

    @TempDir
    Path out;

    private static final ExperimentSpec.Row PLAIN =
            new ExperimentSpec.Row("plain", RunPlan.builder().build());
    private static final ExperimentSpec.Row DEGRADE =
            new ExperimentSpec.Row("degrade", RunPlan.builder().build());

    /** A run of {@code row} whose probe kept these predictions of detector 1's readings 0, 1, 2, ... */
    private RowRun run(ExperimentSpec.Row row, int repetition, double[] flows, boolean[] degraded) throws Exception {
        Path dir =
                Files.createDirectories(out.resolve("runs").resolve(row.label()).resolve("rep-" + repetition));
        Path probe = Files.createDirectories(dir.resolve("probe"));
        LatencyCsv csv = new LatencyCsv(probe.resolve(LatencyCsv.FILE));
        for (int seq = 0; seq < flows.length; seq++) {
            long sent = 1_000_000_000L * (seq + 1);
            csv.arrived(new Arrival(1, seq, sent, sent, 1, 1, 1, sent + 1_000_000, false, degraded[seq], flows[seq]));
        }
        csv.finish();
        RowRun.Percentiles p = new RowRun.Percentiles(flows.length, 1, 1, 1, 1, 1);
        return new RowRun(row, repetition, dir, 0, p, p, 0, 0, Map.of());
    }

    private static ExperimentSpec spec(String reference) {
        return new ExperimentSpec(
                "degrade", "", List.of(PLAIN, DEGRADE), 2, new ExperimentSpec.Slo(50, 100, 100), null, null, reference);
    }

    private Map<ExperimentSpec.Row, List<RowRun>> runs() throws Exception {
        boolean[] none = {false, false, false, false};
        Map<ExperimentSpec.Row, List<RowRun>> byRow = new LinkedHashMap<>();
        byRow.put(
                PLAIN,
                List.of(
                        run(PLAIN, 1, new double[] {300, 310, 320, 330}, none),
                        run(PLAIN, 2, new double[] {300, 310, 320, 330}, none)));
        byRow.put(
                DEGRADE,
                List.of(
                        run(DEGRADE, 1, new double[] {300, 316, 320, 330}, new boolean[] {false, true, false, false}),
                        run(DEGRADE, 2, new double[] {300, 310, 320, 330}, none)));
        return byRow;
    }

    @Test
    void eachRunIsHeldAgainstTheReferencesRunOfTheSameRepetition() throws Exception {
        String section = DegradedPredictions.section(out, spec("plain"), runs());

        assertThat(section)
                .contains("## Degraded readings and what they cost")
                .contains("| plain | 0, 0 | 0.000, 0.000 | -, - | 0 |")
                // 6 veh/5 min off on one of four readings: 36 / 4 = 9 over all, 6 over the degraded one.
                .contains("| degrade | 1 (25.00%), 0 | 9.000, 0.000 | 6.0, - | 0 |");
        List<String> csv = Files.readAllLines(out.resolve(DegradedPredictions.CSV));
        assertThat(csv).hasSize(5);
        assertThat(csv.get(3)).startsWith("\"degrade\",1,4,1,0.25,9.0,36.0,0,");
    }

    @Test
    void withoutAReferenceOnlyTheDegradedCountsAndWithoutDegradationNothing() throws Exception {
        assertThat(DegradedPredictions.section(out, spec(null), runs()))
                .contains("| degrade | 1 (25.00%), 0 |")
                .doesNotContain("MSE");

        Map<ExperimentSpec.Row, List<RowRun>> plainOnly = new LinkedHashMap<>();
        plainOnly.put(PLAIN, runs().get(PLAIN));
        assertThat(DegradedPredictions.section(out, spec(null), plainOnly)).isEmpty();
    }
}
