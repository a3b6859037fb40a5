package org.itsrt.probe;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.probe.arrival.ConsumeLoop;
import org.itsrt.probe.fault.FaultFile;
import org.itsrt.probe.stats.RunStats;
import org.itsrt.records.Workload;

/**
 * How to run the probe. Build it with {@link #builder()}, which holds the defaults; the
 * constructor refuses a missing field, naming it.
 *
 * @param topic          the topic to measure for the study's workload; null for the district
 *                       workload, which reads {@code districtTopics}
 * @param bootstrapServers the brokers to read from
 * @param groupId        the consumer group ({@link ProbeRun#groupId}: a fresh one unless the
 *                       consumer overrides name one)
 * @param fromBeginning  read the topic from its earliest offsets, not only what is sent from now on
 * @param consumerOverrides Kafka consumer settings over the probe's
 * @param limits         when to stop
 * @param settings       SLO window, SLO and steady-state cut
 * @param expected       measured records the producers will send ({@code --expect}), 0 when
 *                       unknown; warm-up records are not counted
 * @param progressEveryNs time between progress lines, 0 for none
 * @param stopDescription why the run stopped, per reason, for the report (e.g. {@code --records 20000})
 * @param faultsFile     a faults file ({@link FaultFile}) written by the process that injects
 *                       faults, read when the run stops; null for none (faults, if any, are
 *                       then marked with {@link ProbeRun#markFault})
 * @param kafkaConfig    a client properties file's settings ({@code --kafka-config}), applied to
 *                       the consumer and the topic check under {@code consumerOverrides}; null: none
 * @param workload       what is measured ({@code --workload}): the study's one stream on
 *                       {@code topic}, or the district workload's two streams apart; null: the study
 * @param districtTopics the district workload's topics; null: {@link MeasuredDistrictTopics#defaults()}
 *                       (for the district workload; must be null for the study)
 * @param expectedRequests measured route requests the producers will send
 *                       ({@code --expect-requests}), 0 when unknown: the district workload's
 *                       expected answers; {@code expected} is then its expected predictions
 */
