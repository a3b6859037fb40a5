package org.itsrt.pipeline.plan;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.itsrt.cli.MissingDefaultException;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.job.config.JobSettingsException;
import org.itsrt.kafka.KafkaRefusal;
import org.itsrt.pipeline.BudgetHook;
import org.itsrt.pipeline.JobSpec;
import org.itsrt.pipeline.LoadHook;
import org.itsrt.pipeline.LoadSpec;
import org.itsrt.pipeline.PipelineReport;
import org.itsrt.pipeline.PipelineRun;
import org.itsrt.pipeline.RunResult;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.pipeline.StackSpec;
import org.itsrt.pipeline.budget.Budgets;
import org.itsrt.pipeline.district.DistrictCache;
import org.itsrt.pipeline.profile.Profiler;
import org.itsrt.pipeline.sweep.RateSweep;
import org.itsrt.pipeline.sweep.SweepReport;
import org.itsrt.pipeline.sweep.SweepStep;
import org.itsrt.probe.compare.CompareReport;
import org.itsrt.probe.compare.Distribution;
import org.itsrt.probe.compare.RunLatencies;
import org.itsrt.probe.stats.LatencyKind;
import org.itsrt.producers.ProducerRun;
import org.itsrt.records.Workload;
import org.itsrt.scheduling.linux.SchedulingException;

/**
 * Runs a {@link RunPlan}: resolves it ({@link #prepare}, which fails before anything starts),
 * starts its stack once, measures its phases on it (one run, the floor then the job, or a rate
 * sweep; each profiled when planned), prints each phase's summary and writes the run folder.
 * {@link #stop()} from another thread (Ctrl-C) ends the run early; what was measured is still
 * reported.
 */
public final class PlanRunner {

    /** Folders of the two runs of {@link PhasePlan.Run#FLOOR_THEN_JOB}. */
    static final String FLOOR_DIR = "floor";

    static final String JOB_DIR = "job";

    private final PrintStream console;
    private final PrintStream log;
    private volatile RunningStack running;
    private volatile boolean stopped;

    /**
     * @param console where the summaries go
     * @param log     where progress lines go (records sent and received, ETA) and one-line refusals
     */
    public PlanRunner(PrintStream console, PrintStream log) {
        this.console = console;
        this.log = log;
    }

    /**
     * A plan resolved into what a run starts, every input found and every file read.
     *
     * @param folder the run folder, not yet holding a run
     */
    public record Prepared(RunPlan plan, StackSpec stack, LoadSpec load, JobSpec job, Path folder) {}

    /**
     * Resolves {@code plan}: the repository's sample, model and job jar where the plan names none,
     * a cluster's descriptor, the client properties file; refuses a run folder that holds a run.
     *
     * @throws IllegalArgumentException naming the option and field that cannot be used
     */
    public static Prepared prepare(RunPlan plan) throws java.io.IOException, InterruptedException {
        return prepare(plan, System.err);
    }

    /**
     * As {@link #prepare(RunPlan)}; a district the plan runs is made ready first (generated and
     * imported where the repository's cache lacks it, its graph checked), with a line on {@code log}
     * for each step that takes time.
     */
    public static Prepared prepare(RunPlan plan, PrintStream log) throws java.io.IOException, InterruptedException {
        StackSpec stack;
        LoadSpec load;
        JobSpec job;
        try {
            stack = plan.stack().toSpec(plan.phases().profile());
            LoadPlan l = plan.load();
            Map<String, String> jobOptions =
                    new java.util.LinkedHashMap<>(plan.job().options());
            if (l.workload() == Workload.DISTRICT) {
                DistrictCache.Ready district = DistrictCache.ofRepository(log).resolve(l.district());
                load = new LoadSpec(l.data() != null ? l.data() : district.table(), l, district.meta());
                // The job routes over the district's graph and answers its requests (docs/job.md, section 8).
                jobOptions.put("workload", Workload.DISTRICT.option());
                jobOptions.put("graph-meta", district.meta().toAbsolutePath().toString());
            } else {
                Path data = l.data() != null ? l.data() : ProjectPaths.locate().sampleTable();
                // A sweep's steps each set their own rate, records and warm-up over this load.
                load = new LoadSpec(data, l);
            }
            job = new JobSpec(
                    modelOf(plan), plan.job().identity(), jobOptions, plan.job().startTimeout());
            checkJobOptions(job, stack.slots());
        } catch (MissingDefaultException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(StackPlan.CLUSTER + ": " + e.getReason(), e);
        }
        Path folder = plan.runFolder();
        if (Files.exists(folder.resolve("summary.md")) || Files.exists(folder.resolve(CompareReport.MARKDOWN))) {
            throw OutputPlan.DIR.refused(": " + folder + " already holds a run");
        }
        return new Prepared(plan, stack, load, job, folder);
    }

