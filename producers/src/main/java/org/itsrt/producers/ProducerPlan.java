package org.itsrt.producers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.producers.send.LoadStep;
import org.itsrt.producers.send.ReplayRun;
import org.itsrt.records.Topics;

/**
 * What to replay and where. Build it with {@link #builder()}, which holds the defaults; the
 * constructor refuses a value no replay can take ({@link ProducerRun.InvalidPlan}, naming the field), so
 * the producers' rules live here and nowhere else.
 *
 * @param bootstrapServers Kafka to send to
 * @param topic           the topic to send to
 * @param data            the canonical readings table to replay
 * @param detectors       VDS ids to replay; empty for every detector of the table
 * ({@link #EVERY_DETECTOR}, a district's thousands)
 * @param ratePerDetector records per second per detector: the unit of the plan, the replay and
 *                        the schedule alike
 * @param records         records in all, shared by the detectors
 * @param acks            all, 1 or 0
 * @param producerProperties Kafka producer settings that override the latency defaults
 * @param progressEvery   time between progress lines; zero for none
 * @param kafkaConfig     a client properties file's settings ({@code --kafka-config}), applied
 *                        to the producers and the checks over the latency defaults, under
 *                        {@code producerProperties}; null: none
 * @param warmupRecords   warm-up records in all, shared by the detectors like {@code records}
 *                        and sent before them, flagged, on the same schedule (0: none). Counted
 *                        in records, not time, so the producers, the probe and a report all agree
 *                        on how many there were; {@link ProducerRun#warmupRecordsOf} turns a
 *                        duration into records.
 * @param senderThreads   threads sending, each with its own producer and a slice of the
 *                        detectors, at most one per detector; 0 for the default,
 *                        {@link ReplayRun#defaultSenderThreads}: one per detector up to six
 *                        (the study's shape), four beyond
 * @param requests        route requests sent beside the readings, on their own schedule
 *                        (the district workload); null: none
 * @param loadStep        the rate stepped up (or down) for a while, readings and requests alike,
 *                        from the first record sent; {@link LoadStep#NONE} for a constant rate
 */
