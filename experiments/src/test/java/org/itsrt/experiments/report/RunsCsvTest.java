package org.itsrt.experiments.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.pipeline.plan.BudgetPlan;
import org.itsrt.pipeline.plan.RunPlan;
import org.junit.jupiter.api.Test;

/** runs.csv gives each run's warm-up apart from its measured figures. */
class RunsCsvTest {

    private static String cell(List<String> lines, int row, String column) {
        List<String> header = List.of(lines.get(0).split(","));
        return lines.get(row).split(",")[header.indexOf(column)];
    }

    @Test
    void theWarmupColumnsHoldTheRunsWarmupAndItsSettleTime() {
        ExperimentSpec.Row row = new ExperimentSpec.Row(
                "100000/100000",
                RunPlan.builder()
                        .budget(BudgetPlan.builder()
                                .backend(BudgetPlan.Backend.LINUX_CGROUP)
                                .budgetUs(100_000L)
                                .periodUs(100_000L))
                        .build());
        RowRun.Percentiles measured = new RowRun.Percentiles(600, 2, 3, 4, 5, 6);
        RowRun warmedUp = new RowRun(
                row,
                1,
                Path.of("runs/01/rep-1"),
                0,
                measured,
                measured,
                0,
                0,
                Map.of(),
                new RowRun.Warmup(120, 45.5, 7));
        RowRun cold = new RowRun(row, 2, Path.of("runs/01/rep-2"), 0, measured, measured, 0, 0, Map.of());

        List<String> lines =
                List.of(ExperimentReport.csv(List.of(warmedUp, cold)).split("\n"));

        assertThat(cell(lines, 1, "warmup_records")).isEqualTo("120");
        assertThat(Double.parseDouble(cell(lines, 1, "warmup_p99_ms"))).isEqualTo(45.5);
        assertThat(Double.parseDouble(cell(lines, 1, "settled_after_s"))).isEqualTo(7.0);
        assertThat(cell(lines, 1, "p99_ms"))
                .as("the measured figures stay the measured records'")
                .startsWith("4");
        assertThat(cell(lines, 2, "warmup_records")).isEqualTo("0");
        assertThat(cell(lines, 2, "folder")).isEqualTo("\"runs/01/rep-2\"");
    }
}
