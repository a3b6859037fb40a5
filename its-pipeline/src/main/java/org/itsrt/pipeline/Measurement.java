package org.itsrt.pipeline;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.itsrt.cli.Durations;
import org.itsrt.clock.Clocks;
import org.itsrt.cluster.FlinkRest;
import org.itsrt.job.ItsJob;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.kafka.KafkaJobIO;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.probe.ProbeOptions;
import org.itsrt.probe.ProbeRun;
import org.itsrt.probe.arrival.ConsumeLoop;
import org.itsrt.probe.fault.FaultMark;
import org.itsrt.probe.report.ProbeSummary;
import org.itsrt.probe.report.RunReport;
import org.itsrt.probe.stats.RunStats;
import org.itsrt.producers.ProducerPlan;
import org.itsrt.producers.ProducerRun;
import org.itsrt.producers.send.ProducerSummary;
import org.itsrt.producers.send.RunSummary;
import org.itsrt.records.Topics;
import org.itsrt.records.Workload;
import org.itsrt.stack.kafka.KafkaSecurity;

/**
 * One measured run on a {@link RunningStack}: submit the job, wait until it answers the readiness
 * handshake, apply the budget, start the probe on the advice topic, replay the load with the
 * producers, let the probe measure every record, count the job's dead letters, cancel the job.
 * The producers and the probe are the libraries behind {@code ./its produce} and {@code ./its
 * probe}, so a run measures what those commands would.
 */
final class Measurement {

    static final String READINGS = Topics.READINGS;
    static final String ADVICE = Topics.ADVICE;
    static final String DEAD_LETTERS = Topics.DEAD_LETTERS;

    /** The folder of the probe's run inside a run's folder. */
    static final String PROBE_DIR = "probe";

    static final String PRODUCER_MD = "producer.md";
    static final String PRODUCER_JSON = "producer.json";
    /** The district workload's route requests as sent, beside the readings' {@link #PRODUCER_JSON}. */
    static final String PRODUCER_REQUESTS_JSON = "producer-requests.json";

    static final String SUMMARY_MD = "summary.md";