public record ProbeOptions(
        String topic,
        String bootstrapServers,
        String groupId,
        boolean fromBeginning,
        Map<String, String> consumerOverrides,
        ConsumeLoop.Limits limits,
        RunStats.Settings settings,
        long expected,
        long progressEveryNs,
        Map<ConsumeLoop.StopReason, String> stopDescription,
        Path faultsFile,
        KafkaClientConfig kafkaConfig,
        Workload workload,
        MeasuredDistrictTopics districtTopics,
        long expectedRequests) {

    public ProbeOptions {
        if (kafkaConfig == null) {
            kafkaConfig = KafkaClientConfig.none();
        }
        if (workload == null) {
            workload = Workload.STUDY;
        }
        if (workload == Workload.STUDY) {
            requireGiven(topic, "topic");
            if (districtTopics != null) {
                throw new IllegalArgumentException("districtTopics are for the district workload, not the study's");
            }
            if (expectedRequests != 0) {
                throw new IllegalArgumentException("expectedRequests is for the district workload, not the study's");
            }
        } else {
            if (topic != null) {
                throw new IllegalArgumentException(
                        "topic " + topic + " is the study's; the district workload reads districtTopics");
            }
            if (districtTopics == null) {
                districtTopics = MeasuredDistrictTopics.defaults();
            }
        }
        if (expected < 0 || expectedRequests < 0) {
            throw new IllegalArgumentException("expected and expectedRequests cannot be negative");
        }
        requireGiven(bootstrapServers, "bootstrapServers");
        requireGiven(consumerOverrides, "consumerOverrides");
        requireGiven(groupId, "groupId");
        requireGiven(limits, "limits");
        requireGiven(settings, "settings");
        requireGiven(stopDescription, "stopDescription");
        consumerOverrides = Map.copyOf(consumerOverrides);
        stopDescription = Map.copyOf(stopDescription);
    }

    /** The topics the run consumes: the study's topic, or the district workload's. */
    public List<String> topics() {
        return workload == Workload.STUDY ? List.of(topic) : districtTopics.consumed();
    }

    /** The topics for people: {@code its.advice}, or {@code its.predictions, its.routes, ...}. */
    public String topicsText() {
        return String.join(", ", topics());
    }

    private static void requireGiven(Object value, String field) {
        if (value == null) {
            throw new IllegalArgumentException(field + " must be given");
        }
    }

    /**
     * ProbeOptions of the study's workload that read only what is sent from now on, in a fresh
     * consumer group, with no limit, expected count, progress line, faults file or client
     * properties file. The topic (or {@link Builder#workload} district), the brokers and the
     * statistics' settings have no default.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options, to change a few of them. */
    public Builder toBuilder() {
        return new Builder()
                .topic(topic)
                .bootstrapServers(bootstrapServers)
                .groupId(groupId)
                .fromBeginning(fromBeginning)
                .consumerOverrides(consumerOverrides)
                .limits(limits)
                .settings(settings)
                .expected(expected)
                .progressEveryNs(progressEveryNs)
                .stopDescription(stopDescription)
                .faultsFile(faultsFile)
                .kafkaConfig(kafkaConfig)
                .workload(workload)
                .districtTopics(workload == Workload.DISTRICT ? districtTopics : null)
                .expectedRequests(expectedRequests);
    }

    /** ProbeOptions field by field, from the defaults of {@link ProbeOptions#builder()}. */
    public static final class Builder {
        private String topic;
        private String bootstrapServers;
        /** Null until set: {@link #build()} then takes the consumer overrides' group or a fresh one. */
        private String groupId;

        private boolean fromBeginning;
        private Map<String, String> consumerOverrides = Map.of();
        private ConsumeLoop.Limits limits = ConsumeLoop.Limits.none();
        private RunStats.Settings settings;
        private long expected;
        private long progressEveryNs;
        private Map<ConsumeLoop.StopReason, String> stopDescription = Map.of();
        private Path faultsFile;
        private KafkaClientConfig kafkaConfig = KafkaClientConfig.none();
        private Workload workload = Workload.STUDY;
        private MeasuredDistrictTopics districtTopics;
        private long expectedRequests;

        private Builder() {}

        public Builder topic(String name) {
            this.topic = name;
            return this;
        }

        public Builder bootstrapServers(String servers) {
            this.bootstrapServers = servers;
            return this;
        }

        /** The consumer group; by default {@link ProbeRun#groupId} of the consumer overrides. */
        public Builder groupId(String group) {
            this.groupId = group;
            return this;
        }

        public Builder fromBeginning(boolean earliest) {
            this.fromBeginning = earliest;
            return this;
        }

        public Builder consumerOverrides(Map<String, String> overrides) {
            this.consumerOverrides = overrides;
            return this;
        }

        public Builder limits(ConsumeLoop.Limits when) {
            this.limits = when;
            return this;
        }

        public Builder settings(RunStats.Settings statistics) {
            this.settings = statistics;
            return this;
        }

        public Builder expected(long measured) {
            this.expected = measured;
            return this;
        }

        public Builder progressEveryNs(long ns) {
            this.progressEveryNs = ns;
            return this;
        }

        public Builder stopDescription(Map<ConsumeLoop.StopReason, String> byReason) {
            this.stopDescription = byReason;
            return this;
        }

        public Builder faultsFile(Path file) {
            this.faultsFile = file;
            return this;
        }

        /** A client properties file's settings ({@code --kafka-config}); null: none. */
        public Builder kafkaConfig(KafkaClientConfig config) {
            this.kafkaConfig = config;
            return this;
        }

        /**
         * What is measured; {@link Workload#DISTRICT} reads {@link #districtTopics} (by default
         * those of {@link MeasuredDistrictTopics#defaults()}) and takes no topic.
         */
        public Builder workload(Workload what) {
            this.workload = what;
            return this;
        }

        /** The district workload's topics; null: {@link MeasuredDistrictTopics#defaults()}. */
        public Builder districtTopics(MeasuredDistrictTopics topics) {
            this.districtTopics = topics;
            return this;
        }

        /** Measured route requests the producers will send, for the district workload's answers. */
        public Builder expectedRequests(long measured) {
            this.expectedRequests = measured;
            return this;
        }

        public ProbeOptions build() {
            return new ProbeOptions(
                    topic,
                    bootstrapServers,
                    groupId == null && consumerOverrides != null ? ProbeRun.groupId(consumerOverrides) : groupId,
                    fromBeginning,
                    consumerOverrides,
                    limits,
                    settings,
                    expected,
                    progressEveryNs,
                    stopDescription,
                    faultsFile,
                    kafkaConfig,
                    workload,
                    districtTopics,
                    expectedRequests);
        }
    }
}
