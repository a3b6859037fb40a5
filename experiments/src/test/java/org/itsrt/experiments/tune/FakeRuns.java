package org.itsrt.experiments.tune;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.run.RowRun.Percentiles;
import org.itsrt.experiments.spec.ExperimentSpec.Row;
import org.itsrt.pipeline.plan.BudgetPlan;
import org.itsrt.pipeline.plan.RunPlan;

/** Stand-ins for the pipeline: runs whose latency a test chooses, and a record of what was asked. */
final class FakeRuns {

    static final double SLO_P99_MS = 20;
    static final double SLO_MAX_MS = 50;

    /** What the search asked the evaluator, in order. */
    record Asked(int point, long budgetUs, long periodUs, int repetition) {}

    /** Whether a run at this budget meets the SLO. */
    interface Model {
        boolean meets(long budgetUs, long periodUs, int repetition);
    }

    /** An evaluator that answers from a model and remembers every question. */
    static final class Evaluator implements PointEvaluator {
        final List<Asked> asked = new ArrayList<>();
        private final Model model;

        Evaluator(Model model) {
            this.model = model;
        }

        @Override
        public RowRun measure(int point, long budgetUs, long periodUs, int repetition) {
            asked.add(new Asked(point, budgetUs, periodUs, repetition));
            return model.meets(budgetUs, periodUs, repetition)
                    ? run(budgetUs, periodUs, repetition, 10, 30)
                    : run(budgetUs, periodUs, repetition, 80, 200);
        }
    }

    /** Passes at and above a share of the period. */
    static Model threshold(double share) {
        return (budget, period, rep) -> budget >= share * period;
    }

    static RowRun run(long budgetUs, long periodUs, int repetition, double p99Ms, double maxMs) {
        return run(budgetUs, periodUs, repetition, p99Ms, maxMs, 0, 0);
    }

    static RowRun run(
            long budgetUs, long periodUs, int repetition, double p99Ms, double maxMs, int exitCode, long lost) {
        return run(BudgetPlan.Backend.LINUX_CGROUP, budgetUs, periodUs, repetition, p99Ms, maxMs, exitCode, lost);
    }

    /** A run under {@code backend}, whose limits the row's budget must be within. */
    static RowRun run(
            BudgetPlan.Backend backend,
            long budgetUs,
            long periodUs,
            int repetition,
            double p99Ms,
            double maxMs,
            int exitCode,
            long lost) {
        Row row = new Row(
                budgetUs + "/" + periodUs,
                RunPlan.builder()
                        .budget(BudgetPlan.builder()
                                .backend(backend)
                                .budgetUs(budgetUs)
                                .periodUs(periodUs))
                        .build());
        Percentiles steady = new Percentiles(1000, p99Ms / 4, p99Ms / 2, p99Ms, (p99Ms + maxMs) / 2, maxMs);
        return new RowRun(
                row,
                repetition,
                Path.of("points", budgetUs + "_" + periodUs, "rep-" + repetition),
                exitCode,
                steady,
                steady,
                0.01,
                lost,
                Map.of("throttled_share", 0.25));
    }

    static BudgetSearch.Settings settings(int repetitions, int maxRepetitions, SearchRange... ranges) {
        return new BudgetSearch.Settings(List.of(ranges), repetitions, maxRepetitions, SLO_P99_MS, SLO_MAX_MS);
    }

    private FakeRuns() {}
}
