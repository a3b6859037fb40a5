package org.itsrt.experiments.tune;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import org.itsrt.experiments.run.ExperimentRunner;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.experiments.spec.ExperimentSpec.Row;
import org.itsrt.pipeline.plan.RunPlan;

/**
 * Measures a point as {@code ./its experiment} measures a row: the tune's base plan with the
 * point's budget and period over its budget, each run a fresh pipeline under
 * {@link ExperimentRunner}, in {@code OUT/points/NN-BUDGET_PERIOD/rep-R/}.
 */
public final class PipelineEvaluator implements PointEvaluator {

    public static final String POINTS_DIR = "points";

    private final ExperimentRunner runner;
    private final RunPlan base;
    private final Path out;

    /**
     * @param experiment the experiment the search runs under (its name, interference and SLO)
     * @param base       the plan of every point: the backend, CPUs, cpuset or threads, load, job
     */
    public PipelineEvaluator(ExperimentSpec experiment, RunPlan base, Path out, PrintStream log) {
        this.runner = new ExperimentRunner(experiment, log);
        this.base = base;
        this.out = out;
    }

    @Override
    public RowRun measure(int point, long budgetUs, long periodUs, int repetition) throws Exception {
        Row row = row(budgetUs, periodUs);
        Path dir = out.resolve(POINTS_DIR)
                .resolve(String.format(Locale.ROOT, "%02d-%d_%d", point, budgetUs, periodUs))
                .resolve("rep-" + repetition);
        return runner.runOnce(row, repetition, dir);
    }

    /** The point as a row: the base plan with this budget, labelled as an experiment's row would be by default. */
    public Row row(long budgetUs, long periodUs) {
        RunPlan.Builder plan = base.toBuilder();
        plan.budget().budgetUs(budgetUs).periodUs(periodUs);
        return new Row(budgetUs + "/" + periodUs, plan.build());
    }
}
