package org.itsrt.experiments.capacity;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.itsrt.experiments.run.ExperimentRunner;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.experiments.spec.ExperimentSpec.Row;
import org.itsrt.probe.district.DistrictStream;
import org.itsrt.probe.report.ProbeSummary;
import org.itsrt.probe.report.RunReport;

/**
 * Measures a rate as {@code ./its experiment} measures a row: the capacity plan with the point's
 * request rate, a fresh pipeline under {@link ExperimentRunner} (the plan's budget on the job's
 * process, restored after the run), in {@code OUT/points/NN-RATE/rep-R/}; then reads the run's
 * requests -> answers stream ({@code probe/routes/}: {@code summary.json} and {@code windows.csv}).
 */
public final class PipelineRateEvaluator implements RateEvaluator {

    public static final String POINTS_DIR = "points";

    private final CapacityPlan plan;
    private final ExperimentRunner runner;
    private final Path out;

    public PipelineRateEvaluator(CapacityPlan plan, Path out, PrintStream log) {
        this.plan = plan;
        Row base = new Row("capacity", plan.pointPlan());
        ExperimentSpec.Slo slo = new ExperimentSpec.Slo(
                plan.settings().slo().p99Ms(),
                plan.settings().slo().p99Ms(),
                plan.pointPlan().load().sloMs());
        this.runner = new ExperimentRunner(
                new ExperimentSpec("capacity", "the most requests/s within the SLO", List.of(base), 1, slo, null, null),
                log);
        this.out = out;
    }

    @Override
    public RateRun measure(int point, double rate, int repetition) throws Exception {
        Row row = new Row(CapacitySlo.number(rate) + " requests/s", plan.pointPlan(rate));
        Path dir = out.resolve(POINTS_DIR)
                .resolve(String.format(Locale.ROOT, "%02d-%s", point, CapacitySlo.number(rate)))
                .resolve("rep-" + repetition);
        RowRun readings = runner.runOnce(row, repetition, dir);
        Path routes = dir.resolve("probe").resolve(DistrictStream.ROUTES.folder());
        RowRun answers = RowRun.of(
                row,
                repetition,
                dir,
                readings.exitCode(),
                ProbeSummary.read(routes.resolve(RunReport.SUMMARY_JSON)),
                Map.of());
        return new RateRun(
                readings.exitCode(),
                answers.steady().p99(),
                answers.steady().count(),
                answers.lost(),
                LagTrend.read(routes.resolve(RunReport.WINDOWS_CSV)),
                dir);
    }
}