    /**
     * What {@link #prepare} checks of the job for a plan that is only printed: its options as the
     * job reads them, against the plan's model or the shipped one. A district plan's options are
     * checked against the study network, since the district's graph is made only for a run.
     *
     * @throws PlanException naming the job option and what it expects
     */
    public static void checkJob(RunPlan plan) {
        Map<String, String> options = new java.util.LinkedHashMap<>(plan.job().options());
        if (plan.load().workload() == Workload.DISTRICT) {
            options.putIfAbsent("workload", Workload.DISTRICT.option());
        }
        checkJobOptions(
                new JobSpec(
                        modelOf(plan),
                        plan.job().identity(),
                        options,
                        plan.job().startTimeout()),
                plan.stack().parallelism());
    }

    /** The plan's model bundle, or the repository's where it names none. */
    private static Path modelOf(RunPlan plan) {
        return plan.job().model() != null
                ? plan.job().model()
                : ProjectPaths.locate().modelBundle();
    }

    /**
     * The job's options read as {@code flink run} will read them (names, types, ranges, the model
     * bundle, the graph), so that a bad one is refused before a broker or a cluster starts rather
     * than when the job is submitted. The run's Kafka ends are not known yet: a placeholder
     * address stands in, which nothing connects to.
     */
    private static void checkJobOptions(JobSpec job, int parallelism) {
        try {
            PipelineRun.jobSettings(job, "localhost:9092", parallelism);
        } catch (JobSettingsException e) {
            throw JobPlan.refused(e);
        }
    }

    /**
     * Runs a prepared plan: 0 when every phase measured every record, 1 when a part failed (one
     * line on the log says which), 130 when stopped.
     */
    public int run(Prepared prepared) throws Exception {
        Files.createDirectories(prepared.folder());
        try (RunningStack started =
                RunningStack.start(prepared.stack(), prepared.folder().resolve(PipelineRun.FLINK_TMP), log)) {
            running = started;
            if (stopped) {
                started.stop();
            }
            return runPhases(started, prepared);
        } catch (org.itsrt.pipeline.JobStartException e) {
            log.println("its-demo: the job did not get ready, nothing was measured: " + e.getMessage());
            return RunResult.FAILED;
        } catch (ProducerRun.NotReplayable | SchedulingException e) {
            // The table, the topic or the user the cluster refused; a host setting the run could not
            // hold (the CPU latency request): one line naming it.
            log.println("its-demo: " + e.getMessage());
            return RunResult.FAILED;
        } catch (RuntimeException e) {
            // A cluster that refused a login or an ACL: one line naming the user, not a stack trace.
            var refused = KafkaRefusal.explain(
                    e, prepared.stack().kafkaConfig(), prepared.stack().brokerName());
            if (refused.isEmpty()) {
                throw e;
            }
            log.println("its-demo: " + refused.get());
            return RunResult.FAILED;
        } finally {
            running = null;
        }
    }

    /** Ends the run from another thread; {@link #run} returns what was measured, exit code 130. */
    public void stop() {
        stopped = true;
        RunningStack stack = running;
        if (stack != null) {
            stack.stop();
        }
    }

    private int runPhases(RunningStack stack, Prepared prepared) throws Exception {
        PhasePlan phases = prepared.plan().phases();
        if (phases.run() == PhasePlan.Run.SWEEP) {
            return runSweep(stack, prepared);
        }
        boolean withFloor = phases.run() == PhasePlan.Run.FLOOR_THEN_JOB;
        JobSpec job = prepared.job();
        List<JobSpec> runs = withFloor ? List.of(job.asIdentity(), job.asFullJob()) : List.of(job);
        int exit = RunResult.OK;
        for (JobSpec phase : runs) {
            if (stopped) {
                break;
            }
            Path dir =
                    withFloor ? prepared.folder().resolve(phase.identity() ? FLOOR_DIR : JOB_DIR) : prepared.folder();
            LoadSpec load = prepared.load();
            Profiler profiler = phases.profile()
                    ? new Profiler(
                            dir.resolve("profile"),
                            stack.processes(),
                            load.warmupDuration().plus(load.steadyAfter()),
                            log)
                    : null;
            BudgetHook budget = Budgets.hook(prepared.plan().budget(), new AtomicReference<>(Map.of()), log);
            RunResult result = stack.measure(load, phase, budget, profiler == null ? LoadHook.NONE : profiler, dir);
            report(load, result);
            if (profiler != null) {
                Path written = profiler.write(result);
                if (written != null) {
                    console.println("profile: " + written);
                }
            }
            exit = Math.max(exit, result.exitCode());
        }
        if (withFloor && !stopped) {
            compareFloorAndJob(prepared.folder(), prepared.load().sloMs());
        }
        return stopped ? RunResult.INTERRUPTED : exit;
    }

