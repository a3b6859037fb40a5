package org.itsrt.experiment.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import org.itsrt.cli.BadDurationException;
import org.itsrt.cli.Durations;
import org.itsrt.cli.KafkaClientConfig;
import org.itsrt.cli.KafkaConfigOption;
import org.itsrt.cli.RunFolders;
import org.itsrt.demo.PipelineInputs;
import org.itsrt.experiment.backend.RowBackend;
import org.itsrt.experiment.report.Environment;
import org.itsrt.experiment.report.TuneReport;
import org.itsrt.experiment.run.ExperimentRunner;
import org.itsrt.experiment.run.RunResult;
import org.itsrt.experiment.spec.ExperimentSpec;
import org.itsrt.experiment.spec.ExperimentSpec.Backend;
import org.itsrt.experiment.spec.ExperimentSpec.Row;
import org.itsrt.experiment.spec.SpecException;
import org.itsrt.experiment.tune.BudgetSearch;
import org.itsrt.experiment.tune.PipelineEvaluator;
import org.itsrt.experiment.tune.PointEvaluator;
import org.itsrt.experiment.tune.SearchRange;
import org.itsrt.experiment.tune.TriedPoint;
import org.itsrt.experiment.tune.TuneResult;
import org.itsrt.sched.budget.LinuxLimits;
import org.itsrt.sched.linux.LeftoverRestore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./its tune [FILE.yaml]}: searches the smallest CPU budget that meets a latency SLO, by
 * noise-aware bisection over whole-pipeline runs ({@link BudgetSearch}), and writes a folder with
 * every point tried ({@link TuneReport}).
 */
@Command(
        name = "its-tune",
        sortOptions = false,
        description = {
            "Searches the smallest CPU budget for the Flink cluster's process that meets a latency SLO: "
                    + "tries the upper bound, then bisects down to the resolution, each point a few whole-pipeline runs "
                    + "(as ./its experiment runs a row) that must all meet the SLO; where they disagree, more runs. "
                    + "With several periods, each is searched and the lowest share of a CPU wins. Writes tune.md, "
                    + "points.csv and a plot of p99 and max against the budget; on Ctrl-C, for the points measured "
                    + "so far, marked as interrupted. Restores the budgets that killed runs left before it starts."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:a budget that meets the SLO was found",
            "1:no budget in the range meets the SLO, or a run " + "failed (the report covers the points tried)",
            "2:bad file or usage (the message names the option)",
            "130:interrupted (Ctrl-C); the report covers the points measured"
        })
public final class TuneCommand implements Callable<Integer> {

    /** The base file without one: linux-cgroup, the study's load, an SLO this kind of host can meet. */
    public static final String DEFAULT_FILE = "experiments/tune-cgroup.yaml";

    /** Runs per point where its first runs disagree, unless --repetitions asks for more. */
    static final int DEFAULT_MAX_REPETITIONS = 4;

