package org.itsrt.job;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.kafka.KafkaJobIO;
import org.itsrt.job.records.ConditionUpdate;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.NetworkStateChange;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.RoutedAdvice;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.ReadingWindow;
import org.itsrt.readings.Reading;
import org.itsrt.readings.synthetic.SyntheticGenerator;
import org.itsrt.records.AdviceRecord;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordFormatException;
import org.itsrt.records.RecordJson;
import org.itsrt.stack.flink.MiniClusterSetup;

/** What the job's tests share: input data, the MiniCluster, Kafka in and out, starting and stopping the job. */
final class JobTestKit {

    static final Path REPO = Path.of(System.getProperty("itsrt.repo.root", ".."));
    static final Path MODEL = REPO.resolve("models/lstm-flow");
    static final Duration WAIT = Duration.ofSeconds(120);

    private JobTestKit() {}

    /** Where the MiniCluster keeps temporary files and the tests their savepoints. */
    static final Path FLINK_TMP = Path.of("target", "flink-tmp").toAbsolutePath();

    /** The MiniCluster's configuration: loopback REST, temporary files under target/. */
    static Configuration miniClusterConfiguration() {
        return MiniClusterSetup.configuration(FLINK_TMP);
    }

    // ---- input --------------------------------------------------------------------------------

    /** One synthetic day of the six study stations, by station, in time order. */
    static Map<Long, List<Reading>> syntheticDay() {
        return new SyntheticGenerator(42)
                .generate(LocalDate.of(2018, 3, 5), 1).stream()
                        .collect(Collectors.groupingBy(Reading::stationId, TreeMap::new, Collectors.toList()));
    }

    /** One synthetic day of the six study stations, generated once for all tests. */
    static final Map<Long, List<Reading>> DAY = syntheticDay();

    /**
     * Records {@code fromSeq..toSeq} of every detector; window k starts at reading 96 + 7k, in the
     * morning peak (from 08:00 Pacific), where predicted flows slow the freeways down and the
     * route's cost depends on every detector's conditions.
     */
    static List<ReadingRecord> readings(int fromSeq, int toSeq) {
        List<ReadingRecord> records = new ArrayList<>();
        for (int seq = fromSeq; seq <= toSeq; seq++) {
            for (List<Reading> station : DAY.values()) {
                records.add(record(station, 96 + 7 * seq, seq));
            }
        }
        return records;
    }

    /** The reading record whose window is {@code station}'s readings {@code start..start+11}. */
    static ReadingRecord record(List<Reading> station, int start, long seq) {
        double[] flows = new double[ReadingRecord.WINDOW];
        double[] speeds = new double[ReadingRecord.WINDOW];
        for (int i = 0; i < ReadingRecord.WINDOW; i++) {
            Reading r = station.get(start + i);
            flows[i] = r.flow();
            speeds[i] = r.hasSpeed() ? r.speed() : Double.NaN;
        }
        Reading newest = station.get(start + ReadingRecord.WINDOW - 1);
        long now = System.nanoTime();
        return new ReadingRecord(newest.stationId(), newest.tsUtc(), flows, speeds, seq, now, now);
    }

    /** The same record under another sequence number. */
    static ReadingRecord withSeq(ReadingRecord r, long seq) {
        return new ReadingRecord(r.detector(), r.ts(), r.flow(), r.speed(), seq, r.sentNs(), r.intendedNs());
    }

    static ProducerRecord<byte[], byte[]> keyed(String topic, ReadingRecord r) {
        return new ProducerRecord<>(
                topic, Long.toString(r.detector()).getBytes(StandardCharsets.UTF_8), RecordJson.write(r));
    }

