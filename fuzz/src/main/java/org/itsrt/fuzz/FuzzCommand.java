package org.itsrt.fuzz;

import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
import org.itsrt.cli.MissingDefaultException;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.cli.RunFolders;
import org.itsrt.pipeline.PipelineRun;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.pipeline.StackSpec;
import org.itsrt.producers.ProducerRun;
import org.itsrt.records.Topics;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./its fuzz}: hostile input against the pipeline (docs/fuzz.md). Starts the stack the demo
 * starts (or reaches a running one), runs the job on the valid readings alone (the clean run), then
 * on the same readings with as many malformed and edge-case records between them (the fuzz run),
 * and reports what the job made of each kind, its dead letters by reason, its restarts, and whether
 * the readings' advice equals the clean run's.
 */
@Command(
        name = "its-fuzz",
        sortOptions = false,
        description = {
            "Sends N malformed or edge-case records of every kind mixed with N valid readings to the readings topic "
                    + "and checks what the job makes of them: 0 restarts, every bad record dead-lettered once with a "
                    + "reason naming its problem, every reading advised once and as in a clean run of the readings "
                    + "alone. Writes fuzz.md and CSVs to the report folder."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every expectation held",
            "1:an expectation failed (fuzz.md says which), or a part failed to start",
            "2:bad usage",
            "130:interrupted (Ctrl-C)"
        })
public final class FuzzCommand implements Callable<Integer> {

    /**
     * The default warm-up, in seconds at the study's rate: 120 readings on the six study
     * detectors. The campaign compares advice, not latency; a short warm-up is enough to carry the
     * job past its first records (class loading, the first model calls) before the records that
     * are compared, and costs the two lockstep runs little.
     */
    static final int DEFAULT_WARMUP_S = 2;

