package org.itsrt.job.config;

import java.io.Serializable;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.util.ParameterTool;
import org.itsrt.records.Workload;

/**
 * What one run of the job is told: its {@link Workload}, and five groups: the Kafka ends, the
 * model and its engine, the route to advise (or the graph alone, for the district's requests),
 * the latency and runtime knobs, and the delivery guarantee. Parsed from
 * {@code --name value} arguments with Flink's {@link ParameterTool} and validated as a whole
 * before anything starts: a missing model, a bad topic name, a detector that is not in the graph
 * or a number out of range fails with one {@link JobSettingsException} naming the option (and
 * the file). The options themselves, their defaults and checks are declared in
 * {@link JobOptions}; why the defaults are what they are: docs/job.md, section 3.
 *
 * <p>Immutable and {@link Serializable}. Each Flink function is handed only the group it uses.
 */
public final class JobSettings implements Serializable {

    private static final long serialVersionUID = 3L;

    private final Workload workload;
    private final KafkaSettings kafka;
    private final ModelSettings model;
    private final RoutingSettings routing;
    private final RuntimeSettings runtime;
    private final DeliverySettings delivery;

    /** The study workload's settings. */
    public JobSettings(
            KafkaSettings kafka,
            ModelSettings model,
            RoutingSettings routing,
            RuntimeSettings runtime,
            DeliverySettings delivery) {
        this(Workload.STUDY, kafka, model, routing, runtime, delivery);
    }

    /**
     * @throws JobSettingsException for a district workload with {@code --identity}, or a study
     *                              workload without its fixed query
     */
    public JobSettings(
            Workload workload,
            KafkaSettings kafka,
            ModelSettings model,
            RoutingSettings routing,
            RuntimeSettings runtime,
            DeliverySettings delivery) {
        if (workload == Workload.DISTRICT && model.identity()) {
            throw new JobSettingsException(
                    JobOptions.IDENTITY.flag(),
                    "replaces the study's advice and has no district counterpart; leave it out with "
                            + JobOptions.WORKLOAD.flag() + " district");
        }
        if (workload == Workload.STUDY && !routing.hasFixedQuery()) {
            throw new JobSettingsException(
                    JobOptions.ORIGIN.flag(), "the study workload needs its origin and destination");
        }
        this.workload = workload;
        this.kafka = kafka;
        this.model = model;
        this.routing = routing;
        this.runtime = runtime;
        this.delivery = delivery;
    }

    /**
     * Parses and validates the job's arguments.
     *
     * @throws JobSettingsException naming the option (and the file) that cannot be used
     */
    public static JobSettings fromArgs(String... args) {
        ParameterTool params;
        try {
            params = ParameterTool.fromArgs(args);
        } catch (IllegalArgumentException e) {
            throw new JobSettingsException(
                    null,
                    "cannot read the command line: " + e.getMessage() + " (options are --name value; see --help)",
                    e);
        }
        return fromMap(params.toMap());
    }

    /** As {@link #fromArgs}, from option names (without {@code --}) and values. */
    public static JobSettings fromMap(Map<String, String> options) {
        JobOptions.rejectUnknown(options);
        return new JobSettings(
                JobOptions.WORKLOAD.read(options),
                KafkaSettings.from(options),
                ModelSettings.from(options),
                RoutingSettings.from(options),
                RuntimeSettings.from(options),
                DeliverySettings.from(options));
    }

    /** True when the arguments ask for the usage text instead of a run. */
    public static boolean isHelp(String... args) {
        return Arrays.asList(args).contains("--" + JobOptions.HELP)
                || Arrays.asList(args).contains("-h");
    }

    /** The options, their defaults and what they do. */
    public static String usage() {
        return JobOptions.usage();
    }

    public Workload workload() {
        return workload;
    }

    public KafkaSettings kafka() {
        return kafka;
    }

    public ModelSettings model() {
        return model;
    }

    public RoutingSettings routing() {
        return routing;
    }

    public RuntimeSettings runtime() {
        return runtime;
    }

    public DeliverySettings delivery() {
        return delivery;
    }

    /** The effective settings by option name, in the order of {@link JobOptions#all()}, defaults and derived values included. */
    public Map<String, String> asMap() {
        Map<String, String> map = new LinkedHashMap<>();
        JobOptions.all().forEach(option -> option.describe(this, map));
        return map;
    }

    /** One line per setting, for run reports. */
    public String describe() {
        StringBuilder text = new StringBuilder();
        asMap().forEach((key, value) ->
                text.append(key).append(": ").append(value).append('\n'));
        return text.toString();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("JobSettings[");
        asMap().forEach((key, value) ->
                text.append(key).append('=').append(value).append(", "));
        text.setLength(text.length() - 2);
        return text.append(']').toString();
    }
}