    private int runSweep(RunningStack stack, Prepared prepared) throws Exception {
        RateSweep.Plan sweep = prepared.plan().phases().sweep();
        LoadSpec base = prepared.load();
        JobSpec job = prepared.job();
        List<String> facts = List.of(
                "job: " + (job.identity() ? "identity" : "predict and route") + ", options " + job.options()
                        + ", parallelism " + prepared.stack().slots(),
                String.format(
                        Locale.ROOT,
                        "each step a warm-up of %s, then %s measured, at its rate over %d detectors",
                        sweep.warmup(),
                        sweep.stepDuration(),
                        base.detectors().size()),
                "producer settings " + base.producerProperties(),
                stack.describe());
        List<SweepStep> steps = RateSweep.run(
                stack,
                base,
                job,
                sweep,
                prepared.plan().phases().profile(),
                prepared.folder(),
                facts,
                () -> stopped,
                log);
        console.println();
        console.print(SweepReport.markdown(steps, List.of(), stopped));
        console.println("sweep: " + prepared.folder().resolve(SweepReport.MARKDOWN));
        boolean allOk = steps.stream().allMatch(s -> s.exitCode() == RunResult.OK);
        return stopped ? RunResult.INTERRUPTED : allOk ? RunResult.OK : RunResult.FAILED;
    }

    /** The run on the console: the title line, the latency table, delivery, where the reports are. */
    private void report(LoadSpec load, RunResult result) {
        PipelineReport report = new PipelineReport(result);
        Path summary = result.dir().resolve("summary.md");
        console.printf(
                Locale.ROOT,
                "%n%s: %,d of %,d records measured end to end%n",
                (result.identity() ? "Demo run: identity floor" : "Demo run: the ITS pipeline"),
                result.probe().records().measured(),
                load.records());
        if (result.requests() != null && load.plan().sendsRequests()) {
            console.printf(
                    Locale.ROOT,
                    "and %,d of %,d route requests answered%n",
                    result.requests().answers().records().measured(),
                    load.plan().requestRecords());
        }
        console.println(report.latencyTable());
        console.println(report.deliveryLine());
        String settle = report.settleLine();
        if (settle != null && result.probe().warmup().records() > 0) {
            console.println("warm-up: " + settle);
        }
        console.println("results: " + summary + " (probe: "
                + result.dir().resolve("probe").resolve("summary.md") + ", producers: "
                + result.dir().resolve("producer.md") + ")");
    }

    /** compare.md and the ECDF overlay of the two phases, and the table on the console. */
    private void compareFloorAndJob(Path run, double sloMs) throws Exception {
        long windowNs = Duration.ofSeconds(1).toNanos();
        long sloNs = Math.round(sloMs * 1e6);
        List<Distribution> rows = List.of(
                RunLatencies.read(run.resolve(FLOOR_DIR).resolve("probe"), LatencyKind.FROM_INTENDED, windowNs, sloNs)
                        .withLabel("identity floor"),
                RunLatencies.read(run.resolve(JOB_DIR).resolve("probe"), LatencyKind.FROM_INTENDED, windowNs, sloNs)
                        .withLabel("job (predict + route)"));
        String table = CompareReport.write(run, rows, sloMs, 1);
        console.println();
        console.println("The job against its floor, same broker and cluster, one after the other (ms, from intended):");
        console.print(table);
        console.printf(
                Locale.ROOT,
                "job - floor: p50 %+.2f ms, p99 %+.2f ms%n",
                rows.get(1).p50Ms() - rows.get(0).p50Ms(),
                rows.get(1).p99Ms() - rows.get(0).p99Ms());
        console.println("comparison: " + run.resolve(CompareReport.MARKDOWN));
    }
}
