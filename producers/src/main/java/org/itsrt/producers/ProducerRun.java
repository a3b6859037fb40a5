package org.itsrt.producers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.itsrt.clock.Clocks;
import org.itsrt.clock.LatencyClock;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.producers.replay.DetectorWindows;
import org.itsrt.producers.send.KafkaChecks;
import org.itsrt.producers.send.ProducerSettings;
import org.itsrt.producers.send.ReplayRun;
import org.itsrt.producers.send.RunSummary;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.Reading;
import org.itsrt.readings.StudyStation;

/**
 * One replay of canonical readings into Kafka, as a library: one producer per detector, each on
 * an open-loop schedule, every record stamped with the host's latency clock. The producer CLI and
 * the pipeline runner both use it; neither builds the other's command line.
 *
 * <p>{@link #prepare} reads the table and checks the broker and the topic, so that bad input fails
 * before anything is sent; {@link #run} sends and returns what was sent and acknowledged.
 */
public final class ProducerRun {

    /**
     * What to replay and where.
     *
     * @param detectors       VDS ids, one producer each
     * @param ratePerDetector records per second per detector
     * @param records         records in all, shared by the detectors
     * @param acks            all, 1 or 0
     * @param producerProperties Kafka producer settings that override the latency defaults
     * @param progressEvery   time between progress lines; zero for none
     * @param kafkaConfig     a client properties file's settings ({@code --kafka-config}), applied
     *                        to the producers and the checks over the latency defaults, under
     *                        {@code producerProperties}
     * @param warmupRecords   warm-up records in all, shared by the detectors like {@code records}
     *                        and sent before them, flagged, on the same schedule (0: none)
     */
    public record Plan(
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
            long warmupRecords) {

        public Plan {
            if (kafkaConfig == null) {
                kafkaConfig = KafkaClientConfig.none();
            }
            detectors = List.copyOf(detectors);
            producerProperties = Map.copyOf(producerProperties);
            if (!(ratePerDetector > 0) || ratePerDetector > MAX_RATE_PER_DETECTOR) {
                throw new IllegalArgumentException(
                        "the rate must be in (0, 1000000] records/s per detector, got " + ratePerDetector);
            }
            if (records < 1) {
                throw new IllegalArgumentException("records must be >= 1, got " + records);
            }
            if (warmupRecords < 0) {
                throw new IllegalArgumentException("warm-up records must be >= 0, got " + warmupRecords);
            }
            if (!List.of("all", "-1", "1", "0").contains(acks)) {
                throw new IllegalArgumentException("acks must be all, 1 or 0, got " + acks);
            }
            if (detectors.isEmpty()) {
                throw new IllegalArgumentException("no detectors to replay");
            }
        }

        /** A plan without a client properties file: plaintext, no authentication. */
        public Plan(
                String bootstrapServers,
                String topic,
                Path data,
                List<Long> detectors,
                double ratePerDetector,
                long records,
                String acks,
                Map<String, String> producerProperties,
                Duration progressEvery) {
            this(
                    bootstrapServers,
                    topic,
                    data,
                    detectors,
                    ratePerDetector,
                    records,
                    acks,
                    producerProperties,
                    progressEvery,
                    KafkaClientConfig.none(),
                    0);
        }

        /** A plan without warm-up records. */
        public Plan(
                String bootstrapServers,
                String topic,
                Path data,
                List<Long> detectors,
                double ratePerDetector,
                long records,
                String acks,
                Map<String, String> producerProperties,
                Duration progressEvery,
                KafkaClientConfig kafkaConfig) {
            this(
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
                    0);
        }

        /**
         * The same plan with {@code total} warm-up records before the measured ones (0: none).
         * Warm-up is counted in records, not time, so the producers, the probe and a report all
         * agree on how many there were; {@link #warmupRecordsFor} turns a duration into records.
         */
        public Plan withWarmupRecords(long total) {
            return new Plan(
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
                    total);
        }

        /** Warm-up records in all that {@code warmup} takes at this plan's rate over its detectors. */
        public long warmupRecordsFor(Duration warmup) {
            return ProducerRun.warmupRecordsOf(warmup, ratePerDetector, detectors.size());
        }

        /** The same plan with a client properties file's settings ({@code --kafka-config}). */
        public Plan withKafkaConfig(KafkaClientConfig config) {
            return new Plan(
                    bootstrapServers,
                    topic,
                    data,
                    detectors,
                    ratePerDetector,
                    records,
                    acks,
                    producerProperties,
                    progressEvery,
                    config,
                    warmupRecords);
        }

        /** The study's load: its six detectors at 10 records/s each, acks=all, a progress line every 2 s. */
        public static Plan studyLoad(String bootstrapServers, String topic, Path data, long records) {
            return new Plan(
                    bootstrapServers,
                    topic,
                    data,
                    STUDY_DETECTORS,
                    10,
                    records,
                    "all",
                    Map.of(),
                    Duration.ofSeconds(2));
        }

        public Plan withRate(double perDetector) {
            return new Plan(
                    bootstrapServers,
                    topic,
                    data,
                    detectors,
                    perDetector,
                    records,
                    acks,
                    producerProperties,
                    progressEvery,
                    kafkaConfig,
                    warmupRecords);
        }

        public Plan withDetectors(List<Long> ids) {
            return new Plan(
                    bootstrapServers,
                    topic,
                    data,
                    ids,
                    ratePerDetector,
                    records,
                    acks,
                    producerProperties,
                    progressEvery,
                    kafkaConfig,
                    warmupRecords);
        }

        public Plan withAcks(String value) {
            return new Plan(
                    bootstrapServers,
                    topic,
                    data,
                    detectors,
                    ratePerDetector,
                    records,
                    value,
                    producerProperties,
                    progressEvery,
                    kafkaConfig,
                    warmupRecords);
        }

        public Plan withProducerProperties(Map<String, String> properties) {
            return new Plan(
                    bootstrapServers,
                    topic,
                    data,
                    detectors,
                    ratePerDetector,
                    records,
                    acks,
                    properties,
                    progressEvery,
                    kafkaConfig,
                    warmupRecords);
        }

        public Plan withProgressEvery(Duration every) {
            return new Plan(
                    bootstrapServers,
                    topic,
                    data,
                    detectors,
                    ratePerDetector,
                    records,
                    acks,
                    producerProperties,
                    every,
                    kafkaConfig,
                    warmupRecords);
        }

        public Plan withRecords(long total) {
            return new Plan(
                    bootstrapServers,
                    topic,
                    data,
                    detectors,
                    ratePerDetector,
                    total,
                    acks,
                    producerProperties,
                    progressEvery,
                    kafkaConfig,
                    warmupRecords);
        }
    }

