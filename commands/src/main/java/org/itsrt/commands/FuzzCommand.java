package org.itsrt.commands;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.itsrt.cli.MissingDefaultException;
import org.itsrt.cli.RunFolders;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cli.options.JobJarOption;
import org.itsrt.cli.options.ModelOption;
import org.itsrt.cli.options.OutputOption;
import org.itsrt.cli.options.RecordsOption;
import org.itsrt.cli.options.SeedOption;
import org.itsrt.cli.options.WarmupOptions;
import org.itsrt.cli.options.WorkloadOption;
import org.itsrt.commands.options.ExistingStackOptions;
import org.itsrt.commands.options.FlinkModeOption;
import org.itsrt.commands.options.PlanFileOptions;
import org.itsrt.fuzz.CampaignPlan;
import org.itsrt.fuzz.DistrictFuzz;
import org.itsrt.fuzz.FuzzKind;
import org.itsrt.fuzz.FuzzReport;
import org.itsrt.fuzz.StudyFuzz;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.pipeline.PipelineRun;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.pipeline.StackSpec;
import org.itsrt.pipeline.plan.DistrictPlan;
import org.itsrt.pipeline.plan.LoadPlan;
import org.itsrt.pipeline.plan.RunPlanYaml;
import org.itsrt.pipeline.plan.StackPlan;
import org.itsrt.producers.ProducerRun;
import org.itsrt.records.Workload;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
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
                    + "alone; --workload district: as many valid and hostile route requests besides. Writes fuzz.md."
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
     * The default warm-up at the study's load, 120 readings: the campaign compares advice, not
     * latency, and this carries the job past its first records (class loading, the first model calls).
     */
    static final Duration DEFAULT_WARMUP = Duration.ofSeconds(2);

    @Spec
    private CommandSpec spec;

    @Mixin
    RecordsOption recordsOption;

    @Mixin
    SeedOption seedOption;

    @Mixin
    WarmupOptions warmup;

    @Mixin
    PlanFileOptions planFile;

    @Mixin
    ExistingStackOptions existing;

    @Mixin
    FlinkModeOption flinkMode;

    @Mixin
    ModelOption model;

    @Mixin
    JobJarOption jobJar;

    @Mixin
    OutputOption output;

    @Mixin
    WorkloadOption workload;

    @Mixin
    HelpOption help;

    /** Stops the campaign under way (Ctrl-C). */
    private volatile Runnable running;

    private volatile boolean interrupted;

    public static void main(String[] args) {
        System.exit(Commands.execute(new FuzzCommand(), args));
    }

    /** Malformed or edge-case records by default, and as many valid readings. */
    static final int DEFAULT_RECORDS = 10_000;

    @Override
    public Integer call() throws Exception {
        int records = Math.toIntExact(recordsOption.orElse(DEFAULT_RECORDS));
        StackSpec stack;
        KafkaClientConfig clientConfig;
        Path modelDir;
        DistrictPlan district = null;
        try {
            LoadPlan planned = planFile.base().build().load();
            Workload named = java.util.Objects.requireNonNullElse(workload.given(), planned.workload());
            district = named == Workload.DISTRICT ? DistrictFuzz.districtOf(planned) : null;
            int least = district != null ? DistrictFuzz.LEAST_RECORDS : FuzzKind.values().length;
            if (records < least) {
                throw new IllegalArgumentException(
                        "--records must be at least " + least + " (one record of each kind), got " + records);
            }
            existing.kafkaConfig(); // a client properties file given is read first: a missing one is named
            modelDir = model.path();
            if (!Files.isDirectory(modelDir)) {
                throw new IllegalArgumentException("--model: no such folder: " + modelDir);
            }
            // A run plan's stack (a plan file's, the options over it), at parallelism 1: one record at a time.
            StackPlan.Builder plan = planFile.base().stack();
            StackPlan.Broker.Builder broker = plan.brokerBuilder();
            StackPlan.Flink.Builder flink = plan.flinkBuilder();
            existing.applyTo(plan, broker, flink);
            flinkMode.applyTo(flink);
            if (jobJar.given() != null) {
                plan.jobJar(jobJar.given());
            }
            StackPlan stackPlan = plan.broker(broker.build())
                    .flink(flink.build())
                    .parallelism(1)
                    .build();
            clientConfig = KafkaClientConfig.loadOrNone(stackPlan.broker().kafkaConfig());
            int warmups = warmupReadings(ProducerRun.STUDY_DETECTORS.size());
            if (planFile.printOnly()) {
                java.io.PrintWriter console = spec.commandLine().getOut();
                console.printf(
                        "fuzz: %d malformed or edge-case records and as many valid readings, seed %d, %d warm-up "
                                + "readings first in each run, on%n%s",
                        records,
                        seedOption.orElse(CampaignPlan.DEFAULT_SEED),
                        warmups,
                        RunPlanYaml.writePart("stack", stackPlan));
                console.flush();
                return 0;
            }
            stack = stackPlan.toSpec(false);
        } catch (IllegalArgumentException | MissingDefaultException | java.nio.file.NoSuchFileException e) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    e instanceof java.nio.file.NoSuchFileException missing ? missing.getReason() : e.getMessage());
        }
        Path dir = RunFolders.orDefault(output.path(), "fuzz");
        if (Files.exists(dir.resolve(FuzzReport.MARKDOWN))) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out " + dir + " already holds a report");
        }
        Files.createDirectories(dir);
        PrintStream log = System.err;
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    interrupted = true;
                    Runnable stop = running;
                    if (stop != null) {
                        stop.run();
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
            long seed = seedOption.orElse(CampaignPlan.DEFAULT_SEED);
            Consumer<Runnable> onStart = stop -> {
                running = stop;
                if (interrupted) {
                    stop.run();
                }
            };
            // A district: each station's first reading before any request, unless a warm-up is given.
            boolean warmupGiven = warmup.time() != null || warmup.records() != null;
            int code = district != null
                    ? DistrictFuzz.run(
                            started,
                            clientConfig,
                            modelDir,
                            district,
                            records,
                            seed,
                            n -> warmupGiven ? warmupReadings(n) : n,
                            dir,
                            log,
                            onStart)
                    : StudyFuzz.run(
                            started, clientConfig, modelDir, records, seed, this::warmupReadings, dir, log, onStart);
            return interrupted ? 130 : code;
        } catch (InterruptedException e) {
            log.println("its-fuzz: interrupted: " + e.getMessage());
            return 130;
        } finally {
            RunFolders.removeIfEmpty(dir);
            running = null;
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and lets the JVM exit once it returns.
            }
        }
    }

    /** Warm-up readings for {@code detectors}: as given, or the warm-up time at the study's load. */
    int warmupReadings(int detectors) {
        LoadPlan.Builder load = LoadPlan.builder()
                .detectors(
                        java.util.stream.LongStream.range(0, detectors).boxed().toList())
                .warmup(DEFAULT_WARMUP);
        load.warmup(warmup.time(), warmup.records());
        return Math.toIntExact(load.build().warmupRecords());
    }
}
