package org.itsrt.producers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.itsrt.cli.Durations;
import org.itsrt.cli.MissingDefaultException;
import org.itsrt.cli.options.DataOption;
import org.itsrt.cli.options.DetectorsOption;
import org.itsrt.cli.options.DurationOption;
import org.itsrt.cli.options.RateOption;
import org.itsrt.cli.options.RecordsOption;
import org.itsrt.cli.options.SweepOptions;
import org.itsrt.cli.options.WarmupOptions;
import org.itsrt.kafka.BootstrapServersOption;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.kafka.KafkaConfigOption;
import org.itsrt.kafka.ProducerPropertiesOption;
import org.itsrt.kafka.TopicOption;
import org.itsrt.producers.send.RunSummary;
import org.itsrt.records.Topics;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code its-producer}: replays canonical readings into Kafka on one open-loop schedule, a few threads sending. */
@Command(
        name = "its-producer",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Replays canonical readings as D2 records (docs/records.md), each detector sending its last-hour "
                    + "window at a fixed rate (--rate, or --speedup of the 5-minute cadence) on one open-loop "
                    + "schedule, sent by a few threads with a Kafka producer each: every record carries "
                    + "the time it was meant to be sent (intended_ns) beside the time it was (sent_ns), both on "
                    + "the host's TSC clock, so a stalled producer cannot hide latency.",
            "With --sweep it runs one step per total rate instead and reports the throughput and "
                    + "acknowledgement latency each rate reached."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0   all records sent and acknowledged",
            "1   broker, topic or input problem, or failed sends",
            "2   bad usage"
        })