    /**
     * The records a warm-up of {@code warmup} takes: {@code rate} records/s on each of
     * {@code detectors}, rounded to whole records per detector so every detector warms up as long.
     */
    public static long warmupRecordsOf(Duration warmup, double ratePerDetector, int detectors) {
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("the warm-up must not be negative: " + warmup);
        }
        return Math.round(warmup.toNanos() / 1e9 * ratePerDetector) * detectors;
    }

    /** The highest rate one detector's producer is asked for, records per second. */
    public static final double MAX_RATE_PER_DETECTOR = 1_000_000;

    /** The six detectors of the study, in the order of {@link StudyStation}. */
    public static final List<Long> STUDY_DETECTORS =
            Arrays.stream(StudyStation.values()).map(StudyStation::vdsId).toList();

    /** The table or a detector cannot be replayed, or Kafka is not ready for it. */
    public static final class NotReplayable extends Exception {
        private static final long serialVersionUID = 1L;

        NotReplayable(String message) {
            super(message);
        }
    }

    private final Plan plan;
    private final List<DetectorWindows> windows;
    private final LatencyClock clock;
    private final Map<String, Object> config;
    private final PrintStream log;
    private volatile ReplayRun current;
    private volatile boolean stopped;

    private ProducerRun(Plan plan, List<DetectorWindows> windows, LatencyClock clock, PrintStream log) {
        this.plan = plan;
        this.windows = windows;
        this.clock = clock;
        this.config = ProducerSettings.forLatency(
                plan.bootstrapServers(), plan.acks(), plan.kafkaConfig(), plan.producerProperties());
        this.log = log;
    }

    /**
     * Reads the table, cuts each detector's windows and checks that the broker answers and the
     * topic exists.
     *
     * @throws NotReplayable naming the file, the detector, the broker or the topic at fault
     */
    public static ProducerRun prepare(Plan plan, PrintStream log) throws NotReplayable {
        List<Reading> readings;
        try {
            readings = CanonicalTable.read(plan.data());
        } catch (IOException | RuntimeException e) {
            throw new NotReplayable("cannot read " + plan.data() + ": " + e.getMessage());
        }
        List<DetectorWindows> windows;
        try {
            windows = DetectorWindows.of(readings, plan.detectors());
        } catch (IllegalArgumentException e) {
            throw new NotReplayable(plan.data() + ": " + e.getMessage());
        }
        try {
            KafkaChecks.requireTopic(
                    plan.bootstrapServers(), plan.topic(), plan.kafkaConfig(), plan.producerProperties());
        } catch (IllegalStateException e) {
            throw new NotReplayable(e.getMessage());
        }
        return new ProducerRun(plan, windows, Clocks.system(), log);
    }

    public Plan plan() {
        return plan;
    }

    /** The producer properties in force: the latency defaults with the plan's overrides. */
    public Map<String, Object> producerConfig() {
        return config;
    }

    public LatencyClock clock() {
        return clock;
    }

    /** Sends the plan's records at its rate; returns after every producer is flushed and closed. */
    public RunSummary run() throws InterruptedException {
        return replay(plan.ratePerDetector() * windows.size(), plan.records(), plan.warmupRecords());
    }

    /**
     * One step of a rate sweep: {@code total} records at {@code totalRate} records/s over all
     * detectors.
     */
    public RunSummary replay(double totalRate, long total) throws InterruptedException {
        return replay(totalRate, total, 0);
    }

    /**
     * {@code warmup} flagged warm-up records, then {@code total} measured ones, at
     * {@code totalRate} records/s over all detectors, on one open-loop schedule.
     */
    public RunSummary replay(double totalRate, long total, long warmup) throws InterruptedException {
        double perDetector = totalRate / windows.size();
        ReplayRun run = new ReplayRun(windows, KafkaProducer::new, config, plan.topic(), clock);
        current = run;
        if (stopped) {
            run.stop();
        }
        long[] quota = ReplayRun.share(total, windows.size());
        long[] warmupQuota = ReplayRun.share(warmup, windows.size());
        Progress progress = new Progress(warmup + total, warmup, System.nanoTime(), log);
        Duration every = plan.progressEvery().isZero() ? Duration.ofDays(1) : plan.progressEvery();
        run.run(perDetector, warmupQuota, quota, every, progress::print);
        current = null;
        return RunSummary.of(run.stats(), windows.size(), perDetector, warmup + total, warmup);
    }

    /** Number of detectors replayed. */
    public int detectors() {
        return windows.size();
    }

    /** Stops the replay after each sender's current record (Ctrl-C); what was sent is still flushed. */
    public void stop() {
        stopped = true;
        ReplayRun run = current;
        if (run != null) {
            run.stop();
        }
    }

    /** The Markdown report of a replay. */
    public String markdown(RunSummary summary) {
        return summary.markdown(
                plan.topic(), plan.bootstrapServers(), plan.data(), clock.info().describe(), config);
    }
}