    @CommandLine.Spec
    CommandSpec commandSpec;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "FILE",
            description = {
                "base experiment file (linux-cgroup or linux-deadline): CPUs, load, records, warm-up, SLO, "
                        + "job options, interference; its rows give the default periods and budget range and every "
                        + "point's cpus or threads (default: " + DEFAULT_FILE + ")"
            })
    Path file;

    @Option(
            names = "--slo-p99",
            paramLabel = "MS",
            description =
                    "a run meets the SLO when its steady-state p99 is at most this (default: the file's slo.p99_ms)")
    Double sloP99;

    @Option(
            names = "--slo-max",
            paramLabel = "MS",
            description = "... and its steady-state max at most this (default: the file's slo.max_ms)")
    Double sloMax;

    @Option(
            names = "--period-us",
            split = ",",
            paramLabel = "US",
            description = "period(s) to search, repeated or comma-separated; each is bisected and the lowest share "
                    + "of a CPU wins (default: the periods of the file's rows)")
    List<Long> periods;

    @Option(
            names = "--min-budget-us",
            paramLabel = "US",
            description = "lower end of the range, per CPU (default: the smallest budget of the file's rows with that "
                    + "period if below the upper end, else the backend's minimum: 1000 us for linux-cgroup, 2 us for "
                    + "linux-deadline)")
    Long minBudget;

    @Option(
            names = "--max-budget-us",
            paramLabel = "US",
            description = "upper end of the range, tried first (default: the largest budget of the file's rows with "
                    + "that period, or the period)")
    Long maxBudget;

    @Option(
            names = "--resolution-us",
            paramLabel = "US",
            description =
                    "bisect until the smallest passing budget is known to within this (default: 1%% of the period)")
    Long resolution;

    @Option(
            names = "--repetitions",
            paramLabel = "N",
            defaultValue = "2",
            description = "runs per point; a point passes only if every run meets the SLO (default: ${DEFAULT-VALUE})")
    int repetitions;

    @Option(
            names = "--max-repetitions",
            paramLabel = "N",
            description = "runs per point when its first runs disagree (default: " + DEFAULT_MAX_REPETITIONS
                    + ", or --repetitions if that is more)")
    Integer maxRepetitions;

    @Option(
            names = "--records",
            paramLabel = "N",
            description = "records measured per run (default: the file's records)")
    Long records;

    @Option(
            names = "--warmup",
            paramLabel = "TIME",
            description = "each run's warm-up phase: flagged records sent first and kept out of the SLO check, "
                    + "e.g. 30s, 2m; 0 for none (default: the file's warmup)")
    String warmup;

    @Option(
            names = "--warmup-records",
            paramLabel = "N",
            description = "the warm-up as N records in all instead of a time (not with --warmup)")
    Long warmupRecords;

    @Option(
            names = "--steady-after",
            paramLabel = "TIME",
            description = "left out of the steady state, counted from the first measured arrival (default: the "
                    + "file's steady_after, else none)")
    String steadyAfter;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "results folder (default: results/tune/NAME-YYYYMMDD-HHMMSS)")
    Path out;

    @CommandLine.Mixin
    PipelineInputs inputs;

    @CommandLine.Mixin
    KafkaConfigOption kafkaConfig;

    @Option(names = "--dry-run", description = "check the file and options, print the search space; run nothing")
    boolean dryRun;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "show this help")
    boolean help;

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
        System.exit(new CommandLine(new TuneCommand()).execute(args));
    }

    /**
     * What a tune will do, every option checked.
     *
     * @param base    the file's experiment with the options' records, warm-up and SLO
     * @param cpus    every point's cpuset (linux-cgroup), from the file's rows
     * @param threads every point's thread pattern (linux-deadline), from the file's rows
     */
    record Plan(ExperimentSpec base, String cpus, String threads, BudgetSearch.Settings settings) {}

    @Override
    public Integer call() throws Exception {
        PrintWriter err = commandSpec.commandLine().getErr();
        PrintWriter console = commandSpec.commandLine().getOut();
        Path baseFile =
                file != null ? file : org.itsrt.cli.ProjectPaths.locate().root().resolve(DEFAULT_FILE);
        Plan plan;
        try {
            plan = plan(ExperimentSpec.read(baseFile), baseFile);
        } catch (SpecException e) {
            err.println("its-tune: " + e.getMessage().replace("\n", "\nits-tune: "));
            err.flush();
            return 2;
        }
        ExperimentSpec base = plan.base();
        Path dir = RunFolders.orDefault(out, "tune", base.name());
        if (kafkaConfig.file() != null && inputs.clusterDir() == null) {
            err.println("its-tune: --kafka-config is for a Kafka cluster that already runs: give --cluster");
            err.flush();
            return 2;
        }
        KafkaClientConfig clientConfig;
        try {
            clientConfig = kafkaConfig.load();
        } catch (IllegalArgumentException e) {
            err.println("its-tune: --kafka-config " + e.getMessage());
            err.flush();
            return 2;
        }
        // Without usable inputs the search space is still printed (--dry-run); a run is refused below.
        ExperimentRunner.Pipeline pipeline = inputs.missing() == null
                ? ExperimentRunner.Pipeline.local(inputs.data(), inputs.model(), inputs.jobJar())
                        .onCluster(inputs.clusterDir())
                        .withKafkaConfig(clientConfig)
                : null;
        PipelineEvaluator points = new PipelineEvaluator(base, plan.cpus(), plan.threads(), pipeline, dir, System.err);
        console.print(describe(plan, points));
        console.flush();
        if (dryRun) {
            return 0;
        }
        String unusable = Files.exists(dir.resolve(TuneReport.MARKDOWN))
                ? "--out " + dir + " already holds a tune (" + TuneReport.MARKDOWN + ")"
                : evaluator != null ? null : inputs.missing();
        if (unusable != null) {
            err.println("its-tune: " + unusable);
            err.flush();
            return 2;
        }
        Files.createDirectories(dir);
        Files.copy(baseFile, dir.resolve("base.yaml"), StandardCopyOption.REPLACE_EXISTING);
        // A tune killed with kill -9 left its budget on a cluster process that may still run.
        LeftoverRestore.atStart("its-tune", err);
        BudgetSearch search = new BudgetSearch(
                plan.settings(), evaluator != null ? evaluator : points, new Progress(base.name(), System.err));
        ReportOnInterrupt onInterrupt = new ReportOnInterrupt(search, dir, base, baseFile, plan.settings(), err);
        Runtime.getRuntime().addShutdownHook(onInterrupt.hook);
        TuneResult result;
        try {
            result = search.run();
        } catch (RuntimeException | Error e) {
            if (onInterrupt.reportHere()) {
                onInterrupt.reported();
                Runtime.getRuntime().removeShutdownHook(onInterrupt.hook);
            }
            throw e;
        }
        if (!onInterrupt.reportHere()) {
            // Ctrl-C: the hook writes the report of the points measured; the JVM exits when it is done.
            return 130;
        }
        String summary;
        try {
            summary = write(dir, base, baseFile, plan.settings(), result);
        } finally {
            onInterrupt.reported();
            try {
                Runtime.getRuntime().removeShutdownHook(onInterrupt.hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C while the report was written: the hook waits for it and returns
            }
        }
        console.println();
        console.print(summary.replace("**", ""));
        console.println("results: " + dir.resolve(TuneReport.MARKDOWN));
        console.flush();
        return result.best().isPresent() && !result.stoppedEarly() ? 0 : 1;
    }

    private static String write(
            Path dir, ExperimentSpec base, Path baseFile, BudgetSearch.Settings settings, TuneResult result)
            throws java.io.IOException {
        List<RunResult> runs = result.points().stream()
                .flatMap(p -> p.runs().stream())
                .map(TriedPoint.Run::result)
                .toList();
        return TuneReport.write(dir, base, baseFile, settings, result, Environment.facts(runs));
    }

    /**
     * A shutdown hook that, on Ctrl-C (or SIGTERM) during the search, writes tune.md, points.csv and the
     * plot for the points measured so far, marked as interrupted with the point that was running. The
     * budget of the run under way is restored by the scheduling module's own hook, and the run's broker
     * and cluster end with theirs. Exactly one report is written: this one, or the search's own.
     */
    static final class ReportOnInterrupt {

        final Thread hook;
        private final BudgetSearch search;
        private final Path dir;
        private final ExperimentSpec base;
        private final Path baseFile;
        private final BudgetSearch.Settings settings;
        private final PrintWriter err;
        private final java.util.concurrent.CountDownLatch mainReported = new java.util.concurrent.CountDownLatch(1);
        private boolean claimed;

        ReportOnInterrupt(
                BudgetSearch search,
                Path dir,
                ExperimentSpec base,
                Path baseFile,
                BudgetSearch.Settings settings,
                PrintWriter err) {
            this.search = search;
            this.dir = dir;
            this.base = base;
            this.baseFile = baseFile;
            this.settings = settings;
            this.err = err;
            this.hook = new Thread(this::onShutdown, "its-tune-interrupted-report");
            // The report's environment facts load Flink's and Kafka's version classes, which start their
            // logging, which registers a shutdown hook of its own: refused once the JVM is shutting down.
            // Loaded now, the hook finds them ready.
            Environment.facts(List.of());
        }

        /** Whether the search's own report is to be written (false: the hook writes the interrupted one). */
        synchronized boolean reportHere() {
            if (claimed) {
                return false;
            }
            claimed = true;
            return true;
        }

        /** The search's own report is written. */
        void reported() {
            mainReported.countDown();
        }

        private void onShutdown() {
            synchronized (this) {
                if (claimed) {
                    // The search ended and its report is being written: let it finish before the JVM exits.
                    try {
                        mainReported.await(60, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return;
                }
                claimed = true;
            }
            TuneResult sofar = search.interrupt();
            // ImageIO caches PNG output in a temporary file whose cleanup is a shutdown hook, which can no
            // longer be added: write the plot through memory.
            javax.imageio.ImageIO.setUseCache(false);
            long measured = sofar.points().stream()
                    .filter(p -> p.verdict() != org.itsrt.experiment.tune.Verdict.INTERRUPTED)
                    .count();
            try {
                write(dir, base, baseFile, settings, sofar);
                err.println("its-tune: " + sofar.interruption() + "; " + dir.resolve(TuneReport.MARKDOWN) + " and "
                        + TuneReport.CSV + " (and the plot, from two budgets on) cover the " + measured
                        + " point(s) measured");
            } catch (java.io.IOException | RuntimeException | Error e) {
                err.println("its-tune: interrupted; writing the report of the " + measured + " point(s) measured to "
                        + dir + " failed: " + e.getMessage());
            }
            err.flush();
        }
    }

    /** Checks the file's backend and rows and every option against it and the kernel's limits; names each problem. */
    Plan plan(ExperimentSpec spec, Path baseFile) {
        List<String> problems = new ArrayList<>();
        Backend backend = spec.backend();
        if (backend != Backend.LINUX_CGROUP && backend != Backend.LINUX_DEADLINE) {
            throw new SpecException(
                    baseFile + ": backend " + backend.yamlName + ": ./its tune puts budgets on the job's "
                            + "process on this host, so it takes linux-cgroup or linux-deadline"
                            + (backend == Backend.NONE
                                    ? " (none sets no budget)"
                                    : " (xen-* rows are set by ./its experiment --row-command, in Xen's dom0 or on the Docker "
                                            + "Compose stack; ./its experiment --plan prints them)"));
        }
        boolean cgroup = backend == Backend.LINUX_CGROUP;
        String cpus = theRowsOne(spec, Row::cpus, "cpus", baseFile, problems);
        String threads = theRowsOne(spec, Row::threads, "threads", baseFile, problems);

        double p99 = sloP99 != null ? sloP99 : spec.slo().p99Ms();
        double max = sloMax != null ? sloMax : spec.slo().maxMs();
        require(p99 > 0, "--slo-p99 must be > 0 ms, got " + p99, problems);
        require(max > 0, "--slo-max must be > 0 ms, got " + max, problems);
        require(repetitions >= 1, "--repetitions must be >= 1, got " + repetitions, problems);
        int maxReps = maxRepetitions != null ? maxRepetitions : Math.max(DEFAULT_MAX_REPETITIONS, repetitions);
        require(
                maxReps >= repetitions,
                "--max-repetitions must be >= --repetitions (" + repetitions + "), got " + maxReps,
                problems);
        require(records == null || records > 0, "--records must be > 0, got " + records, problems);
        require(resolution == null || resolution >= 1, "--resolution-us must be >= 1, got " + resolution, problems);
        ExperimentSpec base = new ExperimentSpec(
                spec.name(),
                spec.description(),
                backend,
                spec.vcpus(),
                spec.rows(),
                spec.load(),
                records != null ? records : spec.records(),
                spec.repetitions(),
                warmup(spec.warmup()),
                new ExperimentSpec.Slo(p99, max, spec.slo().windowP95Ms()),
                spec.interference(),
                spec.job(),
                spec.study());
        if (warmup != null && warmupRecords != null) {
            problems.add("--warmup and --warmup-records are mutually exclusive: give one");
        }
        require(
                warmupRecords == null || warmupRecords >= 0,
                "--warmup-records must be >= 0, got " + warmupRecords,
                problems);
        // Kept as text like the file's warmup, which the runs hand on to the producers as written.
        for (String[] time : new String[][] {{"--warmup", warmup}, {"--steady-after", steadyAfter}}) {
            if (time[1] != null) {
                try {
                    Durations.parse(time[1], time[0]);
                } catch (BadDurationException e) {
                    problems.add(e.getMessage());
                }
            }
        }

        // The kernel's limits, as the backends and experiment files check them.
        long minPeriod = cgroup ? LinuxLimits.CFS_MIN_PERIOD_US : LinuxLimits.DL_DEFAULT_PERIOD_MIN_US;
        long maxPeriod = cgroup ? LinuxLimits.CFS_MAX_PERIOD_US : LinuxLimits.DL_DEFAULT_PERIOD_MAX_US;
        long backendMin = cgroup ? LinuxLimits.CFS_MIN_QUOTA_US : (LinuxLimits.DL_MIN_RUNTIME_NS + 999) / 1000;
        String kernelMin = cgroup ? "the kernel's minimum quota" : "the kernel's minimum SCHED_DEADLINE runtime";
        require(
                minBudget == null || minBudget >= backendMin,
                "--min-budget-us must be >= " + backendMin + " us for " + backend.yamlName + " (" + kernelMin
                        + "), got " + minBudget,
                problems);

        List<Long> searched = periods != null
                ? periods
                : spec.rows().stream()
                        .map(Row::periodUs)
                        .filter(Objects::nonNull)
                        .distinct()
                        .toList();
        Set<Long> seen = new LinkedHashSet<>();
        List<SearchRange> ranges = new ArrayList<>();
        for (long period : searched) {
            if (!seen.add(period)) {
                problems.add("--period-us " + period + " is given twice");
                continue;
            }
            if (period < minPeriod || period > maxPeriod) {
                problems.add("--period-us must be " + minPeriod + ".." + maxPeriod + " us for " + backend.yamlName
                        + ", got " + period);
                continue;
            }
            List<Long> rowBudgets = spec.rows().stream()
                    .filter(r -> Objects.equals(r.periodUs(), period))
                    .map(Row::budgetUs)
                    .filter(Objects::nonNull)
                    .sorted()
                    .toList();
            long hi = maxBudget != null
                    ? maxBudget
                    : rowBudgets.isEmpty() ? period : rowBudgets.get(rowBudgets.size() - 1);
            long rowsLo = rowBudgets.isEmpty() ? backendMin : rowBudgets.get(0);
            long lo = minBudget != null ? minBudget : rowsLo < hi ? rowsLo : backendMin;
            if (hi > period) {
                problems.add("--max-budget-us must be at most the period (a budget is CPU time per period), got " + hi
                        + " with --period-us " + period);
                continue;
            }
            if (lo >= hi) {
                String where = " (period " + period + " us)";
                problems.add(
                        minBudget != null
                                ? "--min-budget-us " + lo + " must be below the upper bound " + hi + " us" + where
                                : maxBudget != null
                                        ? "--max-budget-us " + hi + " must be above the lower bound " + lo + " us"
                                                + where
                                        : "--period-us " + period + " leaves no budgets to search: " + lo + ".." + hi
                                                + " us");
                continue;
            }
            if (resolution == null || resolution >= 1) {
                long step = resolution != null ? resolution : Math.max(1, period / 100);
                ranges.add(new SearchRange(period, lo, hi, step));
            }
        }
        require(!searched.isEmpty(), "--period-us is required: the file's rows name no period", problems);
        if (!problems.isEmpty()) {
            throw new SpecException(String.join("\n", problems));
        }
        return new Plan(base, cpus, threads, new BudgetSearch.Settings(ranges, repetitions, maxReps, p99, max));
    }

    /** The one value the file's rows give a field (cpus, threads), which every point gets. */
    private static String theRowsOne(
            ExperimentSpec spec,
            java.util.function.Function<Row, String> field,
            String name,
            Path baseFile,
            List<String> problems) {
        Set<String> values = new LinkedHashSet<>();
        spec.rows().forEach(r -> values.add(field.apply(r)));
        if (values.size() > 1) {
            problems.add(
                    baseFile + ": rows: every point of a tune gets the rows' " + name + ", and they differ: " + values);
        }
        return values.isEmpty() ? null : values.iterator().next();
    }

    private static void require(boolean ok, String problem, List<String> problems) {
        if (!ok) {
            problems.add(problem);
        }
    }

    /** The search space in words: periods, ranges, the most runs, what the first point sets. */
    static String describe(Plan plan, PipelineEvaluator points) {
        ExperimentSpec base = plan.base();
        BudgetSearch.Settings s = plan.settings();
        StringBuilder text = new StringBuilder(String.format(
                Locale.ROOT,
                "tune %s: backend %s, %d CPU(s); a run "
                        + "meets the SLO with steady-state p99 <= %s ms, max <= %s ms and every record; %,d records per run "
                        + "at %s records/s per detector, %s%n",
                base.name(),
                base.backend().yamlName,
                base.vcpus(),
                number(s.sloP99Ms()),
                number(s.sloMaxMs()),
                base.records(),
                number(base.load().rateHz()),
                base.warmup().describe(base.load().rateHz(), org.itsrt.producers.ProducerRun.STUDY_DETECTORS.size())));
        for (SearchRange r : s.ranges()) {
            Row top = points.row(r.maxBudgetUs(), r.periodUs());
            text.append(String.format(
                    Locale.ROOT,
                    "  period %d us: budgets %d..%d us to within %d us, at most %d " + "points; the first: %s%n",
                    r.periodUs(),
                    r.minBudgetUs(),
                    r.maxBudgetUs(),
                    r.resolutionUs(),
                    r.maxPoints(),
                    RowBackend.plan(points.pointSpec(top), top)));
        }
        text.append(String.format(
                Locale.ROOT,
                "at most %d runs (%d per point; up to %d at a point whose runs " + "disagree)%n",
                s.maxRuns(),
                s.repetitions(),
                s.maxRepetitions()));
        return text.toString();
    }

    private static String number(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /** One line before and after each run, one per point: runs take minutes, a search an hour. */
    static final class Progress implements BudgetSearch.Listener {

        private final String name;
        private final PrintStream log;
        private final long started = System.nanoTime();
        private int runsDone;

        Progress(String name, PrintStream log) {
            this.name = name;
            this.log = log;
        }

        @Override
        public void starting(int point, long budgetUs, long periodUs, int repetition, int runsPlanned) {
            log.printf(
                    Locale.ROOT,
                    "tune %s: point %d, budget %d/%d us (%.2f%% of a CPU per CPU), run %d of %d%n",
                    name,
                    point,
                    budgetUs,
                    periodUs,
                    100.0 * budgetUs / periodUs,
                    repetition,
                    runsPlanned);
        }

        @Override
        public void ran(int point, long budgetUs, long periodUs, RunResult run, boolean metSlo, int runsLeftAtMost) {
            runsDone++;
            double perRunS = (System.nanoTime() - started) / 1e9 / runsDone;
            log.printf(
                    Locale.ROOT,
                    "tune %s: point %d run %d: steady p50 %.2f p99 %.2f max %.2f ms%s%s: %s; %d run(s) "
                            + "done, at most %d to go (%s)%n",
                    name,
                    point,
                    run.repetition(),
                    run.steady().p50(),
                    run.steady().p99(),
                    run.steady().max(),
                    run.lost() > 0 ? ", " + run.lost() + " records lost" : "",
                    run.exitCode() != 0 ? ", exit code " + run.exitCode() : "",
                    metSlo ? "meets the SLO" : "misses the SLO",
                    runsDone,
                    runsLeftAtMost,
                    eta(perRunS * runsLeftAtMost));
        }

        @Override
        public void tried(TriedPoint point) {
            log.printf(
                    Locale.ROOT,
                    "tune %s: point %d, %d/%d us: %s (%d of %d runs met the SLO)%n",
                    name,
                    point.number(),
                    point.budgetUs(),
                    point.periodUs(),
                    point.verdict().text,
                    point.runsMeetingSlo(),
                    point.runs().size());
        }

        private static String eta(double seconds) {
            long minutes = Math.round(seconds / 60);
            return seconds < 60 ? "under a minute" : "about " + minutes + " min";
        }
    }

    /** The file's warm-up with the command line's overrides: a warm-up given either way replaces the file's. */
    private ExperimentSpec.Warmup warmup(ExperimentSpec.Warmup file) {
        String cut = steadyAfter != null ? steadyAfter : file.steadyAfter();
        if (warmup != null) {
            return new ExperimentSpec.Warmup(warmup, null, cut);
        }
        if (warmupRecords != null) {
            return new ExperimentSpec.Warmup(null, warmupRecords, cut);
        }
        return new ExperimentSpec.Warmup(file.time(), file.records(), cut);
    }
}
