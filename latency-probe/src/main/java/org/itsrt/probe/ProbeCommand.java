package org.itsrt.probe;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;
import org.itsrt.cli.DurationConverter;
import org.itsrt.cli.Durations;
import org.itsrt.cli.RunFolders;
import org.itsrt.cli.options.DurationOption;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cli.options.OutputOption;
import org.itsrt.cli.options.RecordsOption;
import org.itsrt.cli.options.SloMsOption;
import org.itsrt.cli.options.SteadyAfterOption;
import org.itsrt.cli.options.VerboseOption;
import org.itsrt.clock.Clocks;
import org.itsrt.clock.LatencyClock;
import org.itsrt.kafka.BootstrapServersOption;
import org.itsrt.kafka.ConsumerPropertiesOption;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.kafka.KafkaConfigOption;
import org.itsrt.kafka.KafkaRefusal;
import org.itsrt.kafka.TopicOption;
import org.itsrt.probe.arrival.ConsumeLoop;
import org.itsrt.probe.arrival.KafkaSettings;
import org.itsrt.probe.compare.CompareCommand;
import org.itsrt.probe.report.Charts;
import org.itsrt.probe.report.Decimals;
import org.itsrt.probe.report.RunReport;
import org.itsrt.probe.stats.LatencyKind;
import org.itsrt.probe.stats.LatencySummary;
import org.itsrt.probe.stats.RunStats;
import org.itsrt.probe.stats.SequenceTracker;
import org.itsrt.probe.stats.WindowedSlo;
import org.itsrt.records.Topics;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code its-probe}: measures end-to-end latency off a Kafka topicOption.orElse(Topics.ADVICE); {@code its-probe compare} sets runs side by side. */
@Command(
        name = "its-probe",
        sortOptions = false,
        subcommands = CompareCommand.class,
        description = {
            "Consumes its.advice (or its.readings), stamps each poll's records on arrival with the same clock the "
                    + "producers stamp sends with, and writes a run folder: summary.md and summary.json (count, "
                    + "min, mean, p50 .. p99.99, max of latency from the send stamp and from the intended send "
                    + "time, for the whole run and its steady state; job stage durations; lost, duplicated and "
                    + "reordered records per detector; p95 per window and the SLO-violation ratio; per fault "
                    + "marked with --faults, the silence after it, delayed and duplicated records and the "
                    + "time to recover), "
                    + "latencies.csv (one row per record), latency.hlog (HdrHistogram interval log), windows.csv, "
                    + "and plots as PNG and SVG (ECDF, ECDF on a log scale, latency over time with faults, "
                    + "stages).",
            "Stops after --records, --duration or --idle-timeout, or on Ctrl-C, and writes the report of what "
                    + "arrived in every case. 'its-probe compare' overlays runs and the study's raw latencies. "
                    + "Details: docs/latency-probe.md."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "  0:report written (stopped by --records, --duration or --idle-timeout)",
            "  1:Kafka unreachable, topic missing, consuming failed, the run folder could not be written, or "
                    + "the --faults file could not be read (the report is written without it)",
            "  2:bad usage (the message names the option)",
            "130:interrupted (Ctrl-C) after writing the report"
        })
public final class ProbeCommand implements Callable<Integer> {

    /** How long the shutdown hook waits for the report of an interrupted run. */
    private static final Duration REPORT_GRACE = Duration.ofSeconds(60);

    @Spec
    private CommandSpec spec;

    @Mixin
    BootstrapServersOption bootstrap;

    @CommandLine.Mixin
    KafkaConfigOption kafkaConfig;

    @Mixin
    TopicOption topicOption;

    @Mixin
    OutputOption output;

    @Mixin
    RecordsOption recordsOption;

    @Mixin
    DurationOption durationOption;

    @Option(
            names = "--idle-timeout",
            converter = DurationConverter.class,
            paramLabel = "TIME",
            description = "stop when nothing arrived for this long, counted from the first record; a stall "
                    + "shorter than this stays in the measurement (default: off)")
    Duration idleTimeout;

    @Option(
            names = "--expect",
            defaultValue = "0",
            paramLabel = "N",
            description = "measured records the producers will send in all, warm-up records not counted; the "
                    + "report gives the shortfall and progress an ETA (default: unknown)")
    long expect;

    @Option(
            names = "--from-beginning",
            description = "read the topic from its earliest offsets instead of only what is sent from now on")
    boolean fromBeginning;

