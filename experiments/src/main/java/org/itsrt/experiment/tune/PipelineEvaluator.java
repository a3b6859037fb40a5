package org.itsrt.experiment.tune;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.itsrt.experiment.run.ExperimentRunner;
import org.itsrt.experiment.run.RunResult;
import org.itsrt.experiment.spec.ExperimentSpec;
import org.itsrt.experiment.spec.ExperimentSpec.Row;

/**
 * Measures a point as {@code ./its experiment} measures a row: each point is a one-row experiment
 * (the base file's backend, CPUs, load, records, warm-up, job options and interference, with the
 * point's budget) and each of its runs a fresh pipeline under {@link ExperimentRunner}, in
 * {@code OUT/points/NN-BUDGET_PERIOD/rep-R/}.
 */
public final class PipelineEvaluator implements PointEvaluator {

    public static final String POINTS_DIR = "points";

    private final ExperimentSpec base;
    private final String cpus;
    private final String threads;
    private final ExperimentRunner.Pipeline pipeline;
    private final Path out;
    private final PrintStream log;

    /**
     * @param base    the experiment every point is built from; its rows are not used
     * @param cpus    the rows' cpuset (linux-cgroup), or null
     * @param threads the rows' thread pattern (linux-deadline), or null
     */
    public PipelineEvaluator(
            ExperimentSpec base,
            String cpus,
            String threads,
            ExperimentRunner.Pipeline pipeline,
            Path out,
            PrintStream log) {
        this.base = base;
        this.cpus = cpus;
        this.threads = threads;
        this.pipeline = pipeline;
        this.out = out;
        this.log = log;
    }

    @Override
    public RunResult measure(int point, long budgetUs, long periodUs, int repetition) throws Exception {
        Row row = row(budgetUs, periodUs);
        Path dir = out.resolve(POINTS_DIR)
                .resolve(String.format(Locale.ROOT, "%02d-%d_%d", point, budgetUs, periodUs))
                .resolve("rep-" + repetition);
        return new ExperimentRunner(pointSpec(row), pipeline, log).runOnce(row, repetition, dir);
    }

    /** The experiment row of a budget, labelled as an experiment file's row would be by default. */
    public Row row(long budgetUs, long periodUs) {
        return new Row(budgetUs + "/" + periodUs, budgetUs, periodUs, cpus, threads, null);
    }

    /** The one-row experiment of a point. */
    public ExperimentSpec pointSpec(Row row) {
        return new ExperimentSpec(
                base.name(),
                base.description(),
                base.backend(),
                base.vcpus(),
                List.of(row),
                base.load(),
                base.records(),
                1,
                base.warmup(),
                base.slo(),
                base.interference(),
                base.job(),
                null);
    }
}
