package org.itsrt.experiments.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.experiments.spec.SpecException;
import org.itsrt.pipeline.plan.BudgetPlan;
import org.itsrt.pipeline.plan.RunPlan;
import org.junit.jupiter.api.Test;

/** A tune is a run plan and a search range; a point is the plan with its budget replaced. */
class TunePlanTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));
    private static final Path QUICK = ROOT.resolve("experiments/linux-budgets-quick.yaml");

    private static TunePlan.Request range(Long resolutionUs) {
        return new TunePlan.Request(null, null, null, null, null, resolutionUs, 2, null, null, null, null);
    }

    @Test
    void aPointIsThePlanWithItsBudgetAndNothingElseChanged() {
        ExperimentSpec spec = ExperimentSpec.read(QUICK);
        TunePlan tune = TunePlan.of(spec, QUICK, range(null));
        PipelineEvaluator points =
                new PipelineEvaluator(tune.experiment(), tune.pointPlan(), Path.of("out"), System.err);

        RunPlan point = points.row(40_000, 100_000).plan();

        assertThat(point.budget().budgetUs()).isEqualTo(40_000);
        assertThat(point.budget().periodUs()).isEqualTo(100_000);
        assertThat(point.budget().backend()).isEqualTo(BudgetPlan.Backend.LINUX_CGROUP);
        RunPlan first = spec.rows().get(0).plan();
        assertThat(point.stack()).isEqualTo(first.stack());
        assertThat(point.load()).isEqualTo(first.load());
        assertThat(point.job()).isEqualTo(first.job());
        assertThat(points.row(40_000, 100_000).label()).isEqualTo("40000/100000");
        // The range from the file's rows: one period, its smallest and largest budgets.
        assertThat(tune.settings().ranges()).singleElement().satisfies(r -> {
            assertThat(r.periodUs()).isEqualTo(100_000);
            assertThat(r.minBudgetUs()).isEqualTo(6_250);
            assertThat(r.maxBudgetUs()).isEqualTo(100_000);
            assertThat(r.resolutionUs()).isEqualTo(1_000);
        });
    }

    @Test
    void aPointOutsideTheKernelsLimitsIsRefusedByThePlan() {
        TunePlan tune = TunePlan.of(ExperimentSpec.read(QUICK), QUICK, range(null));
        PipelineEvaluator points =
                new PipelineEvaluator(tune.experiment(), tune.pointPlan(), Path.of("out"), System.err);
        assertThatThrownBy(() -> points.row(500, 100_000)).hasMessageContaining("budget.budget_us");
    }

    @Test
    void aBadRangeNamesTheOption() {
        assertThatThrownBy(() -> TunePlan.of(ExperimentSpec.read(QUICK), QUICK, range(0L)))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("--resolution-us must be >= 1, got 0");
    }
}