    @Option(
            names = "--faults",
            paramLabel = "FILE",
            description = "faults injected during the run by another process, read when the run stops: one "
                    + "line 'epoch_ms,label' per fault (e.g. 1718000000123,kill -9 taskmanager-1); the report "
                    + "gives per fault the silence in arrivals, delayed and duplicated records and the time to "
                    + "recover (default: none)")
    Path faults;

    @Option(
            names = "--connect-timeout",
            defaultValue = "10s",
            converter = DurationConverter.class,
            paramLabel = "TIME",
            description = "how long to wait for the broker to describe the topic before giving up "
                    + "(default: ${DEFAULT-VALUE})")
    Duration connectTimeout;

    @Option(
            names = "--progress",
            defaultValue = "2s",
            converter = DurationConverter.class,
            paramLabel = "TIME",
            description = "time between progress lines on stderr; 0 for none (default: ${DEFAULT-VALUE})")
    Duration progress;

    @Mixin
    ConsumerPropertiesOption consumerProps;

    @Mixin
    SloWindowOption windowOption;

    @Mixin
    SloMsOption sloOption;

    @Mixin
    SteadyAfterOption steadyOption;

    @Mixin
    VerboseOption verbose;

    @Mixin
    HelpOption help;

    static final String DEFAULT_BOOTSTRAP_SERVERS = "localhost:9092";

    /** Left out of the steady state without a warm-up phase: the study's runs' start. */
    static final Duration DEFAULT_STEADY_AFTER = Duration.ofSeconds(120);

    private Duration steadyAfter() {
        return steadyOption.given() != null ? steadyOption.given() : DEFAULT_STEADY_AFTER;
    }

    public static void main(String[] args) {
        // Plots are drawn off-screen; without this, AWT would look for a display.
        System.setProperty("java.awt.headless", "true");
        System.exit(commandLine().execute(args));
    }

