package org.itsrt.demo;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.itsrt.cli.DurationConverter;
import org.itsrt.cli.KafkaClientConfig;
import org.itsrt.cli.KafkaConfigOption;
import org.itsrt.cli.KafkaRefusal;
import org.itsrt.cli.MissingDefaultException;
import org.itsrt.cli.RunFolders;
import org.itsrt.pipeline.BudgetHook;
import org.itsrt.pipeline.JobSpec;
import org.itsrt.pipeline.LoadHook;
import org.itsrt.pipeline.LoadSpec;
import org.itsrt.pipeline.PipelineReport;
import org.itsrt.pipeline.PipelineRun;
import org.itsrt.pipeline.RunResult;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.pipeline.StackSpec;
import org.itsrt.pipeline.profile.Profiler;
import org.itsrt.pipeline.sweep.RateSweep;
import org.itsrt.pipeline.sweep.SweepReport;
import org.itsrt.pipeline.sweep.SweepStep;
import org.itsrt.probe.compare.CompareReport;
import org.itsrt.probe.compare.Distribution;
import org.itsrt.probe.compare.RunLatencies;
import org.itsrt.probe.stats.LatencyKind;
import org.itsrt.producers.ProducerRun;
import org.itsrt.sched.linux.SchedulingException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./its demo}: the whole pipeline on this machine, a command over the pipeline-run library
 * ({@link RunningStack}, {@link PipelineRun}): its options become a {@link StackSpec}, a
 * {@link LoadSpec} and a {@link JobSpec}; the library starts a real Kafka broker (KRaft, child
 * JVM) and the Flink job on a MiniCluster (a child JVM given the job jar, or in this JVM),
 * replays six detectors at 10 Hz and measures every record on {@code its.advice} with the
 * libraries behind {@code ./its produce} and {@code ./its probe}. With {@code --bootstrap-servers}
 * and {@code --flink-rest} it runs the same measurement against a broker and a cluster that
 * already run; {@code --with-floor} measures the identity floor and then the job on one stack.
 */
@Command(
        name = "its-demo",
        mixinStandardHelpOptions = false,
        sortOptions = false,
        description = {
            "Runs the whole pipeline on this machine: a local Kafka broker, the Flink job on a MiniCluster "
                    + "in a child JVM given the job jar (or in this JVM with --flink in-process, or on a cluster that "
                    + "already runs with --flink-rest), one producer per detector and the latency probe; prints progress, "
                    + "then the latency summary; writes a run folder (summary.md, the probe's and the producers' "
                    + "reports)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done",
            "1:a part failed to start or the run failed (the message says which)",
            "2:bad usage",
            "130:interrupted (Ctrl-C); what was measured is still reported"
        })
public final class DemoCommand implements Callable<Integer> {

    /**
     * The warm-up of a full run, in seconds: long enough for the job's JIT compilation, the
     * predictor's and Kafka's caches and Flink's network buffers to settle before the study's
     * 20,000 records are measured (docs/pipeline-run.md, "Warm-up", gives the settle times behind it).
     */
    static final int DEFAULT_WARMUP_S = 60;

    /** The warm-up of {@code --quick}: a third of its 30 s of measured records. */
    static final int QUICK_WARMUP_S = 10;

