package org.itsrt.demo;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.itsrt.job.ItsJob;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.kafka.KafkaJobIO;
import org.itsrt.stack.kafka.LocalKafka;
import org.itsrt.probe.ProbeCommand;
import org.itsrt.probe.ProbeRun;
import org.itsrt.probe.compare.CompareReport;
import org.itsrt.probe.compare.Distribution;
import org.itsrt.probe.compare.RunLatencies;
import org.itsrt.probe.stats.LatencyKind;
import org.itsrt.producers.ProducerCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code its-demo}: the whole pipeline on this machine. A real Kafka broker (KRaft, child JVM),
 * the Flink job on a MiniCluster (a child JVM given the job jar, or in this JVM), submitted over
 * REST as to a session cluster, the producer CLI replaying six detectors at 10 Hz and the probe on
 * {@code its.advice}: the same programs with the same options a deployment runs, so the demo
 * measures what a deployment would. With {@code --bootstrap-servers} and {@code --flink-rest} it
 * runs the same measurement against a broker and a cluster that already run.
 */
@Command(name = "its-demo", mixinStandardHelpOptions = false, sortOptions = false,
        description = {"Runs the whole pipeline on this machine: a local Kafka broker, the Flink job on an embedded "
                + "MiniCluster, one producer per detector and the latency probe; prints progress, then the latency "
                + "summary; writes a run folder (summary.md, the probe's and the producers' reports)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:a part failed to start or the run failed (the message says which)",
                "2:bad usage", "130:interrupted (Ctrl-C); what was measured is still reported"})
public final class DemoCommand implements Callable<Integer> {

    private static final String READINGS = org.itsrt.records.Topics.READINGS;
    private static final String ADVICE = org.itsrt.records.Topics.ADVICE;
    private static final String DEAD_LETTERS = org.itsrt.records.Topics.DEAD_LETTERS;
    private static final String FLOOR_DIR = "floor";
    private static final String JOB_DIR = "job";

    @Spec
    private CommandSpec spec;

    @Option(names = "--records", defaultValue = "20000", paramLabel = "N",
            description = "records to send and measure, all detectors together (default: ${DEFAULT-VALUE}, the study's run)")
    long records;

    @Option(names = "--quick", description = "a 30-second run: 30 s of records at the rate, 10 s warm-up")
    boolean quick;

    @Option(names = "--data", defaultValue = "${sys:itsrt.sample}", paramLabel = "FILE",
            description = "canonical readings to replay (default: the committed synthetic sample)")
    Path data;

    @Option(names = "--model", defaultValue = "${sys:itsrt.model}", paramLabel = "DIR",
            description = "model bundle (default: models/lstm-flow)")
    Path model;

    @Option(names = "--rate", defaultValue = "10", paramLabel = "HZ",
            description = "records per second per detector (default: ${DEFAULT-VALUE}, the study's load)")
    double rate;

    @Option(names = "--identity",
            description = "replace predict and route by an identity step: the stack's own floor, same records, same path")
    boolean identity;

    @Option(names = "--with-floor",
            description = "first the identity floor, then the job, one after the other on the same broker and cluster: "
                    + "floor/ and job/ run folders and compare.md, the job's cost over the floor from one invocation")
    boolean withFloor;

    @Option(names = "--parallelism", defaultValue = "1", paramLabel = "N", description = "job parallelism (default: ${DEFAULT-VALUE})")
    int parallelism;

    @Option(names = "--flink", defaultValue = "child", paramLabel = "WHERE",
            description = "where the job's cluster runs: child (a child JVM with Flink and TensorFlow on its class path, "
                    + "the job submitted as the job jar, like a real cluster; default) or in-process (a MiniCluster in "
                    + "this JVM, sharing its heap with the producers and the probe)")
    String flink;

    @Option(names = "--flink-jvm-arg", paramLabel = "ARG",
            description = "a JVM option for the child cluster (repeatable), e.g. --flink-jvm-arg=-XX:+UseZGC")
    List<String> flinkJvmArgs = new ArrayList<>();

    @Option(names = "--flink-rest", paramLabel = "URL",
            description = "submit the job jar to a Flink cluster that already runs, at this REST address (e.g. "
                    + "http://rt-vm:8081; its lib/ set up as docs/job.md says) instead of starting one; the cluster "
                    + "is left running, the job is cancelled at the end")
    java.net.URI flinkRest;