public final class ProducerCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    BootstrapServersOption bootstrap;

    @Mixin
    TopicOption topicOption;

    @Mixin
    DataOption data;

    @Mixin
    DetectorsOption detectors;

    @Mixin
    DistrictSendOptions district;

    @Mixin
    RateOption rateOption;

    @Mixin
    RecordsOption recordsOption;

    @Mixin
    DurationOption duration;

    @Mixin
    WarmupOptions warmup;

    @Mixin
    SendOptions send;

    @Mixin
    ProducerPropertiesOption producerProps;

    @Mixin
    SweepOptions sweep;

    @Option(names = "--report", paramLabel = "FILE", description = "also write the summary (Markdown) to this file")
    Path report;

    @CommandLine.Mixin
    KafkaConfigOption kafkaConfig;

    /** Records in all by default: one study experiment's run. */
    static final long DEFAULT_RECORDS = 20_000;

    /** Each sweep step's length by default: a throughput step, not a latency run. */
    static final Duration DEFAULT_STEP = Duration.ofSeconds(10);

    @Override
    public Integer call() throws Exception {
        String bootstrapServers = bootstrap.orElse("localhost:9092");
        String topic = topicOption.orElse(Topics.READINGS);
        double rate = rateOption.perDetector();
        long records = recordsOption.orElse(DEFAULT_RECORDS);
        validate(topic);
        KafkaClientConfig clientConfig;
        try {
            clientConfig = kafkaConfig.load();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--kafka-config " + e.getMessage());
        }
        Path table;
        try {
            table = data.path();
        } catch (MissingDefaultException e) {
            System.err.println("its-producer: --data not given, and its default is missing: " + e.getMessage());
            return 1;
        }
        ProducerPlan plan;
        try {
            plan = ProducerPlan.builder()
                    .bootstrapServers(bootstrapServers)
                    .topic(topic)
                    .data(table)
                    .detectors(district.detectors(detectors.ids()))
                    .requests(district.requests())
                    .ratePerDetector(rate)
                    .records(records)
                    .acks(send.acks)
                    .producerProperties(producerProps.given())
                    .progressEvery(send.progressEvery)
                    .senderThreads(send.senderThreads)
                    .kafkaConfig(clientConfig)
                    .warmupRecords(warmup.records() != null ? warmup.records() : 0)
                    .loadStep(send.loadStep.step())
                    .build();
        } catch (ProducerRun.InvalidPlan e) {
            // The plan holds the rules; the command only says which of its options broke one.
            throw new CommandLine.ParameterException(spec.commandLine(), optionFor(e.field()) + " " + e.problem());
        }
        ProducerRun run;
        try {
            run = ProducerRun.prepare(plan, System.err);
        } catch (ProducerRun.NotReplayable e) {
            System.err.println("its-producer: " + e.getMessage());
            return 1;
        }
        // A warm-up time is records of every detector replayed, which --district knows only now.
        long warmupTotal = warmup.time() != null
                ? ProducerRun.warmupRecordsOf(warmup.time(), rate, run.detectors())
                : plan.warmupRecords();
        Thread hook = new Thread(run::stop, "its-producer-stop");
        Runtime.getRuntime().addShutdownHook(hook);

        String markdown;
        boolean failures;
        if (!sweep.given()) {
            double seconds = duration.given() != null ? duration.given().toNanos() / 1e9 : Double.NaN;
            long total = duration.given() != null ? Math.round(seconds * rate) * run.detectors() : records;
            RunSummary summary = run.replay(plan.ratePerDetector(), total, warmupTotal);
            markdown = run.markdown(summary);
            failures = summary.failed() > 0 || summary.acked() < summary.sent();
        } else {
            Duration step = sweep.stepDuration() != null ? sweep.stepDuration() : DEFAULT_STEP;
            List<RunSummary> steps = new ArrayList<>();
            for (double totalRate : sweep.rates()) {
                System.err.printf(
                        Locale.ROOT,
                        "its-producer: sweep step %,.0f records/s for %s%n",
                        totalRate,
                        Durations.format(step));
                long total = Math.max(run.detectors(), Math.round(totalRate * step.toNanos() / 1e9));
                // --sweep gives each step's rate over all detectors; the replay takes it per detector.
                steps.add(run.replay(totalRate / run.detectors(), total));
            }
            markdown = RunSummary.sweepMarkdown(
                    steps, topic, bootstrapServers, run.clock().info().describe(), run.producerConfig());
            failures = steps.stream().anyMatch(s -> s.failed() > 0);
        }
        System.out.print(markdown);
        if (report != null) {
            Path parent = report.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Files.writeString(report, markdown);
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // Ctrl-C: the hook already ran and the summary above covers what was sent
        }
        return failures ? 1 : 0;
    }

    /**
     * Checks what only the command knows (how its options go together, its durations); the rate,
     * records, acks and warm-up records are the plan's to refuse ({@link ProducerPlan}).
     */
    private void validate(String topic) {
        if (warmup.time() != null && warmup.records() != null) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--warmup and --warmup-records are mutually exclusive: give one");
        }
        if (sweep.given() && (warmup.given() || send.loadStep.given() != null)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--warmup, --warmup-records and --load-step are for one replay, not --sweep");
        }
        try {
            sweep.rates();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--sweep: " + e.getMessage());
        }
        String topicProblem = TopicOption.problem(topic);
        if (topicProblem != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), topicProblem);
        }
        requireLongerThanZero(duration.given(), "--duration");
        requireLongerThanZero(sweep.stepDuration(), "--step-duration");
        requireLongerThanZero(send.progressEvery, "--progress-every");
    }

    /** The option that sets a plan's field, to name it in a refusal (the fields options can make invalid). */
    private String optionFor(String field) {
        return switch (field) {
            case "ratePerDetector" -> rateOption.option();
            case "senderThreads" -> "--sender-threads";
            case "records" -> "--records";
            case "warmupRecords" -> warmup.records() != null ? "--warmup-records" : "--warmup";
            case "acks" -> "--acks";
            case "detectors" -> "--detectors";
            default -> field;
        };
    }

    private void requireLongerThanZero(Duration value, String option) {
        if (value != null && (value.isZero() || value.isNegative())) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), option + " must be longer than 0, got " + Durations.format(value));
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ProducerCommand()).execute(args));
    }
}
