package org.itsrt.experiments.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.pipeline.plan.RunPlan;
import org.junit.jupiter.api.Test;

/** The report's first section names each row that went wrong, and how, before any table. */
class WhatWentWrongTest {

    private static final ExperimentSpec.Slo SLO = new ExperimentSpec.Slo(20, 50, 20);

    private static ExperimentSpec.Row row(String label) {
        return new ExperimentSpec.Row(label, RunPlan.builder().build());
    }

    private static RowRun run(ExperimentSpec.Row row, int rep, int exit, double p99, double max, long lost) {
        RowRun.Percentiles steady = new RowRun.Percentiles(150, 1, 2, p99, max, max);
        return new RowRun(
                row, rep, Path.of("runs/" + row.label() + "/rep-" + rep), exit, steady, steady, 0, lost, Map.of());
    }

    @Test
    void runsWithinTheSloWithEveryRecordSayEveryRunMetIt() {
        ExperimentSpec.Row a = row("a");
        String md = WhatWentWrong.section(SLO, List.of(run(a, 1, 0, 10, 30, 0), run(a, 2, 0, 19, 49, 0)));

        assertThat(md).startsWith("## Outcome").contains("Every run measured all its records and met the SLO");
    }

    @Test
    void eachRowThatMissedLostOrMeasuredNothingIsNamedWithItsFigures() {
        ExperimentSpec.Row fine = row("fine");
        ExperimentSpec.Row slow = row("slow");
        ExperimentSpec.Row lossy = row("lossy");
        ExperimentSpec.Row dead = row("dead");
        String md = WhatWentWrong.section(
                SLO,
                List.of(
                        run(fine, 1, 0, 10, 30, 0),
                        run(slow, 1, 0, 10, 30, 0),
                        run(lossy, 1, 0, 10, 30, 3),
                        RowRun.notMeasured(dead, 1, Path.of("runs/dead/rep-1"), Map.of()),
                        run(fine, 2, 0, 11, 31, 0),
                        run(slow, 2, 0, 4_123, 4_220.31, 0),
                        run(lossy, 2, 0, 10, 30, 2)));

        assertThat(md).startsWith("## What went wrong");
        assertThat(md).doesNotContain("fine");
        assertThat(md)
                .contains(
                        "**slow: 1 of 2 runs missed the SLO** (repetition 2; steady-state p99 up to 4,123.0 ms (SLO 20),"
                                + " max up to 4,220.3 ms (SLO 50))");
        assertThat(md).contains("**lossy: all 2 runs lost records** (repetition 1, 2; 5 in all)");
        assertThat(md).contains("**dead: its run measured nothing** (repetition 1");
        assertThat(md)
                .as("a run that measured nothing has no figures to miss the SLO by")
                .doesNotContain("dead: its run missed");
    }

    @Test
    void aMeasuredRunThatExitedNonZeroWithinTheSloIsNamedForItsExit() {
        ExperimentSpec.Row row = row("r");
        String md = WhatWentWrong.section(SLO, List.of(run(row, 1, 1, 10, 30, 0)));

        assertThat(md).contains("**r: its run ended with a non-zero exit**").doesNotContain("missed the SLO");
    }
}