    @Option(names = "--cluster-pid", paramLabel = "PID",
            description = "with --flink-rest: the TaskManager's process, where it runs on this host (what "
                    + "./its experiment applies a Linux budget to)")
    Long clusterPid;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT",
            description = "use a Kafka cluster that already runs instead of starting a local broker; the pipeline's "
                    + "topics are created there when missing")
    String bootstrapServers;

    @Option(names = "--broker-heap", defaultValue = "512m", paramLabel = "SIZE",
            description = "the local broker's heap, -Xms and -Xmx (default: ${DEFAULT-VALUE})")
    String brokerHeap;

    @Option(names = "--broker-jvm-arg", paramLabel = "ARG",
            description = "a JVM option for the local broker (repeatable); a collector chosen here (e.g. "
                    + "--broker-jvm-arg=-XX:+UseZGC) replaces the default G1 with a 20 ms pause goal")
    List<String> brokerJvmArgs = new ArrayList<>();

    @Option(names = "--pin", paramLabel = "PART=CPUS",
            description = "pin every thread of a part to CPUs with taskset (repeatable): broker (the local broker), "
                    + "flink (the child cluster), clients (the producers and the probe: this JVM); e.g. "
                    + "--pin flink=1 --pin broker=0 --pin clients=0")
    Map<String, String> pins = new LinkedHashMap<>();

    @Option(names = "--job-jar", defaultValue = "${sys:itsrt.job.jar}", paramLabel = "JAR",
            description = "the job jar submitted to the child cluster (default: its-job's build)")
    Path jobJar;

    @Option(names = "--job-arg", paramLabel = "KEY=VALUE",
            description = "a job option, passed as --KEY VALUE (repeatable), e.g. --job-arg engine=tensorflow")
    Map<String, String> jobArgs = new LinkedHashMap<>();

    @Option(names = "--producer-prop", paramLabel = "KEY=VALUE",
            description = "a Kafka producer setting for the detector producers (repeatable), e.g. linger.ms=5 for throughput")
    Map<String, String> producerProps = new LinkedHashMap<>();

    @Option(names = "--consumer-prop", paramLabel = "KEY=VALUE",
            description = "a Kafka consumer setting for the probe (repeatable)")
    Map<String, String> consumerProps = new LinkedHashMap<>();

    @Option(names = "--warmup", paramLabel = "TIME",
            description = "left out of the steady-state rows (default: 120s; 10s with --quick)")
    String warmup;

    @Option(names = "--slo-ms", defaultValue = "20", paramLabel = "MS", description = "SLO for a window's p95 (default: ${DEFAULT-VALUE})")
    double sloMs;

    @Option(names = "--out", paramLabel = "DIR", description = "run folder (default: results/demo/YYYYMMDD-HHMMSS, UTC)")
    Path out;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    private volatile boolean interrupted;

    /** The broker as the run's report names it. */
    private String brokerDescription = "";

    /**
     * Called once the job is live (it answered the readiness handshake) and before the first
     * measured record, with the cluster's process (when it is a child): what it returns is closed
     * once the measurement is over, before the job is cancelled. An experiment puts a CPU budget
     * on the job's process this way; the job's start (deployment, model load, warm-up) is not
     * what it measures, and under a tight budget it would take minutes.
     */
    @FunctionalInterface
    public interface ClusterHook {
        AutoCloseable jobLive(OptionalLong clusterPid) throws Exception;
    }

    private ClusterHook clusterHook = pid -> () -> { };

    /** See {@link ClusterHook}; for programs that run the demo as one step of theirs. */
    public DemoCommand withClusterHook(ClusterHook hook) {
        this.clusterHook = hook;
        return this;
    }

    public static void main(String[] args) {
        // The probe draws its plots off-screen.
        System.setProperty("java.awt.headless", "true");
        System.exit(new CommandLine(new DemoCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        validate();
        long total = quick ? Math.round(rate * 6 * 30) : records;
        String warm = warmup != null ? warmup : quick ? "10s" : "120s";
        Path run = out != null ? out : Path.of("results", "demo",
                LocalDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        if (Files.exists(run.resolve("summary.md")) || Files.exists(run.resolve(CompareReport.MARKDOWN))) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out " + run + " already holds a run");
        }
        Files.createDirectories(run);
        PrintStream log = System.err;

        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            interrupted = true;
            try {
                // The producer's and the probe's own hooks stop them; wait for the report and the clean-up.
                finished.await(90, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "its-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);

        Path flinkTemp = run.resolve("flink-tmp");
        try (KafkaBroker kafka = startKafka(log)) {
            if (pins.containsKey("broker")) {
                CpuPinning.pin("broker", kafka.pid().orElseThrow(), pins.get("broker"));
            }
            try (JobCluster flink = startFlink(flinkTemp, log)) {
                log.println("its-demo: Flink up: " + flink.describe().replace(", web UI was ", ", web UI "));
                if (pins.containsKey("flink")) {
                    CpuPinning.pin("flink", flink.pid().orElseThrow(), pins.get("flink"));
                }
                // Last: a child process inherits the affinity of the thread that starts it, so pinning
                // this JVM before the broker and the cluster start would pin them too.
                if (pins.containsKey("clients")) {
                    CpuPinning.pin("clients", ProcessHandle.current().pid(), pins.get("clients"));
                }
                if (!pins.isEmpty()) {
                    log.println("its-demo: pinned " + pins);
                }
                return runPhases(kafka, flink, total, warm, run, log);
            } finally {
                deleteTree(flinkTemp);
            }
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and lets the JVM exit once it returns.
            }
        }
    }

    private int runPhases(KafkaBroker kafka, JobCluster flink, long total, String warm, Path run, PrintStream log)
            throws Exception {
        List<Boolean> phases = withFloor ? List.of(true, false) : List.of(identity);
        Map<String, Long> deadBefore = Map.of();
        int exit = 0;
        for (boolean identityPhase : phases) {
            if (interrupted) {
                break;
            }
            Path phaseDir = withFloor ? run.resolve(identityPhase ? FLOOR_DIR : JOB_DIR) : run;
            Files.createDirectories(phaseDir);
            JobSettings settings = JobSettings.fromArgs(jobArguments(kafka.bootstrapServers(), identityPhase));
            StreamExecutionEnvironment env = flink.environment();
            ItsJob.build(env, settings, KafkaJobIO.of(settings));
            JobClient job = env.executeAsync(identityPhase ? "its-rt (identity)" : "its-rt");
            try {
                Phase phase = new Phase(identityPhase, phaseDir, settings, deadBefore);
                exit = Math.max(exit, measure(kafka.bootstrapServers(), job, total, warm, phase, flink, log));
                deadBefore = phase.deadAfter;
            } finally {
                cancel(job, log);
            }
        }
        if (withFloor && !interrupted) {
            compareFloorAndJob(run);
        }
        return interrupted ? 130 : exit;
    }

    /** One job run of the demo: the identity floor or the job, into its own folder. */
    private static final class Phase {
        final boolean identity;
        final Path dir;
        final JobSettings settings;
        /** Dead letters by reason before this phase, to count only its own. */
        final Map<String, Long> deadBefore;
        Map<String, Long> deadAfter = Map.of();

        Phase(boolean identity, Path dir, JobSettings settings, Map<String, Long> deadBefore) {
            this.identity = identity;
            this.dir = dir;
            this.settings = settings;
            this.deadBefore = deadBefore;
        }
    }

    private int measure(String bootstrap, JobClient job, long total, String warm, Phase phase, JobCluster cluster,
                        PrintStream log) throws Exception {
        DeadLetters deadLetters = new DeadLetters(bootstrap, READINGS, DEAD_LETTERS);
        log.println("its-demo: waiting for the job to read " + READINGS + " and answer on " + DEAD_LETTERS + " ...");
        int markers = deadLetters.awaitPipeline(Duration.ofSeconds(120), () -> !interrupted && isRunning(job));
        log.println("its-demo: job " + job.getJobID() + " is live (" + markers + " handshake record(s))");
        try (AutoCloseable applied = clusterHook.jobLive(cluster.pid())) {
            return measureLive(bootstrap, total, warm, phase, cluster, log);
        }
    }

    private int measureLive(String bootstrap, long total, String warm, Phase phase, JobCluster cluster,
                            PrintStream log) throws Exception {
        Path run = phase.dir;
        JobSettings settings = phase.settings;
        boolean identity = phase.identity;
        DeadLetters deadLetters = new DeadLetters(bootstrap, READINGS, DEAD_LETTERS);

        Path probeDir = run.resolve("probe");
        List<String> probeArgs = new ArrayList<>(List.of("--bootstrap-servers", bootstrap, "--topic", ADVICE,
                "--out", probeDir.toString(), "--records", Long.toString(total), "--expect", Long.toString(total),
                "--idle-timeout", "30s", "--warmup", warm, "--slo-ms", Double.toString(sloMs)));
        consumerProps.forEach((k, v) -> probeArgs.addAll(List.of("--consumer-prop", k + "=" + v)));
        CompletableFuture<Integer> probe = CompletableFuture.supplyAsync(() -> ProbeCommand.commandLine().execute(
                probeArgs.toArray(String[]::new)));
        awaitProbeReady(probeDir, probe);

        List<String> producerArgs = new ArrayList<>(List.of("--bootstrap-servers", bootstrap, "--topic", READINGS,
                "--data", data.toString(), "--records", Long.toString(total), "--rate", Double.toString(rate),
                "--report", run.resolve("producer.md").toString()));
        producerProps.forEach((k, v) -> producerArgs.addAll(List.of("--producer-prop", k + "=" + v)));
        int producerExit = new CommandLine(new ProducerCommand()).execute(producerArgs.toArray(String[]::new));
        if (producerExit != 0 && !interrupted) {
            log.println("its-demo: the producers stopped with exit code " + producerExit);
        }
        int probeExit = probe.get();
        // After Ctrl-C the broker is going down with this JVM: what it holds can no longer be read.
        Map<String, Long> dead = null;
        if (!interrupted) {
            phase.deadAfter = deadLetters.countByReason();
            Map<String, Long> own = new TreeMap<>(phase.deadAfter);
            phase.deadBefore.forEach((reason, n) -> own.merge(reason, -n, Long::sum));
            own.values().removeIf(n -> n == 0);
            dead = own;
        }
        if (!Files.exists(probeDir.resolve("summary.json"))) {
            log.println("its-demo: the probe wrote no report (exit code " + probeExit + ")");
            return 1;
        }
        DemoSummary summary = DemoSummary.read(probeDir.resolve("summary.json"), dead);
        List<String> facts = new ArrayList<>();
        facts.add("pipeline: " + (identity ? "identity (predict and route replaced by an identity step: the floor)"
                : "predict (LSTM) and route (A*)") + ", parallelism " + parallelism);
        facts.add("job settings: `" + settings + "`");
        facts.add(String.format(Locale.ROOT, "load: %,d records, 6 detectors at %s records/s each, from `%s`", total,
                rate, data));
        facts.add("Kafka: " + brokerDescription + "; Flink: " + cluster.describe());
        if (!pins.isEmpty()) {
            facts.add("pinned (taskset): " + pins);
        }
        String title = identity ? "Demo run: identity floor" : "Demo run: the ITS pipeline";
        summary.write(run.resolve("summary.md"), title, facts);

        System.out.printf(Locale.ROOT, "%n%s: %,d of %,d records measured end to end%n", title, summary.received(), total);
        System.out.println(summary.latencyTable());
        System.out.println(summary.deliveryLine());
        System.out.println("results: " + run.resolve("summary.md") + " (probe: " + probeDir.resolve("summary.md")
                + ", producers: " + run.resolve("producer.md") + ")");
        return producerExit == 0 && probeExit == 0 ? 0 : 1;
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
        System.out.println("The job against its floor, same broker and cluster, one after the other (ms, from intended):");
        System.out.print(table);
        System.out.printf(Locale.ROOT, "job - floor: p50 %+.2f ms, p99 %+.2f ms%n", rows.get(1).p50Ms() - rows.get(0).p50Ms(),
                rows.get(1).p99Ms() - rows.get(0).p99Ms());
        System.out.println("comparison: " + run.resolve(CompareReport.MARKDOWN));
    }

    private String[] jobArguments(String bootstrap, boolean identity) {
        List<String> args = new ArrayList<>(List.of("--bootstrap-servers", bootstrap, "--input-topic", READINGS,
                "--output-topic", ADVICE, "--dead-letter-topic", DEAD_LETTERS, "--parallelism",
                Integer.toString(parallelism)));
        if (model != null) {
            // Absolute: a cluster in another process opens it from its own working directory.
            args.addAll(List.of("--model", model.toAbsolutePath().toString()));
        }
        if (identity) {
            args.add("--identity");
        }
        jobArgs.forEach((k, v) -> {
            args.add("--" + k);
            args.add(v);
        });
        return args.toArray(String[]::new);
    }

    private void validate() {
        CommandLine cmd = spec.commandLine();
        if (records <= 0) {
            throw new CommandLine.ParameterException(cmd, "--records must be > 0, got " + records);
        }
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new CommandLine.ParameterException(cmd, "--rate must be > 0, got " + rate);
        }
        if (parallelism < 1) {
            throw new CommandLine.ParameterException(cmd, "--parallelism must be >= 1, got " + parallelism);
        }
        clusterKind();
        if (flinkRest != null && (flinkRest.getHost() == null || flinkRest.getPort() < 0)) {
            throw new CommandLine.ParameterException(cmd, "--flink-rest must be like http://HOST:PORT, got " + flinkRest);
        }
        if (clusterPid != null && flinkRest == null) {
            throw new CommandLine.ParameterException(cmd, "--cluster-pid goes with --flink-rest (a child cluster's pid "
                    + "is known)");
        }
        if (flinkRest != null && !flinkJvmArgs.isEmpty()) {
            throw new CommandLine.ParameterException(cmd, "--flink-jvm-arg is for a cluster the demo starts, not one at "
                    + "--flink-rest");
        }
        if (bootstrapServers != null && !brokerJvmArgs.isEmpty()) {
            throw new CommandLine.ParameterException(cmd, "--broker-jvm-arg is for a broker the demo starts, not one at "
                    + "--bootstrap-servers");
        }
        for (String part : pins.keySet()) {
            if (!CpuPinning.PARTS.contains(part)) {
                throw new CommandLine.ParameterException(cmd, "--pin " + part + ": the parts are "
                        + new java.util.TreeSet<>(CpuPinning.PARTS));
            }
            if (!pins.get(part).matches("\\d+(-\\d+)?(,\\d+(-\\d+)?)*")) {
                throw new CommandLine.ParameterException(cmd, "--pin " + part + ": a CPU list like 1, 0-1 or 0,2 is "
                        + "required, got " + pins.get(part));
            }
        }
        if (pins.containsKey("broker") && bootstrapServers != null) {
            throw new CommandLine.ParameterException(cmd, "--pin broker: the broker at --bootstrap-servers is not the "
                    + "demo's to pin");
        }
        if (pins.containsKey("flink") && (flinkRest != null || !"child".equals(flink))) {
            throw new CommandLine.ParameterException(cmd, "--pin flink needs --flink child (the cluster's own process)");
        }
        if (data == null || !Files.isRegularFile(data)) {
            throw new CommandLine.ParameterException(cmd, "--data: no such file: " + data);
        }
    }

    private JobCluster.Kind clusterKind() {
        return switch (flink) {
            case "child" -> JobCluster.Kind.CHILD;
            case "in-process" -> JobCluster.Kind.IN_PROCESS;
            default -> throw new CommandLine.ParameterException(spec.commandLine(),
                    "--flink must be child or in-process, got " + flink);
        };
    }

    private KafkaBroker startKafka(PrintStream log) {
        KafkaBroker kafka;
        if (bootstrapServers != null) {
            log.println("its-demo: using the Kafka cluster at " + bootstrapServers + " ...");
            kafka = KafkaBroker.existing(bootstrapServers);
        } else {
            log.println("its-demo: starting a local Kafka broker (KRaft) ...");
            kafka = KafkaBroker.local(brokerHeap, brokerJvmArgs);
        }
        brokerDescription = kafka.describe();
        log.println("its-demo: Kafka up at " + kafka.bootstrapServers() + ", topics " + LocalKafka.PIPELINE_TOPICS);
        return kafka;
    }

    private JobCluster startFlink(Path workDir, PrintStream log) throws Exception {
        if (flinkRest != null) {
            log.println("its-demo: using the Flink cluster at " + flinkRest + " ...");
            return JobCluster.existing(flinkRest, jobJar,
                    clusterPid == null ? OptionalLong.empty() : OptionalLong.of(clusterPid));
        }
        log.println("its-demo: starting Flink (" + clusterKind().name().toLowerCase(Locale.ROOT).replace('_', '-')
                + ") ...");
        return JobCluster.start(clusterKind(), parallelism, workDir, jobJar, flinkJvmArgs);
    }

    private static boolean isRunning(JobClient job) {
        try {
            return !job.getJobStatus().get(10, TimeUnit.SECONDS).isTerminalState();
        } catch (Exception e) {
            return false;
        }
    }

    private static void cancel(JobClient job, PrintStream log) {
        try {
            job.cancel().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.println("its-demo: cancelling the job: " + e.getMessage());
        }
    }

    private static void awaitProbeReady(Path probeDir, CompletableFuture<Integer> probe) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(probeDir.resolve(ProbeRun.READY_FILE))) {
            if (probe.isDone()) {
                throw new IllegalStateException("the probe stopped before it was ready (exit code " + probe.get() + ")");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the probe was not ready within 60 s");
            }
            Thread.sleep(20);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("its-demo: could not delete " + dir + ": " + e.getMessage());
        }
    }
}