public record ProducerPlan(
        String bootstrapServers,
        String topic,
        Path data,
        List<Long> detectors,
        double ratePerDetector,
        long records,
        String acks,
        Map<String, String> producerProperties,
        Duration progressEvery,
        KafkaClientConfig kafkaConfig,
        long warmupRecords,
        int senderThreads,
        ProducerRun.Requests requests,
        LoadStep loadStep) {

    public ProducerPlan {
        if (kafkaConfig == null) {
            kafkaConfig = KafkaClientConfig.none();
        }
        if (loadStep == null) {
            loadStep = LoadStep.NONE;
        }
        requireGiven(bootstrapServers, "bootstrapServers");
        requireGiven(topic, "topic");
        requireGiven(data, "data");
        requireGiven(detectors, "detectors");
        requireGiven(acks, "acks");
        requireGiven(producerProperties, "producerProperties");
        requireGiven(progressEvery, "progressEvery");
        detectors = List.copyOf(detectors);
        producerProperties = Map.copyOf(producerProperties);
        checkLoad(ratePerDetector, records, warmupRecords);
        if (senderThreads < 0) {
            throw new ProducerRun.InvalidPlan(
                    "senderThreads", "must be >= 1, or 0 for the default, got " + senderThreads);
        }
        if (!ProducerRun.ACKS.contains(acks)) {
            throw new ProducerRun.InvalidPlan("acks", "must be all, 1 or 0, got " + acks);
        }
        if (progressEvery.isNegative()) {
            throw new ProducerRun.InvalidPlan(
                    "progressEvery", "must not be negative (zero: none), got " + progressEvery);
        }
    }

    /**
     * Refuses a rate, a record count or a warm-up count that no plan takes, as the constructor
     * does and naming the field the same way: for a caller that holds a load long before it
     * builds a plan (the pipeline runner's load) and must refuse it before anything starts.
     *
     * @throws ProducerRun.InvalidPlan naming {@code ratePerDetector}, {@code records} or {@code warmupRecords}
     */
    public static void checkLoad(double ratePerDetector, long records, long warmupRecords) {
        if (!(ratePerDetector > 0) || ratePerDetector > ProducerRun.MAX_RATE_PER_DETECTOR) {
            throw new ProducerRun.InvalidPlan(
                    "ratePerDetector",
                    "must be in (0, " + ProducerRun.MAX_RATE_PER_DETECTOR + "] records/s per detector, got "
                            + ratePerDetector);
        }
        if (records < 1) {
            throw new ProducerRun.InvalidPlan("records", "must be >= 1, got " + records);
        }
        if (warmupRecords < 0) {
            throw new ProducerRun.InvalidPlan("warmupRecords", "must be >= 0, got " + warmupRecords);
        }
    }

    private static void requireGiven(Object value, String field) {
        if (value == null) {
            throw new ProducerRun.InvalidPlan(field, "must be given");
        }
    }

    /**
     * A plan of the study's load: its six detectors at 10 records/s each, acks=all, the
     * latency defaults, a progress line every 2 s, no warm-up, to {@link Topics#READINGS}. The
     * broker, the table and the records have no default.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this plan, to change a few of its fields. */
    public Builder toBuilder() {
        return new Builder()
                .bootstrapServers(bootstrapServers)
                .topic(topic)
                .data(data)
                .detectors(detectors)
                .ratePerDetector(ratePerDetector)
                .records(records)
                .acks(acks)
                .producerProperties(producerProperties)
                .progressEvery(progressEvery)
                .kafkaConfig(kafkaConfig)
                .warmupRecords(warmupRecords)
                .senderThreads(senderThreads)
                .requests(requests)
                .loadStep(loadStep);
    }

    /** A plan field by field, from the defaults of {@link ProducerPlan#builder()}; {@link #build()} checks it. */
    public static final class Builder {
        private String bootstrapServers;
        private String topic = Topics.READINGS;
        private Path data;
        private List<Long> detectors = ProducerRun.STUDY_DETECTORS;
        private double ratePerDetector = 10;
        private long records;
        private String acks = "all";
        private Map<String, String> producerProperties = Map.of();
        private Duration progressEvery = Duration.ofSeconds(2);
        private KafkaClientConfig kafkaConfig = KafkaClientConfig.none();
        private long warmupRecords;
        private int senderThreads;
        private ProducerRun.Requests requests;
        private LoadStep loadStep = LoadStep.NONE;

        private Builder() {}

        public Builder bootstrapServers(String servers) {
            this.bootstrapServers = servers;
            return this;
        }

        public Builder topic(String name) {
            this.topic = name;
            return this;
        }

        public Builder data(Path table) {
            this.data = table;
            return this;
        }

        public Builder detectors(List<Long> ids) {
            this.detectors = ids;
            return this;
        }

        /** Records per second on each detector (not over all of them). */
        public Builder ratePerDetector(double perDetector) {
            this.ratePerDetector = perDetector;
            return this;
        }

        /** Measured records in all, shared by the detectors. */
        public Builder records(long total) {
            this.records = total;
            return this;
        }

        public Builder acks(String value) {
            this.acks = value;
            return this;
        }

        public Builder producerProperties(Map<String, String> properties) {
            this.producerProperties = properties;
            return this;
        }

        public Builder progressEvery(Duration every) {
            this.progressEvery = every;
            return this;
        }

        /** A client properties file's settings ({@code --kafka-config}); null: none. */
        public Builder kafkaConfig(KafkaClientConfig config) {
            this.kafkaConfig = config;
            return this;
        }

        /** Warm-up records in all, sent first (0: none). */
        public Builder warmupRecords(long total) {
            this.warmupRecords = total;
            return this;
        }

        /**
         * Threads sending, each with its own producer, at most one per detector; 0 (the
         * default) for {@link ReplayRun#defaultSenderThreads}.
         */
        public Builder senderThreads(int threads) {
            this.senderThreads = threads;
            return this;
        }

        /** Route requests sent beside the readings; null (the default): none. */
        public Builder requests(ProducerRun.Requests part) {
            this.requests = part;
            return this;
        }

        /** The rate stepped for a while; {@link LoadStep#NONE} (the default): constant. */
        public Builder loadStep(LoadStep step) {
            this.loadStep = step;
            return this;
        }

        /**
         * The plan.
         *
         * @throws ProducerRun.InvalidPlan naming the field whose value no replay can take
         */
        public ProducerPlan build() {
            return new ProducerPlan(
                    bootstrapServers,
                    topic,
                    data,
                    detectors,
                    ratePerDetector,
                    records,
                    acks,
                    producerProperties,
                    progressEvery,
                    kafkaConfig,
                    warmupRecords,
                    senderThreads,
                    requests,
                    loadStep);
        }
    }
}
