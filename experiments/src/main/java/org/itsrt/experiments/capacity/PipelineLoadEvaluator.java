package org.itsrt.experiments.capacity;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.itsrt.experiments.run.ExperimentRunner;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.experiments.spec.ExperimentSpec.Row;
import org.itsrt.probe.report.ProbeSummary;
import org.itsrt.probe.report.RunReport;
import org.itsrt.records.Workload;

/**
 * Measures a load as {@code ./its experiment} measures a row: the capacity plan's point plan
 * ({@link CapacityPlan#pointPlan(double)}), a fresh pipeline under {@link ExperimentRunner} (the
 * plan's budget on the job's process, restored after the run), in {@code OUT/points/NN-LOAD/rep-R/};
 * then reads each stream the SLO judges ({@link CapacityPlan#judged()}) from the run's probe folder,
 * {@code probe/routes/} for the answers and {@code probe/predictions/} for the predictions:
 * {@code summary.json} and {@code windows.csv}.
 */
public final class PipelineLoadEvaluator implements LoadEvaluator {

    public static final String POINTS_DIR = "points";

    private final CapacityPlan plan;
    private final ExperimentRunner runner;
    private final Path out;

    public PipelineLoadEvaluator(CapacityPlan plan, Path out, PrintStream log) {
        this.plan = plan;
        Row base = new Row("capacity", plan.pointPlan());
        ExperimentSpec.Slo slo = new ExperimentSpec.Slo(
                plan.settings().slo().p99Ms(),
                plan.settings().slo().p99Ms(),
                plan.pointPlan().load().sloMs());
        this.runner = new ExperimentRunner(
                new ExperimentSpec(
                        "capacity",
                        "the most " + plan.axis().title + " within the SLO",
                        List.of(base),
                        1,
                        slo,
                        null,
                        null,
                        null),
                log);
        this.out = out;
    }

    @Override
    public LoadRun measure(int point, double load, int repetition) throws Exception {
        Row row = new Row(plan.axis().quantity(load), plan.pointPlan(load));
        Path dir = out.resolve(POINTS_DIR)
                .resolve(String.format(Locale.ROOT, "%02d-%s", point, CapacitySlo.number(load)))
                .resolve("rep-" + repetition);
        int exitCode = runner.runOnce(row, repetition, dir).exitCode();
        List<StreamRun> streams = new ArrayList<>();
        for (Workload.Stream stream : plan.judged()) {
            Path folder = dir.resolve("probe").resolve(stream.label());
            RowRun measured = RowRun.of(
                    row,
                    repetition,
                    dir,
                    exitCode,
                    ProbeSummary.read(folder.resolve(RunReport.SUMMARY_JSON)),
                    Map.of());
            streams.add(new StreamRun(
                    stream,
                    measured.steady().p99(),
                    measured.steady().count(),
                    measured.lost(),
                    LagTrend.read(folder.resolve(RunReport.WINDOWS_CSV))));
        }
        return new LoadRun(exitCode, streams, dir);
    }
}