    static void send(String bootstrapServers, List<ProducerRecord<byte[], byte[]>> records) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (ProducerRecord<byte[], byte[]> record : records) {
                producer.send(record).get(30, TimeUnit.SECONDS);
            }
        }
    }

    /** The model's prediction for a record's window, as the job should compute it. */
    static double predict(FlowPredictor predictor, ReadingRecord r) {
        return predictor.predict(new ReadingWindow(r.flow(), r.speed(), r.ts()));
    }

    // ---- the job ------------------------------------------------------------------------------

    /** An environment on the MiniCluster with Kryo forbidden, so that a type that would fall back to it fails the test. */
    static StreamExecutionEnvironment environment(Configuration extra) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.addAll(extra);
        env.configure(conf);
        return env;
    }

    /**
     * Builds the job between Kafka topics and starts it. The network-state changes are collected
     * under {@code stateKey} ({@link CollectingSink#collected}).
     */
    static JobClient start(JobSettings settings, String stateKey) throws Exception {
        return start(settings, stateKey, null);
    }

    /** As {@link #start(JobSettings, String)}, restoring the savepoint when one is given. */
    static JobClient start(JobSettings settings, String stateKey, String savepoint) throws Exception {
        Configuration conf = new Configuration();
        if (savepoint != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        }
        StreamExecutionEnvironment env = environment(conf);
        JobStreams streams = ItsJob.build(env, settings, KafkaJobIO.of(settings));
        collectNetworkState(streams, stateKey);
        return env.executeAsync(ItsJob.JOB_NAME + " test");
    }

    /** Collects the network-state changes under {@code key}; there are none with {@code --identity}. */
    static void collectNetworkState(JobStreams streams, String key) {
        CollectingSink<NetworkStateChange> sink = new CollectingSink<>(key);
        streams.networkState().ifPresent(changes -> changes.sinkTo(sink).name("test: state"));
    }

    /** Folds network-state changes into each subtask's newest view: subtask -> detector -> update. */
    static Map<Integer, Map<Long, ConditionUpdate>> stateBySubtask(List<NetworkStateChange> changes) {
        Map<Integer, Map<Long, ConditionUpdate>> state = new TreeMap<>();
        for (NetworkStateChange change : changes) {
            state.computeIfAbsent(change.subtask, s -> new TreeMap<>())
                    .merge(change.update.detector, change.update, (a, b) -> b.isNewerThan(a) ? b : a);
        }
        return state;
    }

    /**
     * As {@link #start(JobSettings, String)}, with a step on the advice stream that fails the job
     * once: at its {@code failAt}-th record after at least one checkpoint completed, so that Flink
     * restarts the job from that checkpoint mid-stream. {@link FailOnce#FIRED} tells whether it did.
     */
    static JobClient startWithFault(JobSettings settings, String stateKey, int failAt) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = environment(conf);
        JobStreams streams = ItsJob.build(env, settings, KafkaJobIO.of(settings));
        collectNetworkState(streams, stateKey);
        FailOnce.FIRED.set(false);
        streams.advice().map(new FailOnce(failAt)).name("test: fail once").sinkTo(new DiscardingSink<>());
        return env.executeAsync(ItsJob.JOB_NAME + " fault test");
    }

    /**
     * As {@link #start(JobSettings, String)}, with an advice sink that aborts its first transaction
     * instead of committing it ({@link AbortOneCommitSink}): a run that loses output, for showing
     * that the exactly-once check notices. {@link AbortOneCommitSink#ABORTED} tells when it did.
     */
    static JobClient startLosingATransaction(JobSettings settings, String stateKey) throws Exception {
        KafkaJobIO kafka = KafkaJobIO.of(settings);
        JobIO losing = new JobIO() {
            @Override
            public Source<RawReading, ?, ?> readings() {
                return kafka.readings();
            }

            @Override
            public Sink<RoutedAdvice> advice() {
                return new AbortOneCommitSink<>(kafka.advice());
            }

            @Override
            public Sink<DeadLetter> deadLetters() {
                return kafka.deadLetters();
            }

            @Override
            public String describe(End end) {
                return kafka.describe(end);
            }
        };
        AbortOneCommitSink.ABORTED.set(false);
        StreamExecutionEnvironment env = environment(new Configuration());
        collectNetworkState(ItsJob.build(env, settings, losing), stateKey);
        return env.executeAsync(ItsJob.JOB_NAME + " lost transaction test");
    }

    /** Throws once, at its {@code failAt}-th record seen after a completed checkpoint. */
    static final class FailOnce extends RichMapFunction<RoutedAdvice, RoutedAdvice> implements CheckpointListener {
        static final AtomicBoolean FIRED = new AtomicBoolean();
        private final int failAt;
        private transient int seen;
        private transient boolean checkpointed;

        FailOnce(int failAt) {
            this.failAt = failAt;
        }

        @Override
        public RoutedAdvice map(RoutedAdvice advice) {
            seen++;
            if (checkpointed && seen >= failAt && FIRED.compareAndSet(false, true)) {
                throw new IllegalStateException("fault injected by the test after " + seen + " records");
            }
            return advice;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            checkpointed = true;
        }
    }

    static void cancel(JobClient job) throws Exception {
        job.cancel().get(60, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("job " + job.getJobID() + " did not stop");
            }
            Thread.sleep(50);
        }
    }

    static void requireRunning(JobClient job) throws Exception {
        JobStatus status = job.getJobStatus().get(10, TimeUnit.SECONDS);
        if (status.isGloballyTerminalState()) {
            try {
                job.getJobExecutionResult().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("the job ended: " + status, e);
            }
            throw new AssertionError("the job ended: " + status);
        }
    }

    // ---- output -------------------------------------------------------------------------------

    /** Reads the advice and dead-letter topics from their beginning. */
    static final class Outputs implements AutoCloseable {
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final String adviceTopic;
        final List<ConsumerRecord<byte[], byte[]>> advice = new ArrayList<>();
        final List<ConsumerRecord<byte[], byte[]>> deadLetters = new ArrayList<>();
        final List<ConsumerRecord<byte[], byte[]>> other = new ArrayList<>();

        Outputs(String bootstrapServers, String adviceTopic, String deadLetterTopic) {
            Properties p = new Properties();
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
            p.put(ConsumerConfig.GROUP_ID_CONFIG, "test-reader-" + System.nanoTime());
            p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            this.consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            this.adviceTopic = adviceTopic;
            consumer.subscribe(List.of(adviceTopic, deadLetterTopic));
        }

        /** Polls until at least this many advice records and dead letters arrived. */
        Outputs awaitAtLeast(int adviceCount, int deadLetterCount, JobClient job) throws Exception {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (advice.size() < adviceCount || deadLetters.size() < deadLetterCount) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("waited " + WAIT.toSeconds() + " s for " + adviceCount + " advice and "
                            + deadLetterCount + " dead letters, got " + advice.size() + " and " + deadLetters.size());
                }
                if (job != null) {
                    requireRunning(job);
                }
                poll(Duration.ofMillis(200));
            }
            return this;
        }

        /** Keeps polling for a while: anything that arrives now is more than was expected. */
        Outputs drain(Duration quiet) {
            long deadline = System.nanoTime() + quiet.toNanos();
            while (System.nanoTime() < deadline) {
                poll(Duration.ofMillis(100));
            }
            return this;
        }

        private void poll(Duration timeout) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(timeout)) {
                (record.topic().equals(adviceTopic) ? advice : deadLetters).add(record);
            }
        }

        List<AdviceRecord> adviceRecords() throws RecordFormatException {
            List<AdviceRecord> records = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> record : advice) {
                records.add(RecordJson.readAdvice(record.value()));
            }
            return records;
        }

        @Override
        public void close() {
            consumer.close();
        }
    }

    static String header(ConsumerRecord<byte[], byte[]> record, String key) {
        Header header = record.headers().lastHeader(key);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** Which reading an advice answers. */
    record AdviceKey(long detector, long seq) {
        static AdviceKey of(AdviceRecord a) {
            return new AdviceKey(a.detector(), a.seq());
        }
    }
}
