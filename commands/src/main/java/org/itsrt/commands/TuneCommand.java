package org.itsrt.commands;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.cli.RunFolders;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.commands.options.OnlineTuneOptions;
import org.itsrt.commands.options.PrintPlanOption;
import org.itsrt.commands.options.SearchRangeOptions;
import org.itsrt.commands.options.SearchRunOptions;
import org.itsrt.experiments.report.TuneReport;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.experiments.spec.SpecException;
import org.itsrt.experiments.tune.PipelineEvaluator;
import org.itsrt.experiments.tune.PointEvaluator;
import org.itsrt.experiments.tune.ReportOnInterrupt;
import org.itsrt.experiments.tune.SearchProgress;
import org.itsrt.experiments.tune.TunePlan;
import org.itsrt.experiments.tune.TuneResult;
import org.itsrt.experiments.tune.TuneSearch;
import org.itsrt.scheduling.linux.LeftoverRestore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;

/**
 * {@code ./its tune [FILE.yaml]}: searches the smallest CPU budget that meets a latency SLO over
 * whole-pipeline runs, per period by noise-aware bisection or over (period, budget) by annealing
 * ({@link TuneSearch}), and writes a folder with the frontier and every point tried
 * ({@link TuneReport}).
 */
@Command(
        name = "its-tune",
        sortOptions = false,
        description = {
            "Searches the smallest CPU budget for the Flink cluster's process that meets a latency SLO: "
                    + "tries the upper bound, then bisects down to the resolution, each point a few whole-pipeline runs "
                    + "(as ./its experiment runs a row) that must all meet the SLO; where they disagree, more runs. "
                    + "With several periods, each is searched and the lowest share of a CPU wins; --strategy annealing "
                    + "searches period and budget together instead. Writes tune.md with the frontier (per period the "
                    + "smallest passing budget and the failing one below it), frontier.csv and its plot, points.csv "
                    + "and a plot of p99 and max against the budget; on Ctrl-C, for the points measured so far, marked "
                    + "as interrupted. Restores the budgets that killed runs left before it starts."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:a budget that meets the SLO was found",
            "1:no budget in the range meets the SLO, or a run " + "failed (the report covers the points tried)",
            "2:bad file or usage (the message names the option)",
            "130:interrupted (Ctrl-C); the report covers the points measured"
        })
public final class TuneCommand implements Callable<Integer> {

    @Mixin
    HelpOption help;

    /** The base file without one: linux-cgroup, the study's load, an SLO this kind of host can meet. */
    public static final String DEFAULT_FILE = "experiments/tune-cgroup.yaml";

    @CommandLine.Spec
    CommandSpec commandSpec;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "FILE",
            description = {
                "base experiment file (linux-cgroup or linux-deadline): its plan (CPUs, load, warm-up, job), SLO, "
                        + "job options, interference; its rows give the default periods and budget range and every "
                        + "point's cpus or threads (default: " + DEFAULT_FILE + ")"
            })
    Path file;

    @Mixin
    SearchRangeOptions range;

    @Mixin
    SearchRunOptions run;

    @Mixin
    PrintPlanOption printPlan;

    @Mixin
    OnlineTuneOptions online;

    /** Measures the points instead of whole-pipeline runs when set (tests); null for the pipeline. */
    private final PointEvaluator evaluator;

    public TuneCommand() {
        this(null);
    }

    /**
     * @param evaluator measures the points in place of the pipeline (which then needs no data, model or
     *                  job jar); null for the pipeline
     */
    TuneCommand(PointEvaluator evaluator) {
        this.evaluator = evaluator;
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(Commands.execute(new TuneCommand(), args));
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter err = commandSpec.commandLine().getErr();
        PrintWriter console = commandSpec.commandLine().getOut();
        Path baseFile = file != null ? file : ProjectPaths.locate().root().resolve(DEFAULT_FILE);
        TunePlan plan;
        try {
            ExperimentSpec spec = ExperimentSpec.read(baseFile);
            spec = spec.withRows(spec.rows().stream()
                    .map(r -> r.withPlan(p -> run.over(p.toBuilder())))
                    .toList());
            plan = TunePlan.of(spec, baseFile, range.request());
            if (online.given()) {
                online.refuseSearchOptions(range.request());
                return OnlineTuneCall.call(
                        plan, baseFile, online.interval(), run.out(), printPlan.given(), console, err);
            }
            online.interval(); // refuses --interval without --online
        } catch (IllegalArgumentException | SpecException e) {
            err.println("its-tune: " + e.getMessage().replace("\n", "\nits-tune: "));
            err.flush();
            return 2;
        }
        ExperimentSpec base = plan.experiment();
        Path dir = RunFolders.orDefault(run.out(), "tune", base.name());
        PipelineEvaluator points = new PipelineEvaluator(base, plan.pointPlan(), dir, System.err);
        console.print(plan.describe(points));
        console.flush();
        if (printPlan.given()) {
            return 0;
        }
        String unusable =
                SearchRunOptions.unusable(dir, TuneReport.MARKDOWN, "a tune", plan.pointPlan(), evaluator == null);
        if (unusable != null) {
            err.println("its-tune: " + unusable);
            err.flush();
            return 2;
        }
        Files.createDirectories(dir);
        Files.copy(baseFile, dir.resolve("base.yaml"), StandardCopyOption.REPLACE_EXISTING);
        // A tune killed with kill -9 left its budget on a cluster process that may still run.
        LeftoverRestore.atStart("its-tune", err);
        TuneSearch search = TuneSearch.of(
                plan.settings(), evaluator != null ? evaluator : points, new SearchProgress(base.name(), System.err));
        ReportOnInterrupt.Finished finished =
                new ReportOnInterrupt(search, dir, base, baseFile, plan.settings(), err).searchAndReport();
        if (finished == null) {
            return 130;
        }
        TuneResult result = finished.result();
        String summary = finished.summary();
        console.println();
        console.print(summary.replace("**", ""));
        console.println("results: " + dir.resolve(TuneReport.MARKDOWN));
        console.flush();
        return result.best().isPresent() && !result.stoppedEarly() ? 0 : 1;
    }
}