    /** The command line with its error handling: one clear line on failure, exit code 1. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new ProbeCommand());
        commandLine.setExecutionExceptionHandler((error, cmd, parseResult) -> {
            cmd.getErr().println(cmd.getCommandName() + ": " + message(error));
            if (parseResult.hasMatchedOption("--verbose")
                    || parseResult.subcommand() != null
                            && parseResult.subcommand().hasMatchedOption("--verbose")) {
                error.printStackTrace(cmd.getErr());
            }
            cmd.getErr().flush();
            return 1;
        });
        return commandLine;
    }

    static String message(Throwable error) {
        if (error instanceof NoSuchFileException missing) {
            return "no such file or directory: " + missing.getFile();
        }
        String message = error.getMessage();
        return message == null || message.isBlank() ? error.getClass().getSimpleName() : message;
    }

    @Override
    public Integer call() throws Exception {
        ProbeRun.Options options = options();
        Path folder = RunFolders.orDefault(output.path(), "probe");
        if (Files.exists(folder.resolve(RunReport.SUMMARY_JSON))) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--out " + folder + " already holds a run (summary.json); choose another folder");
        }
        PrintStream err = System.err;
        Charts.prepare();
        LatencyClock clock = Clocks.system();
        ProbeRun run = new ProbeRun(options, clock, err);
        CountDownLatch reported = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    run.stop();
                    try {
                        // Keep the JVM alive until the report of what arrived is on disk.
                        reported.await(REPORT_GRACE.toSeconds(), TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "its-probe-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        ProbeRun.Result result;
        try {
            result = run.runOnKafka(connectTimeout, folder);
            printOutcome(err, result);
        } catch (KafkaSettings.KafkaUnavailableException e) {
            err.println("its-probe: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            // Refused while consuming (a group without an ACL, say): the report of what arrived
            // is written; the cause gets one line.
            var refused = KafkaRefusal.explain(
                    e,
                    options.kafkaConfig(),
                    bootstrap.orElse(DEFAULT_BOOTSTRAP_SERVERS),
                    List.of(topicOption.orElse(Topics.ADVICE)));
            if (refused.isEmpty()) {
                throw e;
            }
            err.println("its-probe: " + refused.get());
            return 1;
        } finally {
            reported.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and lets the JVM exit once it returns.
            }
        }
        return result.reason() == ConsumeLoop.StopReason.INTERRUPTED ? 130 : 0;
    }

    /** Checks every option and turns them into the run's options; a bad one fails naming it. */
    ProbeRun.Options options() {
        CommandLine cmd = spec.commandLine();
        if (recordsOption.orElse(0) < 0) {
            throw new CommandLine.ParameterException(cmd, "--records must be >= 0, got " + recordsOption.orElse(0));
        }
        if (expect < 0) {
            throw new CommandLine.ParameterException(cmd, "--expect must be >= 0, got " + expect);
        }
        if (windowOption.window().isZero() || windowOption.window().isNegative()) {
            throw new CommandLine.ParameterException(cmd, "--window must be longer than 0");
        }
        if (!(sloOption.ms() > 0) || Double.isInfinite(sloOption.ms())) {
            throw new CommandLine.ParameterException(cmd, "--slo-ms must be a number > 0, got " + sloOption.ms());
        }
        if (connectTimeout.isZero()) {
            throw new CommandLine.ParameterException(cmd, "--connect-timeout must be longer than 0");
        }
        if (bootstrap.orElse(DEFAULT_BOOTSTRAP_SERVERS).isBlank()) {
            throw new CommandLine.ParameterException(cmd, "--bootstrap-servers is empty");
        }
        if (topicOption.orElse(Topics.ADVICE).isBlank()) {
            throw new CommandLine.ParameterException(cmd, "--topic is empty");
        }
        try {
            Topic.validate(topicOption.orElse(Topics.ADVICE));
        } catch (InvalidTopicException e) {
            throw new CommandLine.ParameterException(cmd, "--topic: " + e.getMessage());
        }
        for (String key : consumerProps.given().keySet()) {
            if (key.isBlank()) {
                throw new CommandLine.ParameterException(cmd, "--consumer-prop needs KEY=VALUE with a key");
            }
        }
        KafkaClientConfig clientConfig;
        try {
            clientConfig = kafkaConfig.load();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cmd, "--kafka-config " + e.getMessage());
        }
        long durationNs =
                durationOption.given() == null ? 0 : durationOption.given().toNanos();
        long idleNs = idleTimeout == null ? 0 : idleTimeout.toNanos();
        Map<ConsumeLoop.StopReason, String> stops = new EnumMap<>(ConsumeLoop.StopReason.class);
        stops.put(ConsumeLoop.StopReason.RECORDS, "--records " + recordsOption.orElse(0));
        stops.put(
                ConsumeLoop.StopReason.DURATION,
                "--duration " + (durationOption.given() == null ? "" : Durations.format(durationOption.given())));
        stops.put(
                ConsumeLoop.StopReason.IDLE,
                "--idle-timeout " + (idleTimeout == null ? "" : Durations.format(idleTimeout))
                        + " (nothing arrived for that long)");
        stops.put(ConsumeLoop.StopReason.INTERRUPTED, "interrupt (Ctrl-C)");
        long sloNs = Math.round(sloOption.ms() * 1e6);
        return ProbeRun.Options.builder()
                .topic(topicOption.orElse(Topics.ADVICE))
                .bootstrapServers(bootstrap.orElse(DEFAULT_BOOTSTRAP_SERVERS))
                .fromBeginning(fromBeginning)
                .consumerOverrides(consumerProps.given())
                .limits(new ConsumeLoop.Limits(recordsOption.orElse(0), durationNs, idleNs))
                .settings(new RunStats.Settings(
                        windowOption.window().toNanos(), sloNs, steadyAfter().toNanos()))
                .expected(expect)
                .progressEveryNs(progress.toNanos())
                .stopDescription(stops)
                .faultsFile(faults)
                .kafkaConfig(clientConfig)
                .build();
    }

    private static void printOutcome(PrintStream err, ProbeRun.Result result) {
        RunStats stats = result.stats();
        LatencyKind kind = stats.primaryKind();
        LatencySummary s = stats.latency(kind).summary();
        SequenceTracker.DetectorCounts total = stats.sequences().total();
        WindowedSlo.Report slo = stats.slo(kind);
        if (s.isEmpty()) {
            err.println("its-probe: no measurable record arrived ("
                    + stats.malformed().total() + " malformed)");
        } else {
            err.println(String.format(
                    Locale.ROOT,
                    "its-probe: %,d records, latency %s: p50 %s ms, p99 %s ms, p99.9 %s ms, max %s ms; "
                            + "lost %d, dup %d, reordered %d, malformed %d; SLO violation ratio %s",
                    s.count(),
                    kind.label(),
                    Decimals.ms(s.p50Ns(), 3),
                    Decimals.ms(s.p99Ns(), 3),
                    Decimals.ms(s.p999Ns(), 3),
                    Decimals.ms(s.maxNs(), 3),
                    total.lost(),
                    total.duplicated(),
                    total.reordered(),
                    stats.malformed().total(),
                    Decimals.percent(slo.ratio())));
        }
        err.println("its-probe: report in " + result.folder().resolve(RunReport.SUMMARY_MD));
        err.flush();
    }
}
