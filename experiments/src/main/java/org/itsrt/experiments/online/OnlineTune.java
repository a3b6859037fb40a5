package org.itsrt.experiments.online;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.itsrt.cli.Numbers;
import org.itsrt.experiments.spec.SpecException;
import org.itsrt.experiments.tune.SearchRange;
import org.itsrt.experiments.tune.TunePlan;
import org.itsrt.pipeline.PipelineRun;
import org.itsrt.pipeline.RunResult;
import org.itsrt.pipeline.RunSpec;
import org.itsrt.pipeline.plan.BudgetPlan;
import org.itsrt.pipeline.plan.OutputPlan;
import org.itsrt.pipeline.plan.PlanRunner;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.probe.report.ProbeSummary;

/**
 * {@code ./its tune --online}: one whole-pipeline run of a tune's base plan in which the cgroup
 * budget follows the measured latency and load ({@link OnlineBudget}), between the search range's
 * ends, with its report ({@link OnlineReport}).
 *
 * @param tune     the tune: its base plan, its SLO (the p99 every interval must meet) and its one
 *                 period with the budget range (floor and ceiling)
 * @param interval how often the budget is decided
 */
public record OnlineTune(TunePlan tune, Duration interval) {

    /** The least interval: the p99 of fewer records than a few hundred milliseconds bring is noise. */
    public static final Duration MIN_INTERVAL = Duration.ofMillis(500);

    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(2);

    /**
     * Refuses what an online budget cannot follow: a backend other than linux-cgroup (a
     * SCHED_DEADLINE reservation per thread is not changed in flight here), more than one period.
     *
     * @throws SpecException naming the file or option
     */
    public static OnlineTune of(TunePlan tune, Path baseFile, Duration interval) {
        List<String> problems = new ArrayList<>();
        if (tune.pointPlan().budget().backend() != BudgetPlan.Backend.LINUX_CGROUP) {
            problems.add(baseFile + ": backend " + tune.pointPlan().budget().backend().yamlName
                    + ": --online changes a cgroup quota while the job runs; it takes linux-cgroup");
        }
        if (tune.settings().ranges().size() != 1) {
            problems.add("--period-us: --online follows the budget of one period, got "
                    + tune.settings().ranges().stream()
                            .map(SearchRange::periodUs)
                            .toList());
        }
        if (interval.compareTo(MIN_INTERVAL) < 0) {
            problems.add("--interval must be at least " + org.itsrt.cli.Durations.format(MIN_INTERVAL) + ", got "
                    + org.itsrt.cli.Durations.format(interval));
        }
        if (!problems.isEmpty()) {
            throw new SpecException(String.join("\n", problems));
        }
        return new OnlineTune(tune, interval);
    }

    public SearchRange range() {
        return tune.settings().ranges().get(0);
    }

    public BudgetController.Settings controller() {
        return BudgetController.Settings.of(tune.settings().sloP99Ms(), range().minBudgetUs(), range().maxBudgetUs());
    }

    /** What the run will do, in words. */
    public String describe() {
        RunPlan plan = tune.pointPlan();
        BudgetController.Settings c = controller();
        return String.format(
                Locale.ROOT,
                "tune %s --online: one run; every %s the cgroup budget of the job's process (%d CPU(s)) follows "
                        + "p99 <= %s ms between %,d and %,d us every %,d us, starting at the ceiling; %,d records at "
                        + "%s records/s per detector after %,d warm-up records; load: %s%n",
                tune.experiment().name(),
                org.itsrt.cli.Durations.format(interval),
                plan.budget().vcpus(),
                Numbers.plain(c.sloP99Ms()),
                c.floorUs(),
                c.ceilingUs(),
                range().periodUs(),
                plan.load().records(),
                Numbers.plain(plan.load().rateHz()),
                plan.load().warmupRecords(),
                plan.load().loadStep().describe());
    }

    /** A run in progress, to stop from another thread (Ctrl-C). */
    public static final class Running {
        private final PipelineRun pipeline;
        private volatile boolean stopped;

        private Running(PipelineRun pipeline) {
            this.pipeline = pipeline;
        }

        public void stop() {
            stopped = true;
            pipeline.stop();
        }
    }

    /**
     * Runs the pipeline with the budget following the load, then writes the report into
     * {@code dir}; {@code started} hears of the run so that it can be stopped.
     *
     * @return the run's exit code (0: every record measured)
     */
    public int run(Path dir, PrintStream log, java.util.function.Consumer<Running> started) throws Exception {
        RunPlan plan = tune.pointPlan().toBuilder()
                .output(OutputPlan.builder().dir(dir))
                .build();
        PlanRunner.Prepared prepared = PlanRunner.prepare(plan, log);
        // The report is drawn also after Ctrl-C, when AWT can no longer set itself up.
        org.itsrt.probe.report.Charts.prepare();
        OnlineBudget budget = new OnlineBudget(
                new BudgetController(controller()),
                range().periodUs(),
                plan.budget().vcpus(),
                plan.budget().cpus(),
                interval,
                log);
        PipelineRun pipeline = new PipelineRun(log);
        Running running = new Running(pipeline);
        started.accept(running);
        RunResult result = pipeline.run(new RunSpec(prepared.stack(), prepared.load(), prepared.job(), budget, dir));
        ProbeSummary probe = result.probe();
        List<String> facts = new ArrayList<>();
        facts.add("base experiment: " + tune.experiment().name() + "; job options "
                + plan.job().options());
        facts.add("load: " + plan.load().records() + " measured records after "
                + plan.load().warmupRecords() + " warm-up records, "
                + plan.load().loadStep().describe());
        budget.facts().forEach((key, value) -> {
            if (key.startsWith("cgroup") || key.startsWith("nr_") || key.startsWith("throttled")) {
                facts.add(key + ": " + value);
            }
        });
        if (running.stopped || result.exitCode() == RunResult.INTERRUPTED) {
            facts.add(0, "interrupted (Ctrl-C): the intervals until then");
        } else if (result.exitCode() != RunResult.OK) {
            // Also a run whose parts a shutdown hook stopped before this one heard of it.
            facts.add(
                    0,
                    "the run did not measure every record (exit code " + result.exitCode()
                            + "; stopped, or a part failed: see summary.md): the intervals until then");
        }
        OnlineReport.Figures f =
                OnlineReport.write(dir, budget, probe, plan.load().loadStep(), facts);
        log.printf(
                Locale.ROOT,
                "online budget: %d of %d intervals met the SLO (%.1f %%); CPU-seconds %.1f against %.1f for a fixed "
                        + "budget at the largest it raised to (saved %.1f %%)%n",
                f.metSlo(),
                f.intervals(),
                f.sloRatio() * 100,
                f.budgetCpuSeconds(),
                f.peakCpuSeconds(),
                f.savedAgainstPeak() * 100);
        return result.exitCode();
    }
}