    /** The warm-up of each sweep step: every step submits the job anew, so each starts cold. */
    static final int SWEEP_WARMUP_S = 20;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--records",
            defaultValue = "20000",
            paramLabel = "N",
            description = "measured records to send, all detectors together, after the warm-up (default: "
                    + "${DEFAULT-VALUE}, the study's run)")
    long records;

    @Option(
            names = "--quick",
            description = "a 30-second run: 30 s of measured records at the rate, after a 10 s warm-up")
    boolean quick;

    @CommandLine.Mixin
    PipelineInputs inputs;

    @Option(
            names = "--rate",
            defaultValue = "10",
            paramLabel = "HZ",
            description = "records per second per detector (default: ${DEFAULT-VALUE}, the study's load)")
    double rate;

    @Option(
            names = "--identity",
            description =
                    "replace predict and route by an identity step: the stack's own floor, same records, same path")
    boolean identity;

    @Option(
            names = "--with-floor",
            description = "first the identity floor, then the job, one after the other on the same broker and cluster: "
                    + "floor/ and job/ run folders and compare.md, the job's cost over the floor from one invocation")
    boolean withFloor;

    @Option(
            names = "--parallelism",
            defaultValue = "1",
            paramLabel = "N",
            description = "job parallelism (default: ${DEFAULT-VALUE})")
    int parallelism;

    @Option(
            names = "--flink",
            defaultValue = "standalone",
            paramLabel = "WHERE",
            description = "where the job's cluster runs: standalone (a JobManager process and TaskManager processes "
                    + "from Flink's own entry points, the job jar submitted as to any real cluster; default), child "
                    + "(a MiniCluster in one child JVM with Flink and TensorFlow on its class path) or in-process (a "
                    + "MiniCluster in this JVM, sharing its heap with the producers and the probe)")
    String flink;

    @Option(
            names = "--taskmanagers",
            defaultValue = "1",
            paramLabel = "N",
            description = "with --flink standalone: TaskManager processes, each with --parallelism slots, the job's "
                    + "subtasks spread evenly over them (default: ${DEFAULT-VALUE})")
    int taskManagers;

    @Option(
            names = "--ha",
            description = "with --flink standalone: a ZooKeeper server, and the JobManager elected through it")
    boolean ha;

    @Option(
            names = "--flink-jvm-arg",
            paramLabel = "ARG",
            description = "a JVM option for the cluster the demo starts (the child JVM, or the standalone "
                    + "cluster's processes; repeatable), e.g. --flink-jvm-arg=-XX:+UseZGC")
    List<String> flinkJvmArgs = new ArrayList<>();

    @Option(
            names = "--flink-rest",
            paramLabel = "URL",
            description = "submit the job jar to a Flink cluster that already runs, at this REST address (e.g. "
                    + "http://rt-vm:8081; its lib/ set up as docs/job.md says) instead of starting one; the cluster "
                    + "is left running, the job is cancelled at the end")
    java.net.URI flinkRest;

    @Option(
            names = "--cluster-pid",
            paramLabel = "PID",
            description = "with --flink-rest: the TaskManager's process, where it runs on this host (what "
                    + "./its experiment applies a Linux budget to)")
    Long clusterPid;

    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT",
            description = "use a Kafka cluster that already runs instead of starting a local broker; the pipeline's "
                    + "topics are created there when missing")
    String bootstrapServers;

    @CommandLine.Mixin
    KafkaConfigOption kafkaConfig;

    @Option(
            names = "--secure",
            description = "start the local broker secured: SASL_SSL, SCRAM-SHA-512 users and ACLs; producers, job and "
                    + "probe connect as their own users (docs/security.md)")
    boolean secure;

    @Option(
            names = "--broker-heap",
            defaultValue = "512m",
            paramLabel = "SIZE",
            description = "the local broker's heap, -Xms and -Xmx (default: ${DEFAULT-VALUE})")
    String brokerHeap;

    @Option(
            names = "--broker-jvm-arg",
            paramLabel = "ARG",
            description = "a JVM option for the local broker (repeatable); a collector chosen here (e.g. "
                    + "--broker-jvm-arg=-XX:+UseZGC) replaces the default G1 with a 20 ms pause goal")
    List<String> brokerJvmArgs = new ArrayList<>();

    @Option(
            names = "--pin",
            paramLabel = "PART=CPUS",
            description = "pin every thread of a part to CPUs with taskset (repeatable): broker (the local broker), "
                    + "flink (the child cluster), clients (the producers and the probe: this JVM); e.g. "
                    + "--pin flink=1 --pin broker=0 --pin clients=0")
    Map<String, String> pins = new LinkedHashMap<>();

    @Option(
            names = "--cpu-latency-us",
            paramLabel = "US",
            description = "hold this host's CPU latency request at US microseconds while the stack runs "
                    + "(/dev/cpu_dma_latency; needs root; the kernel ends it with this process): 0 keeps idle CPUs "
                    + "polling instead of halting, so a task that wakes finds its core and caches as it left them; "
                    + "the host pays with CPUs that never idle (docs/scheduling.md)")
    Integer cpuLatencyUs;

    @Option(
            names = "--job-arg",
            paramLabel = "KEY=VALUE",
            description = "a job option, passed as --KEY VALUE (repeatable), e.g. --job-arg engine=tensorflow")
    Map<String, String> jobArgs = new LinkedHashMap<>();

    @Option(
            names = "--producer-prop",
            paramLabel = "KEY=VALUE",
            description =
                    "a Kafka producer setting for the detector producers (repeatable), e.g. linger.ms=5 for throughput")
    Map<String, String> producerProps = new LinkedHashMap<>();

    @Option(
            names = "--consumer-prop",
            paramLabel = "KEY=VALUE",
            description = "a Kafka consumer setting for the probe (repeatable)")
    Map<String, String> consumerProps = new LinkedHashMap<>();

    @Option(
            names = "--warmup",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "a warm-up phase before the measured records: the producers send flagged records for this "
                    + "long first, on the same schedule, and the probe reports them apart; 0 for none, today's runs "
                    + "(default: " + DEFAULT_WARMUP_S + "s; " + QUICK_WARMUP_S + "s with --quick)")
    Duration warmup;

    @Option(
            names = "--warmup-records",
            paramLabel = "N",
            description = "the warm-up as N records in all instead of a time (not with --warmup)")
    Long warmupRecords;

    @Option(
            names = "--steady-after",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "left out of the steady-state rows, counted from the first measured arrival (default: 0 "
                    + "with a warm-up, which already keeps the start out; without one 120s, 10s with --quick)")
    Duration steadyAfter;

    @Option(
            names = "--slo-ms",
            defaultValue = "20",
            paramLabel = "MS",
            description = "SLO for a window's p95 (default: ${DEFAULT-VALUE})")
    double sloMs;

    @Option(
            names = "--profile",
            description = "profile every JVM of the run from the first record sent to the last measured: JDK Flight "
                    + "Recorder on the broker, the cluster's processes and this JVM, and each process's CPU time; "
                    + "writes profile/ (profile.md: cores and CPU µs per record per JVM, hot methods, heaviest "
                    + "stacks, allocation; the .jfr files; cpu.csv)")
    boolean profile;

    @Option(
            names = "--sweep",
            paramLabel = "RATES",
            description = "step the offered rate on one broker and cluster: total records/s of all detectors per "
                    + "step, e.g. 1000,3000,6000,10000; writes sweep.md, sweep.csv and sweep.png (--rate, --records "
                    + "and --quick do not apply)")
    String sweep;

    @Option(
            names = "--step-duration",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "with --sweep: how long each step sends its measured records (default: 60s), after a "
                    + "warm-up of --warmup at the step's rate (default with --sweep: " + SWEEP_WARMUP_S + "s)")
    Duration stepDuration;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "run folder (default: results/demo/YYYYMMDD-HHMMSS, UTC)")
    Path out;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "show this help")
    boolean help;

    /** Folders of the two runs of --with-floor. */
    private static final String FLOOR_DIR = "floor";

    private static final String JOB_DIR = "job";

    private volatile RunningStack running;
    private volatile boolean interrupted;

    public static void main(String[] args) {
        // The probe draws its plots off-screen.
        System.setProperty("java.awt.headless", "true");
        System.exit(new CommandLine(new DemoCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        StackSpec stack;
        LoadSpec load;
        JobSpec job;
        try {
            stack = stackSpec();
            load = loadSpec();
            job = new JobSpec(inputs.model(), identity, jobArgs);
        } catch (IllegalArgumentException | MissingDefaultException | java.nio.file.NoSuchFileException e) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    e instanceof java.nio.file.NoSuchFileException missing ? missing.getReason() : e.getMessage());
        }
        Path run = RunFolders.orDefault(out, "demo");
        if (Files.exists(run.resolve("summary.md")) || Files.exists(run.resolve(CompareReport.MARKDOWN))) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out " + run + " already holds a run");
        }
        Files.createDirectories(run);
        PrintStream log = System.err;

        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    interrupted = true;
                    RunningStack stack0 = running;
                    if (stack0 != null) {
                        stack0.stop();
                    }
                    try {
                        // Wait for the report of what was measured and for the clean-up.
                        finished.await(90, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "its-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try (RunningStack started = RunningStack.start(stack, run.resolve(PipelineRun.FLINK_TMP), log)) {
            running = started;
            if (interrupted) {
                started.stop();
            }
            return runPhases(started, load, job, run);
        } catch (ProducerRun.NotReplayable e) {
            // Its message names the table, the topic or the user the cluster refused.
            log.println("its-demo: " + e.getMessage());
            return 1;
        } catch (SchedulingException e) {
            // A host setting the run could not hold (--cpu-latency-us): the device and what it needs.
            log.println("its-demo: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            // A cluster that refused a login or an ACL: one line naming the user, not a stack trace.
            var refused = KafkaRefusal.explain(
                    e, kafkaConfig.load(), bootstrapServers != null ? bootstrapServers : "the run's brokers");
            if (refused.isEmpty()) {
                throw e;
            }
            log.println("its-demo: " + refused.get());
            return 1;
        } finally {
            running = null;
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and lets the JVM exit once it returns.
            }
        }
    }

    private int runPhases(RunningStack stack, LoadSpec load, JobSpec job, Path run) throws Exception {
        if (sweepPlan != null) {
            return runSweep(stack, load, job, run);
        }
        List<JobSpec> phases = withFloor ? List.of(job.asIdentity(), job.asFullJob()) : List.of(job);
        int exit = 0;
        for (JobSpec phase : phases) {
            if (interrupted) {
                break;
            }
            Path dir = withFloor ? run.resolve(phase.identity() ? FLOOR_DIR : JOB_DIR) : run;
            Profiler profiler = profile
                    ? new Profiler(
                            dir.resolve("profile"),
                            stack.processes(),
                            load.warmupDuration().plus(load.steadyAfter()),
                            System.err)
                    : null;
            RunResult result =
                    stack.measure(load, phase, BudgetHook.NONE, profiler == null ? LoadHook.NONE : profiler, dir);
            report(load, result);
            if (profiler != null) {
                Path written = profiler.write(result);
                if (written != null) {
                    System.out.println("profile: " + written);
                }
            }
            exit = Math.max(exit, result.exitCode());
        }
        if (withFloor && !interrupted) {
            compareFloorAndJob(run);
        }
        return interrupted ? RunResult.INTERRUPTED : exit;
    }

    private int runSweep(RunningStack stack, LoadSpec base, JobSpec job, Path run) throws Exception {
        List<String> facts = List.of(
                "job: " + (job.identity() ? "identity" : "predict and route") + ", options " + job.options()
                        + ", parallelism " + parallelism,
                String.format(
                        Locale.ROOT,
                        "each step a warm-up of %s, then %s measured, at its rate over %d detectors",
                        sweepPlan.warmup(),
                        sweepPlan.stepDuration(),
                        base.detectors().size()),
                "producer settings " + base.producerProperties(),
                stack.describe());
        List<SweepStep> steps =
                RateSweep.run(stack, base, job, sweepPlan, profile, run, facts, () -> interrupted, System.err);
        System.out.println();
        System.out.print(SweepReport.markdown(steps, List.of(), interrupted));
        System.out.println("sweep: " + run.resolve(SweepReport.MARKDOWN));
        boolean allOk = steps.stream().allMatch(s -> s.exitCode() == RunResult.OK);
        return interrupted ? RunResult.INTERRUPTED : allOk ? 0 : 1;
    }

    /** The run on the console: the title line, the latency table, delivery, where the reports are. */
    private static void report(LoadSpec load, RunResult result) {
        PipelineReport report = new PipelineReport(result);
        Path summary = result.dir().resolve("summary.md");
        System.out.printf(
                Locale.ROOT,
                "%n%s: %,d of %,d records measured end to end%n",
                (result.identity() ? "Demo run: identity floor" : "Demo run: the ITS pipeline"),
                result.probe().records().measured(),
                load.records());
        System.out.println(report.latencyTable());
        System.out.println(report.deliveryLine());
        String settle = report.settleLine();
        if (settle != null && result.probe().warmup().records() > 0) {
            System.out.println("warm-up: " + settle);
        }
        System.out.println("results: " + summary + " (probe: "
                + result.dir().resolve("probe").resolve("summary.md") + ", producers: "
                + result.dir().resolve("producer.md") + ")");
    }

    /** compare.md and the ECDF overlay of the two phases, and the table on the console. */
    private void compareFloorAndJob(Path run) throws Exception {
        long windowNs = Duration.ofSeconds(1).toNanos();
        long sloNs = Math.round(sloMs * 1e6);
        List<Distribution> rows = List.of(
                RunLatencies.read(run.resolve(FLOOR_DIR).resolve("probe"), LatencyKind.FROM_INTENDED, windowNs, sloNs)
                        .withLabel("identity floor"),
                RunLatencies.read(run.resolve(JOB_DIR).resolve("probe"), LatencyKind.FROM_INTENDED, windowNs, sloNs)
                        .withLabel("job (predict + route)"));
        String table = CompareReport.write(run, rows, sloMs, 1);
        System.out.println();
        System.out.println(
                "The job against its floor, same broker and cluster, one after the other (ms, from intended):");
        System.out.print(table);
        System.out.printf(
                Locale.ROOT,
                "job - floor: p50 %+.2f ms, p99 %+.2f ms%n",
                rows.get(1).p50Ms() - rows.get(0).p50Ms(),
                rows.get(1).p99Ms() - rows.get(0).p99Ms());
        System.out.println("comparison: " + run.resolve(CompareReport.MARKDOWN));
    }

    /**
     * The broker, the cluster, the pins and the host's CPU latency request the options ask for;
     * conflicting options are refused here.
     */
    private StackSpec stackSpec() throws java.io.IOException, InterruptedException {
        StackSpec stack = stackParts();
        return cpuLatencyUs == null ? stack : stack.withCpuLatencyUs(cpuLatencyUs);
    }

    private StackSpec stackParts() throws java.io.IOException, InterruptedException {
        if (clusterPid != null && flinkRest == null) {
            throw new IllegalArgumentException("--cluster-pid goes with --flink-rest (a child cluster's pid is known)");
        }
        if (flinkRest != null && !flinkJvmArgs.isEmpty()) {
            throw new IllegalArgumentException(
                    "--flink-jvm-arg is for a cluster the demo starts, not one at --flink-rest");
        }
        if (bootstrapServers != null && !brokerJvmArgs.isEmpty()) {
            throw new IllegalArgumentException(
                    "--broker-jvm-arg is for a broker the demo starts, not one at " + "--bootstrap-servers");
        }
        if (secure && (bootstrapServers != null || inputs.clusterDir() != null)) {
            throw new IllegalArgumentException("--secure is for the broker the demo starts; a cluster that already "
                    + "runs is reached with --kafka-config FILE");
        }
        KafkaClientConfig clientConfig = kafkaConfig.load();
        if (parallelism < 1) {
            throw new IllegalArgumentException("--parallelism must be >= 1, got " + parallelism);
        }
        boolean standalone = "standalone".equals(flink);
        if (!standalone && (taskManagers != 1 || ha)) {
            throw new IllegalArgumentException("--taskmanagers and --ha are for --flink standalone");
        }
        if (inputs.clusterDir() != null) {
            if (flinkRest != null
                    || bootstrapServers != null
                    || !flinkJvmArgs.isEmpty()
                    || !brokerJvmArgs.isEmpty()
                    || taskManagers != 1
                    || ha) {
                throw new IllegalArgumentException("--cluster brings its own brokers and JobManagers: it goes without "
                        + "--flink-rest, --bootstrap-servers, --taskmanagers, --ha and the JVM options of parts the "
                        + "demo would start");
            }
            return StackSpec.onCluster(inputs.clusterDir(), inputs.jobJar(), parallelism, pins)
                    .withKafkaConfig(clientConfig);
        }
        List<String> brokerArgs = profile ? withJfr(brokerJvmArgs) : brokerJvmArgs;
        List<String> clusterArgs = profile ? withJfr(flinkJvmArgs) : flinkJvmArgs;
        StackSpec.Broker broker = bootstrapServers != null
                ? new StackSpec.Broker.Existing(bootstrapServers)
                : new StackSpec.Broker.Local(brokerHeap, brokerArgs, secure);
        StackSpec.Cluster cluster;
        if (flinkRest != null) {
            cluster = new StackSpec.Cluster.Existing(
                    flinkRest,
                    inputs.jobJar(),
                    clusterPid == null ? OptionalLong.empty() : OptionalLong.of(clusterPid));
        } else if (standalone) {
            cluster = new StackSpec.Cluster.Standalone(inputs.jobJar(), clusterArgs, taskManagers, ha);
        } else if ("child".equals(flink)) {
            cluster = new StackSpec.Cluster.Child(inputs.jobJar(), clusterArgs);
        } else if ("in-process".equals(flink)) {
            cluster = new StackSpec.Cluster.InProcess();
        } else {
            throw new IllegalArgumentException("--flink must be standalone, child or in-process, got " + flink);
        }
        return new StackSpec(broker, cluster, parallelism, pins).withKafkaConfig(clientConfig);
    }

    /** {@code args} and the flight recording that --profile dumps at the end of the load. */
    private static List<String> withJfr(List<String> args) {
        List<String> all = new ArrayList<>(args);
        all.add(Profiler.JVM_OPTION);
        return all;
    }

    /** The sweep's steps, null without --sweep; set by {@link #loadSpec()}. */
    RateSweep.Plan sweepPlan;

    LoadSpec loadSpec() {
        if (sweep != null) {
            if (quick || withFloor) {
                throw new IllegalArgumentException("--sweep goes without --quick and --with-floor");
            }
            if (warmupRecords != null) {
                throw new IllegalArgumentException("--sweep takes --warmup TIME, the same time at every step's rate");
            }
            sweepPlan = new RateSweep.Plan(
                    RateSweep.Plan.parseRates(sweep),
                    stepDuration != null ? stepDuration : Duration.ofSeconds(60),
                    warmup != null ? warmup : Duration.ofSeconds(SWEEP_WARMUP_S));
            // A template: each step sets its own rate, records and warm-up records.
            return new LoadSpec(
                    inputs.data(),
                    ProducerRun.STUDY_DETECTORS,
                    1,
                    1,
                    steadyAfter != null ? steadyAfter : Duration.ZERO,
                    sloMs,
                    producerProps,
                    consumerProps);
        }
        if (stepDuration != null) {
            throw new IllegalArgumentException("--step-duration goes with --sweep");
        }
        if (records <= 0) {
            throw new IllegalArgumentException("--records must be > 0, got " + records);
        }
        if (warmup != null && warmupRecords != null) {
            throw new IllegalArgumentException("--warmup and --warmup-records are mutually exclusive: give one");
        }
        if (warmupRecords != null && warmupRecords < 0) {
            throw new IllegalArgumentException("--warmup-records must be >= 0, got " + warmupRecords);
        }
        long total = quick ? Math.round(rate * ProducerRun.STUDY_DETECTORS.size() * 30) : records;
        long warmupTotal = warmupRecords != null
                ? warmupRecords
                : ProducerRun.warmupRecordsOf(
                        warmup != null ? warmup : Duration.ofSeconds(quick ? QUICK_WARMUP_S : DEFAULT_WARMUP_S),
                        rate,
                        ProducerRun.STUDY_DETECTORS.size());
        // Without a warm-up phase the steady-state rows cut the start as they always did.
        Duration cut = steadyAfter != null
                ? steadyAfter
                : warmupTotal > 0 ? Duration.ZERO : Duration.ofSeconds(quick ? 10 : 120);
        return new LoadSpec(
                inputs.data(),
                ProducerRun.STUDY_DETECTORS,
                rate,
                total,
                cut,
                sloMs,
                producerProps,
                consumerProps,
                warmupTotal);
    }
}