    /** Records per second per detector of the study's load, which turns --warmup into readings. */
    static final double STUDY_RATE_HZ = 10;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--records",
            defaultValue = "10000",
            paramLabel = "N",
            description = "malformed or edge-case records, and as many valid readings (default: ${DEFAULT-VALUE})")
    int records;

    @Option(
            names = "--warmup",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "valid warm-up readings sent first in each run, flagged and left out of the comparison and "
                    + "the counts, as many as the study's load (10 records/s per detector) sends in this long; 0 for "
                    + "none (default: " + DEFAULT_WARMUP_S + "s)")
    Duration warmup;

    @Option(
            names = "--warmup-records",
            paramLabel = "N",
            description = "the warm-up as N readings instead of a time (not with --warmup)")
    Integer warmupRecords;

    @Option(
            names = "--seed",
            defaultValue = "" + CampaignPlan.DEFAULT_SEED,
            paramLabel = "N",
            description = "the generator's seed: one seed and size, the very same records (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(
            names = "--cluster",
            paramLabel = "DIR",
            description = "run on the cluster that `./its cluster up` started in DIR (its brokers and JobManagers) "
                    + "instead of starting a broker and a Flink cluster")
    Path cluster;

    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT",
            description = "with --flink-rest: a Kafka cluster that already runs")
    String bootstrapServers;

    @Option(
            names = "--flink-rest",
            paramLabel = "URL",
            description = "with --bootstrap-servers: a Flink cluster that already runs, e.g. http://localhost:8081 "
                    + "(the job jar is submitted to it)")
    URI flinkRest;

    @Option(
            names = "--flink",
            defaultValue = "standalone",
            paramLabel = "WHERE",
            description = "without --cluster / --flink-rest: the Flink cluster started for the campaign, standalone "
                    + "(default, as ./its demo), child or in-process")
    String flink;

    @CommandLine.Mixin
    KafkaConfigOption kafkaConfig;

    @Option(
            names = "--model",
            paramLabel = "DIR",
            description = "model bundle (default: the shipped one, " + ProjectPaths.MODEL_BUNDLE + ")")
    Path model;

    @Option(
            names = "--job-jar",
            paramLabel = "JAR",
            description = "the job jar (default: its-job's build, " + ProjectPaths.JOB_JAR_FOLDER + "/"
                    + ProjectPaths.JOB_JAR_GLOB + ")")
    Path jobJar;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "report folder (default: results/fuzz/YYYYMMDD-HHMMSS, UTC)")
    Path out;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "show this help")
    boolean help;

    private volatile FuzzCampaign running;
    private volatile boolean interrupted;

    public static void main(String[] args) {
        System.exit(new CommandLine(new FuzzCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        StackSpec stack;
        KafkaClientConfig clientConfig;
        Path modelDir;
        try {
            if (warmup != null && warmupRecords != null) {
                throw new IllegalArgumentException("--warmup and --warmup-records are mutually exclusive: give one");
            }
            if (warmupRecords != null && warmupRecords < 0) {
                throw new IllegalArgumentException("--warmup-records must be >= 0, got " + warmupRecords);
            }
            if (records < FuzzKind.values().length) {
                throw new IllegalArgumentException("--records must be at least " + FuzzKind.values().length
                        + " (one record of each kind), got " + records);
            }
            clientConfig = kafkaConfig.load();
            modelDir = model != null ? model : ProjectPaths.locate().modelBundle();
            if (!Files.isDirectory(modelDir)) {
                throw new IllegalArgumentException("--model: no such folder: " + modelDir);
            }
            // The stack's own clients (its topic check) connect with the same file as the campaign's.
            stack = stackSpec(jobJar != null ? jobJar : ProjectPaths.locate().jobJar())
                    .withKafkaConfig(clientConfig);
        } catch (IllegalArgumentException | MissingDefaultException | java.nio.file.NoSuchFileException e) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    e instanceof java.nio.file.NoSuchFileException missing ? missing.getReason() : e.getMessage());
        }
        Path dir = RunFolders.orDefault(out, "fuzz");
        if (Files.exists(dir.resolve(FuzzReport.MARKDOWN))) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out " + dir + " already holds a report");
        }
        Files.createDirectories(dir);
        PrintStream log = System.err;
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    interrupted = true;
                    FuzzCampaign campaign = running;
                    if (campaign != null) {
                        campaign.stop();
                    }
                    try {
                        // The jobs are cancelled and what this run started is stopped and removed.
                        finished.await(90, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "its-fuzz-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try (RunningStack started = RunningStack.start(stack, dir.resolve(PipelineRun.FLINK_TMP), log)) {
            KafkaEnds ends = new KafkaEnds(
                    started.bootstrapServers(), clientConfig, Topics.READINGS, Topics.ADVICE, Topics.DEAD_LETTERS);
            long[] detectors = FuzzCampaign.detectors(ends, modelDir);
            CampaignPlan plan = CampaignPlan.generate(records, detectors, seed, warmupReadings(detectors.length));
            log.println("its-fuzz: " + plan + "; kinds: " + FuzzReport.sentLine(plan.counts()));
            FuzzCampaign campaign = new FuzzCampaign(started, ends, modelDir, log);
            running = campaign;
            if (interrupted) {
                campaign.stop();
            }
            Instant start = Instant.now();
            CampaignResult result = campaign.run(plan);
            String markdown = new FuzzReport(result).write(dir, facts(start, started, plan, clientConfig));
            System.out.println(markdown);
            System.out.println("report: " + dir.resolve(FuzzReport.MARKDOWN));
            if (interrupted) {
                return 130;
            }
            return result.passed() ? 0 : 1;
        } catch (InterruptedException e) {
            log.println("its-fuzz: interrupted: " + e.getMessage());
            return 130;
        } finally {
            removeIfEmpty(dir);
            running = null;
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and lets the JVM exit once it returns.
            }
        }
    }

    /** A run that wrote no report leaves no folder behind. */
    private static void removeIfEmpty(Path dir) {
        try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
            if (entries.findAny().isEmpty()) {
                Files.delete(dir);
            }
        } catch (java.io.IOException e) {
            // Left as it is: a folder that cannot be listed or deleted is not this run's to force.
        }
    }

    /** Warm-up readings for {@code detectors}: as given, or the warm-up time at the study's rate. */
    int warmupReadings(int detectors) {
        if (warmupRecords != null) {
            return warmupRecords;
        }
        Duration time = warmup != null ? warmup : Duration.ofSeconds(DEFAULT_WARMUP_S);
        return Math.toIntExact(ProducerRun.warmupRecordsOf(time, STUDY_RATE_HZ, detectors));
    }

    private List<String> facts(Instant start, RunningStack stack, CampaignPlan plan, KafkaClientConfig clientConfig) {
        List<String> facts = new ArrayList<>();
        facts.add("started " + start + ", "
                + String.format(Locale.ROOT, "%,d", plan.records().size())
                + " records: " + String.format(Locale.ROOT, "%,d", plan.validReadings()) + " valid readings and "
                + String.format(Locale.ROOT, "%,d", records) + " of the kinds below, seed " + seed);
        if (!plan.warmup().isEmpty()) {
            facts.add("warm-up: "
                    + String.format(Locale.ROOT, "%,d", plan.warmup().size())
                    + " valid readings flagged as warm-up records first in each run, in lockstep; left out of the "
                    + "comparison and every count below");
        }
        facts.add("stack: " + stack.describe());
        facts.add("topics: " + Topics.READINGS + " -> " + Topics.ADVICE + ", " + Topics.DEAD_LETTERS);
        facts.add("clean run: a fresh job given only the records it must advise, in the same order; then the fuzz "
                + "run, another fresh job given every record; both at parallelism 1, one reading at a time "
                + "(docs/fuzz.md)");
        if (!clientConfig.isEmpty()) {
            facts.add("Kafka clients: " + clientConfig.describe());
        }
        return facts;
    }

    private StackSpec stackSpec(Path jar) throws java.io.IOException, InterruptedException {
        if (cluster != null) {
            if (bootstrapServers != null || flinkRest != null) {
                throw new IllegalArgumentException("--cluster brings its own brokers and JobManagers: it goes without "
                        + "--bootstrap-servers and --flink-rest");
            }
            return StackSpec.onCluster(cluster, jar, 1, Map.of());
        }
        if ((bootstrapServers == null) != (flinkRest == null)) {
            throw new IllegalArgumentException(
                    "--bootstrap-servers and --flink-rest go together: a running deployment has both");
        }
        if (bootstrapServers != null) {
            return new StackSpec(
                    new StackSpec.Broker.Existing(bootstrapServers),
                    new StackSpec.Cluster.Existing(flinkRest, jar, OptionalLong.empty()),
                    1,
                    Map.of());
        }
        StackSpec.Broker broker = new StackSpec.Broker.Local(StackSpec.Broker.Local.DEFAULT_HEAP, List.of());
        StackSpec.Cluster where =
                switch (flink) {
                    case "standalone" -> new StackSpec.Cluster.Standalone(jar, List.of(), 1, false);
                    case "child" -> new StackSpec.Cluster.Child(jar, List.of());
                    case "in-process" -> new StackSpec.Cluster.InProcess();
                    default ->
                        throw new IllegalArgumentException(
                                "--flink must be standalone, child or in-process, got " + flink);
                };
        return new StackSpec(broker, where, 1, Map.of());
    }
}