    private static final Duration PROBE_READY_TIMEOUT = Duration.ofSeconds(60);
    /**
     * The probe stops when nothing arrived for this long after the first record. Longer than an
     * outage a run is meant to survive: a broker stopped for 20 s, its restart and the job's
     * catching up leave the advice topic silent for 30 to 50 s (docs/pipeline.md,
     * "Faults").
     */
    private static final Duration PROBE_IDLE_TIMEOUT = Duration.ofSeconds(60);

    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);
    private static final Duration SLO_WINDOW = Duration.ofSeconds(1);

    private final RunningStack stack;
    private final LoadSpec load;
    private final JobSpec job;
    private final BudgetHook budget;
    private final LoadHook during;
    private final Path dir;
    private final PrintStream log;
    private volatile ProducerRun producers;
    private volatile ProbeRun probe;
    private volatile boolean stopped;

    Measurement(
            RunningStack stack,
            LoadSpec load,
            JobSpec job,
            BudgetHook budget,
            LoadHook during,
            Path dir,
            PrintStream log) {
        this.stack = stack;
        this.load = load;
        this.job = job;
        this.budget = budget;
        this.during = during;
        this.dir = dir;
        this.log = log;
    }

    /** The job's settings for this run: the spec's options with this stack's Kafka ends and slots. */
    static JobSettings jobSettings(
            JobSpec job, String bootstrapServers, int parallelism, KafkaClientConfig kafkaConfig) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("bootstrap-servers", bootstrapServers);
        // By path: the job reads the file where its main runs (docs/job.md).
        kafkaConfig.source().ifPresent(file -> options.put("kafka-config", file.toString()));
        options.put("input-topic", READINGS);
        options.put("output-topic", ADVICE);
        options.put("dead-letter-topic", DEAD_LETTERS);
        options.put("parallelism", Integer.toString(parallelism));
        if (job.model() != null) {
            options.put("model", job.model().toString());
        }
        if (job.identity()) {
            options.put("identity", "true");
        }
        options.putAll(job.options());
        return JobSettings.fromMap(options);
    }

    /** @param deadLettersKnown the dead letters on the topic before this run, null when not known */
    RunResult run(Map<String, Long> deadLettersKnown) throws Exception {
        Files.createDirectories(dir);
        String bootstrap = stack.bootstrapServers();
        JobSettings settings = jobSettings(
                job, stack.jobBootstrapServers(), stack.spec().slots(), stack.clientConfig(KafkaSecurity.User.JOB));
        DeadLetters deadLetters =
                new DeadLetters(bootstrap, READINGS, DEAD_LETTERS, stack.clientConfig(KafkaSecurity.User.ADMIN));
        Map<String, Long> deadBefore = RunningStack.deadLettersBefore(deadLettersKnown, deadLetters);

        StreamExecutionEnvironment env = stack.cluster().environment();
        if (settings.workload() == Workload.DISTRICT) {
            ItsJob.buildDistrict(env, settings, KafkaJobIO.of(settings));
        } else {
            ItsJob.build(env, settings, KafkaJobIO.of(settings));
        }
        JobClient client = env.executeAsync(job.identity() ? ItsJob.JOB_NAME + " (identity)" : ItsJob.JOB_NAME);
        try {
            log.println(
                    "its-demo: waiting for the job to read " + READINGS + " and answer on " + DEAD_LETTERS + " ...");
            long submitted = System.nanoTime();
            int markers;
            Duration opening;
            try {
                markers = deadLetters.awaitPipeline(job.startTimeout(), () -> !stopped && isRunning(client));
                // What is left of the same allowance, counted from the submission.
                Duration left = job.startTimeout().minusNanos(System.nanoTime() - submitted);
                opening = new OpenedTasks(
                                new FlinkRest(),
                                stack.flinkRest(),
                                client.getJobID().toHexString())
                        .await(
                                left.isNegative() ? Duration.ZERO : left,
                                () -> !stopped && isRunning(client),
                                waiting -> log.println("its-demo: waiting for the job's steps to open: " + waiting));
            } catch (DeadLetters.NoAnswerException e) {
                throw new JobStartException(
                        e.getMessage() + "; " + org.itsrt.pipeline.plan.JobPlan.START_TIMEOUT + " allows longer than "
                                + Durations.format(job.startTimeout()),
                        e);
            } catch (IllegalStateException stopped) {
                throw new JobStartException(stopped.getMessage() + whyItFailed(client), stopped);
            }
            log.println(
                    "its-demo: job " + client.getJobID() + " is live (" + markers + " handshake record(s), every step"
                            + " open " + Durations.format(Duration.ofMillis(opening.toMillis() / 100 * 100))
                            + " after the parse step answered)");
            RunResult result;
            try (AutoCloseable applied = budget.jobLive(stack.clusterPid())) {
                result = measureLive(deadLetters, deadBefore);
            }
            new PipelineReport(result).write(dir.resolve(SUMMARY_MD), facts(settings));
            return result;
        } finally {
            cancel(client);
        }
    }

    /** What summary.md says the run was: the job, its settings, the load, the stack, the pins. */
    private java.util.List<String> facts(JobSettings settings) {
        java.util.List<String> facts = new java.util.ArrayList<>();
        facts.add("pipeline: "
                + (job.identity()
                        ? "identity (predict and route replaced by an identity step: the floor)"
                        : "predict (LSTM) and route (A*)")
                + ", parallelism " + stack.spec().slots());
        facts.add("job settings: `" + settings + "`");
        facts.add(String.format(
                java.util.Locale.ROOT,
                "load: %,d records, %d detectors at %s records/s each, from `%s`",
                load.records(),
                load.plan().detectorCount(),
                load.ratePerDetector(),
                load.data()));
        if (load.plan().sendsRequests()) {
            facts.add(String.format(
                    java.util.Locale.ROOT,
                    "route requests: %,d at %s requests/s in all (after %,d warm-up requests), over the stations of `%s`",
                    load.plan().requestRecords(),
                    load.plan().district().requestsPerSecond(),
                    load.plan().requestWarmupRecords(),
                    load.stationMeta()));
        }
        if (!load.plan().loadStep().isNone()) {
            facts.add("load step: " + load.plan().loadStep().describe() + " from the first record sent");
        }
        if (load.warmupRecords() > 0) {
            facts.add(String.format(
                    java.util.Locale.ROOT,
                    "warm-up: %,d records (%s) sent first, flagged, and kept out of the measured figures",
                    load.warmupRecords(),
                    org.itsrt.cli.Durations.format(load.warmupDuration())));
        }
        facts.add(stack.describe());
        if (!stack.spec().pins().isEmpty()) {
            facts.add("pinned (taskset): " + stack.spec().pins());
        }
        stack.cpuLatencyRequest().ifPresent(request -> facts.add("host: " + request.describe()));
        return facts;
    }

    private RunResult measureLive(DeadLetters deadLetters, Map<String, Long> deadBefore) throws Exception {
        Path probeDir = dir.resolve(PROBE_DIR);
        ProbeRun probeRun =
                new ProbeRun(probeOptions(stack.bootstrapServers()), Clocks.system(), log).alsoTo(budget.arrivals());
        probe = probeRun;
        CompletableFuture<ProbeRun.Result> probed = CompletableFuture.supplyAsync(() -> {
            try {
                return probeRun.runOnKafka(Duration.ofSeconds(10), probeDir);
            } catch (Exception e) {
                throw new IllegalStateException("the probe failed: " + e.getMessage(), e);
            }
        });
        if (!probeRun.awaitReady(PROBE_READY_TIMEOUT)) {
            probeRun.stop();
            String why = probed.isDone()
                    ? "it stopped: " + failure(probed)
                    : "it was not ready within " + PROBE_READY_TIMEOUT.toSeconds() + " s";
            throw new IllegalStateException("the probe could not start reading " + ADVICE + ": " + why);
        }
        if (stopped) {
            probeRun.stop();
        }

        ProducerPlan plan = ProducerPlan.builder()
                .bootstrapServers(stack.bootstrapServers())
                .topic(READINGS)
                .data(load.data())
                .detectors(load.isDistrict() ? ProducerRun.EVERY_DETECTOR : load.detectors())
                .requests(
                        load.plan().sendsRequests()
                                ? ProducerRun.Requests.of(
                                        load.stationMeta(),
                                        load.plan().district().requestsPerSecond(),
                                        load.plan().district().seed())
                                : null)
                .ratePerDetector(load.ratePerDetector())
                .records(load.records())
                .acks("all")
                .producerProperties(load.producerProperties())
                .progressEvery(PROGRESS_EVERY)
                .kafkaConfig(stack.clientConfig(KafkaSecurity.User.PRODUCER))
                .warmupRecords(load.warmupRecords())
                .loadStep(load.plan().loadStep())
                .build();
        ProducerRun replay = ProducerRun.prepare(plan, log);
        producers = replay;
        if (stopped) {
            replay.stop();
        }
        ProducerSummary producerSummary;
        ProducerSummary requestsSent;
        ProbeRun.Result measured;
        // Open from the first record sent to the last one measured: a fault injected here hits
        // the pipeline under load.
        try (AutoCloseable duringLoad = during.loadStarting(faultMarks(probeRun))) {
            RunSummary sent = replay.run();
            String producerReport = replay.markdown(sent);
            log.print(producerReport);
            Files.writeString(dir.resolve(PRODUCER_MD), producerReport);
            producerSummary = ProducerSummary.of(sent);
            producerSummary.write(dir.resolve(PRODUCER_JSON));
            requestsSent = replay.requestsSent() == null ? null : ProducerSummary.of(replay.requestsSent());
            if (requestsSent != null) {
                requestsSent.write(dir.resolve(PRODUCER_REQUESTS_JSON));
            }
            for (ProducerSummary part : requestsSent == null
                    ? java.util.List.of(producerSummary)
                    : java.util.List.of(producerSummary, requestsSent)) {
                if (!part.complete() && !stopped) {
                    log.println("its-demo: the producers did not send and acknowledge every record: sent "
                            + part.sent() + " of " + part.target() + ", acknowledged " + part.acked() + ", failed "
                            + part.failed());
                }
            }
            measured = probeResult(probed, probeDir);
        }

        // After Ctrl-C the broker may be going down with this JVM: what it holds can no longer be read.
        Map<String, Long> dead = null;
        if (!stopped) {
            Map<String, Long> total = deadLetters.countByReason();
            stack.deadLettersCounted(total);
            Map<String, Long> own = new TreeMap<>(total);
            deadBefore.forEach((reason, n) -> own.merge(reason, -n, Long::sum));
            own.values().removeIf(n -> n == 0);
            dead = own;
        }
        // The district's streams each have a folder of their own; the readings' is the run's first.
        Path readingsDir = load.isDistrict() ? probeDir.resolve(Workload.Stream.PREDICTIONS.label()) : probeDir;
        ProbeSummary probeSummary = ProbeSummary.read(readingsDir.resolve(RunReport.SUMMARY_JSON));
        RunResult.Requests requests = load.isDistrict()
                ? new RunResult.Requests(
                        ProbeSummary.read(
                                probeDir.resolve(Workload.Stream.ROUTES.label()).resolve(RunReport.SUMMARY_JSON)),
                        requestsSent)
                : null;
        int exit = stopped
                ? RunResult.INTERRUPTED
                : measured != null
                                && measured.reason() != ConsumeLoop.StopReason.INTERRUPTED
                                && producerSummary.complete()
                                && (requestsSent == null || requestsSent.complete())
                        ? RunResult.OK
                        : RunResult.FAILED;
        return new RunResult(dir, job.identity(), exit, probeSummary, producerSummary, dead, requests);
    }

    /** Marks on {@code probe}'s timeline. */
    private static LoadHook.FaultMarks faultMarks(ProbeRun probe) {
        return new LoadHook.FaultMarks() {
            @Override
            public void mark(String label) {
                probe.markFault(label);
            }

            @Override
            public LoadHook.Window begin(String label) {
                FaultMark start = probe.markFault(label);
                return () -> probe.markFaultEnd(start);
            }
        };
    }

    /** The probe's result once it has measured every record; null when it failed after writing its report. */
    private static ProbeRun.Result probeResult(CompletableFuture<ProbeRun.Result> probed, Path probeDir)
            throws InterruptedException {
        try {
            return probed.get();
        } catch (java.util.concurrent.ExecutionException e) {
            if (!Files.exists(probeDir.resolve(RunReport.SUMMARY_JSON))) {
                throw new IllegalStateException(
                        "the probe wrote no report: " + e.getCause().getMessage(), e.getCause());
            }
            return null;
        }
    }

    private ProbeOptions probeOptions(String bootstrap) {
        // The district's probe counts the measured records of both streams together.
        long total = load.records() + load.plan().requestRecords();
        Map<ConsumeLoop.StopReason, String> stops = new EnumMap<>(ConsumeLoop.StopReason.class);
        stops.put(ConsumeLoop.StopReason.RECORDS, "--records " + total);
        stops.put(ConsumeLoop.StopReason.DURATION, "--duration");
        stops.put(
                ConsumeLoop.StopReason.IDLE,
                "--idle-timeout " + PROBE_IDLE_TIMEOUT.toSeconds() + "s (nothing arrived for that long)");
        stops.put(ConsumeLoop.StopReason.INTERRUPTED, "interrupt (Ctrl-C)");
        ProbeOptions.Builder options = load.isDistrict()
                ? ProbeOptions.builder()
                        .workload(Workload.DISTRICT)
                        .expectedRequests(load.plan().requestRecords())
                : ProbeOptions.builder().topic(ADVICE);
        return options.bootstrapServers(bootstrap)
                .fromBeginning(false)
                .consumerOverrides(load.consumerProperties())
                .limits(new ConsumeLoop.Limits(total, 0, PROBE_IDLE_TIMEOUT.toNanos()))
                .settings(new RunStats.Settings(
                        SLO_WINDOW.toNanos(),
                        Math.round(load.sloMs() * 1e6),
                        load.steadyAfter().toNanos()))
                .expected(load.records())
                .progressEveryNs(PROGRESS_EVERY.toNanos())
                .stopDescription(stops)
                .kafkaConfig(stack.clientConfig(KafkaSecurity.User.PROBE))
                .build();
    }

    /** Stops the producers after their current record and the probe after its current poll. */
    void stop() {
        stopped = true;
        ProducerRun replay = producers;
        if (replay != null) {
            replay.stop();
        }
        ProbeRun running = probe;
        if (running != null) {
            running.stop();
        }
    }

    private static String failure(CompletableFuture<ProbeRun.Result> probed) {
        try {
            probed.get();
            return "it ended before it was ready";
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return cause.getMessage();
        }
    }

    /** Flink's reason for a job that ended, as {@code ": CAUSE"}; empty when there is none to tell. */
    private static String whyItFailed(JobClient client) {
        try {
            client.getJobExecutionResult().get(10, TimeUnit.SECONDS);
            return "";
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            String text = root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
            return ": " + text.replaceAll("\\s+", " ").strip();
        } catch (Exception notKnown) {
            return "";
        }
    }

    private static boolean isRunning(JobClient client) {
        try {
            return !client.getJobStatus().get(10, TimeUnit.SECONDS).isTerminalState();
        } catch (Exception e) {
            return false;
        }
    }

    private void cancel(JobClient client) {
        try {
            client.cancel().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.println("its-demo: cancelling the job: " + e.getMessage());
        }
    }
}
