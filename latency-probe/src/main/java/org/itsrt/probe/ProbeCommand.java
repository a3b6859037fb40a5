package org.itsrt.probe;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.itsrt.cli.OneLineErrors;
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
import org.itsrt.probe.accuracy.AccuracyCommand;
import org.itsrt.probe.arrival.ConsumeLoop;
import org.itsrt.probe.arrival.ProbeConsumerSettings;
import org.itsrt.probe.compare.CompareCommand;
import org.itsrt.probe.report.Charts;
import org.itsrt.probe.stats.RunStats;
import org.itsrt.records.Topics;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code its-probe}: measures end-to-end latency off a Kafka topicOption.orElse(Topics.ADVICE); {@code its-probe compare} sets runs side by side. */
@Command(
        name = "its-probe",
        sortOptions = false,
        subcommands = {CompareCommand.class, AccuracyCommand.class},
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
            "--workload district measures readings -> predictions and requests -> answers apart, each into a "
                    + "folder of these files, beside a summary.md with a row per stream.",
            "Stops after --records, --duration or --idle-timeout, or on Ctrl-C, and writes the report of what "
                    + "arrived in every case. 'its-probe compare' overlays runs and the study's raw latencies; "
                    + "'its-probe accuracy' holds runs' predictions against a run the LSTM served alone. "
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
    MeasuredWorkloadOptions workloadOption;

    @Mixin
    OutputOption output;

    @Mixin
    RecordsOption recordsOption;

    @Mixin
    DurationOption durationOption;

    @Mixin
    ConsumeOptions consume;

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

    public static void main(String[] args) {
        // Plots are drawn off-screen; without this, AWT would look for a display.
        System.setProperty("java.awt.headless", "true");
        System.exit(commandLine().execute(args));
    }

    /** The command line with its error handling: one clear line on failure, exit code 1. */
    public static CommandLine commandLine() {
        return OneLineErrors.install(new CommandLine(new ProbeCommand()));
    }

    @Override
    public Integer call() throws Exception {
        ProbeOptions options = options();
        Path folder = RunFolders.orDefault(output.path(), "probe");
        String heldRun = ProbeRun.runIn(folder);
        if (heldRun != null) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--out " + folder + " already holds a run (" + heldRun + "); choose another folder");
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
            result = run.runOnKafka(consume.connectTimeout, folder);
            err.print(result.outcome());
            err.flush();
        } catch (ProbeConsumerSettings.KafkaUnavailableException e) {
            err.println("its-probe: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            // Refused while consuming (a group without an ACL, say): the report of what arrived
            // is written; the cause gets one line.
            var refused = KafkaRefusal.explain(
                    e, options.kafkaConfig(), bootstrap.orElse(DEFAULT_BOOTSTRAP_SERVERS), options.topics());
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
    ProbeOptions options() {
        CommandLine cmd = spec.commandLine();
        if (recordsOption.orElse(0) < 0) {
            throw new CommandLine.ParameterException(cmd, "--records must be >= 0, got " + recordsOption.orElse(0));
        }
        if (bootstrap.orElse(DEFAULT_BOOTSTRAP_SERVERS).isBlank()) {
            throw new CommandLine.ParameterException(cmd, "--bootstrap-servers is empty");
        }
        for (String problem : new String[] {
            windowOption.problem(),
            sloOption.problem(),
            consume.problem(),
            TopicOption.problem(topicOption.orElse(Topics.ADVICE)),
            consumerProps.problem(),
            workloadOption.problem(topicOption.orElse(null) != null)
        }) {
            if (problem != null) {
                throw new CommandLine.ParameterException(cmd, problem);
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
        long idleNs = consume.idleTimeout == null ? 0 : consume.idleTimeout.toNanos();
        Map<ConsumeLoop.StopReason, String> stops =
                consume.stopDescription(recordsOption.orElse(0), durationOption.given());
        long sloNs = Math.round(sloOption.ms() * 1e6);
        return ProbeOptions.builder()
                .workload(workloadOption.workload())
                .topic(workloadOption.topic(topicOption.orElse(Topics.ADVICE)))
                .expectedRequests(workloadOption.expectRequests)
                .bootstrapServers(bootstrap.orElse(DEFAULT_BOOTSTRAP_SERVERS))
                .fromBeginning(consume.fromBeginning)
                .consumerOverrides(consumerProps.given())
                .limits(new ConsumeLoop.Limits(recordsOption.orElse(0), durationNs, idleNs))
                .settings(new RunStats.Settings(
                        windowOption.window().toNanos(),
                        sloNs,
                        (steadyOption.given() != null ? steadyOption.given() : DEFAULT_STEADY_AFTER).toNanos()))
                .expected(consume.expect)
                .progressEveryNs(consume.progress.toNanos())
                .stopDescription(stops)
                .faultsFile(consume.faults)
                .kafkaConfig(clientConfig)
                .build();
    }
}
