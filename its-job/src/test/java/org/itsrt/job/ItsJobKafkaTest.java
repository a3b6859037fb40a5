package org.itsrt.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.itsrt.job.JobTestKit.MODEL;
import static org.itsrt.job.JobTestKit.cancel;
import static org.itsrt.job.JobTestKit.header;
import static org.itsrt.job.JobTestKit.keyed;
import static org.itsrt.job.JobTestKit.predict;
import static org.itsrt.job.JobTestKit.readings;
import static org.itsrt.job.JobTestKit.send;
import static org.itsrt.job.JobTestKit.start;
import static org.itsrt.job.JobTestKit.withSeq;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.itsrt.job.JobTestKit.AdviceKey;
import org.itsrt.job.JobTestKit.Outputs;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.config.KafkaSettings;
import org.itsrt.job.kafka.DeadLetterSerializer;
import org.itsrt.job.records.NetworkStateChange;
import org.itsrt.model.Engine;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.FlowPredictors;
import org.itsrt.model.PredictorOptions;
import org.itsrt.records.AdviceRecord;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordJson;
import org.itsrt.routing.DetectorConditions;
import org.itsrt.routing.Router;
import org.itsrt.routing.graph.StudyNetwork;
import org.itsrt.stack.kafka.LocalKafka;
import org.itsrt.stack.kafka.LocalKafkaOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job between real Kafka topics (a local KRaft broker) on a Flink MiniCluster: what only the
 * Kafka ends can show. Records go through KafkaSource and KafkaSink, dead letters carry their
 * headers on the topic, a job reading from the latest offsets answers once it is live, and
 * exactly-once output survives a savepoint and a failure. What the pipeline computes is tested
 * without a broker, in {@link ItsJobTest}.
 */
class ItsJobKafkaTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(() -> new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .setConfiguration(JobTestKit.miniClusterConfiguration())
                    .build());

    private static final long ORIGIN = 764598; // El Segundo
    private static final long DESTINATION = 774445; // Long Beach

    private static LocalKafka kafka;

    @BeforeAll
    static void startKafka() {
        kafka = LocalKafka.start(LocalKafkaOptions.defaults());
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    /** Settings for a run whose topics all start with {@code prefix}. */
    private static JobSettings settings(String inputTopic, String prefix, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--input-topic",
                inputTopic,
                "--output-topic",
                prefix + ".advice",
                "--dead-letter-topic",
                prefix + ".dead-letters",
                "--group-id",
                prefix,
                "--starting-offsets",
                "earliest",
                "--model",
                MODEL.toString()));
        args.addAll(Arrays.asList(extra));
        return JobSettings.fromArgs(args.toArray(String[]::new));
    }

    private static void createTopics(String prefix, int inputPartitions) {
        kafka.createTopics(List.of(prefix + ".readings"), inputPartitions);
        kafka.createTopics(List.of(prefix + ".advice", prefix + ".dead-letters"), 1);
    }

    @Test
    void readingsComeFromTheInputTopicAndAdviceAndDeadLettersGoToTheirs() throws Exception {
        String prefix = "basic";
        String input = prefix + ".readings";
        createTopics(prefix, 1);
        List<ReadingRecord> valid = readings(0, 1);
        byte[] notJson = "detector 764598, flow 300".getBytes(StandardCharsets.UTF_8);
        List<ProducerRecord<byte[], byte[]>> sent =
                new ArrayList<>(valid.stream().map(r -> keyed(input, r)).toList());
        sent.add(3, new ProducerRecord<>(input, notJson));
        sent.add(new ProducerRecord<>(input, "764598".getBytes(StandardCharsets.UTF_8), null));

        JobClient job = start(settings(input, prefix, "--parallelism", "1"), prefix);
        List<AdviceRecord> advice;
        Outputs out = new Outputs(kafka.bootstrapServers(), prefix + ".advice", prefix + ".dead-letters");
        try (out) {
            send(kafka.bootstrapServers(), sent);
            advice = out.awaitAtLeast(valid.size(), 2, job)
                    .drain(Duration.ofSeconds(1))
                    .adviceRecords();
        } finally {
            cancel(job);
        }

        assertThat(advice).hasSize(valid.size());
        try (FlowPredictor predictor =
                FlowPredictors.open(MODEL, PredictorOptions.reference().withEngine(Engine.DEFAULT))) {
            for (ReadingRecord r : valid) {
                AdviceRecord a = advice.stream()
                        .filter(x -> x.detector() == r.detector() && x.seq() == r.seq())
                        .findFirst()
                        .orElseThrow();
                assertThat(a.predictedFlow()).isCloseTo(predict(predictor, r), within(1e-4));
                assertThat(a.model()).isEqualTo("lstm-flow/" + Engine.DEFAULT.engineName());
                assertThat(a.route()).startsWith(ORIGIN).endsWith(DESTINATION);
            }
        }
        // Keyed like the input, so that one detector's advice stays in one partition and in order.
        assertThat(out.advice).allSatisfy(record -> assertThat(new String(record.key(), StandardCharsets.UTF_8))
                .isEqualTo(String.valueOf(RecordJson.readAdvice(record.value()).detector())));

        // The bad records, untouched, with the reason and where they came from in the headers.
        assertThat(out.deadLetters).hasSize(2);
        Map<String, String> reasonByValue = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> letter : out.deadLetters) {
            assertThat(header(letter, DeadLetterSerializer.SOURCE_TOPIC)).isEqualTo(input);
            assertThat(header(letter, DeadLetterSerializer.SOURCE_PARTITION)).isEqualTo("0");
            assertThat(Long.parseLong(header(letter, DeadLetterSerializer.SOURCE_OFFSET)))
                    .isNotNegative();
            String value = letter.value() == null ? null : new String(letter.value(), StandardCharsets.UTF_8);
            reasonByValue.put(value, header(letter, DeadLetterSerializer.REASON));
        }
        assertThat(reasonByValue.get(new String(notJson, StandardCharsets.UTF_8)))
                .startsWith("not valid JSON");
        assertThat(reasonByValue.get(null)).isEqualTo("record has no value");
    }

    /**
     * The readiness handshake of a latency run: the job reads from the latest offsets, so what was
     * sent before it was live is never read, and a caller learns that it is live by sending
     * markers (records it will dead-letter) until one comes back on the dead-letter topic.
     */
    @Test
    void aJobReadingFromTheLatestOffsetsAnswersOnceLiveAndSkipsWhatCameBefore() throws Exception {
        String prefix = "latest";
        String input = prefix + ".readings";
        createTopics(prefix, 1);
        ReadingRecord before = withSeq(readings(0, 0).get(0), 99);
        send(kafka.bootstrapServers(), List.of(keyed(input, before)));

        List<String> args = new ArrayList<>(List.of(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--input-topic",
                input,
                "--output-topic",
                prefix + ".advice",
                "--dead-letter-topic",
                prefix + ".dead-letters",
                "--group-id",
                prefix,
                "--model",
                MODEL.toString(),
                "--parallelism",
                "1"));
        JobSettings s = JobSettings.fromArgs(args.toArray(String[]::new));
        assertThat(s.kafka().startingOffsets()).isEqualTo(KafkaSettings.StartingOffsets.LATEST);
        JobClient job = start(s, prefix);
        List<ReadingRecord> after = readings(1, 1);
        List<AdviceRecord> advice;
        try (Outputs out = new Outputs(kafka.bootstrapServers(), prefix + ".advice", prefix + ".dead-letters")) {
            int markers = 0;
            long deadline = System.nanoTime() + JobTestKit.WAIT.toNanos();
            while (out.deadLetters.isEmpty()) {
                assertThat(System.nanoTime())
                        .as("the job answered a marker in time")
                        .isLessThan(deadline);
                JobTestKit.requireRunning(job);
                send(
                        kafka.bootstrapServers(),
                        List.of(new ProducerRecord<>(
                                input, ("handshake " + markers++).getBytes(StandardCharsets.UTF_8))));
                out.drain(Duration.ofMillis(300));
            }
            send(
                    kafka.bootstrapServers(),
                    after.stream().map(r -> keyed(input, r)).toList());
            advice = out.awaitAtLeast(after.size(), 1, job)
                    .drain(Duration.ofSeconds(1))
                    .adviceRecords();
        } finally {
            cancel(job);
        }
        assertThat(advice).extracting(AdviceRecord::seq).containsOnly(1L).hasSize(after.size());
    }

    @Test
    void exactlyOnceOutputSurvivesAStopWithSavepointAndTheNetworkStateIsRestored() throws Exception {
        String prefix = "eo";
        String input = prefix + ".readings";
        createTopics(prefix, 1);
        JobSettings s = settings(
                input,
                prefix,
                "--parallelism",
                "1",
                "--exactly-once",
                "--checkpoint-interval-ms",
                "300",
                "--transactional-id-prefix",
                "eo-test");
        List<ReadingRecord> phase1 = readings(0, 4);
        Map<Long, ReadingRecord> newest = new LinkedHashMap<>();
        phase1.forEach(r -> newest.put(r.detector(), r));
        // After the restart only El Segundo reports, with its newest conditions again: its routes
        // are right only if the other five detectors' conditions came back with the savepoint.
        ReadingRecord elSegundo = newest.get(ORIGIN);
        List<ReadingRecord> phase2 = new ArrayList<>();
        for (int seq = 5; seq <= 9; seq++) {
            phase2.add(withSeq(elSegundo, seq));
        }

        String savepoint;
        JobClient first = start(s, prefix + "-1");
        try (Outputs out = new Outputs(kafka.bootstrapServers(), prefix + ".advice", prefix + ".dead-letters")) {
            send(
                    kafka.bootstrapServers(),
                    phase1.stream().map(r -> keyed(input, r)).toList());
            out.awaitAtLeast(phase1.size(), 0, first);
            savepoint = first.stopWithSavepoint(
                            false,
                            JobTestKit.FLINK_TMP.resolve("savepoints").toUri().toString(),
                            SavepointFormatType.CANONICAL)
                    .get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            cancel(first);
            throw e;
        }
        assertThat(first.getJobStatus().get(30, TimeUnit.SECONDS)).isEqualTo(JobStatus.FINISHED);

        JobClient second = start(s, prefix + "-2", savepoint);
        List<AdviceRecord> advice;
        try (Outputs out = new Outputs(kafka.bootstrapServers(), prefix + ".advice", prefix + ".dead-letters")) {
            send(
                    kafka.bootstrapServers(),
                    phase2.stream().map(r -> keyed(input, r)).toList());
            advice = out.awaitAtLeast(phase1.size() + phase2.size(), 0, second)
                    .drain(Duration.ofSeconds(2))
                    .adviceRecords();
        } finally {
            cancel(second);
        }

        // Committed output only, each reading once across the restart.
        assertThat(advice).hasSize(phase1.size() + phase2.size());
        Map<AdviceKey, AdviceRecord> byKey = new HashMap<>();
        advice.forEach(a ->
                assertThat(byKey.put(AdviceKey.of(a), a)).as("duplicate %s", a).isNull());

        try (FlowPredictor predictor =
                FlowPredictors.open(MODEL, PredictorOptions.reference().withEngine(Engine.DEFAULT))) {
            Router everyone = Router.withDefaults(StudyNetwork.build());
            Router onlyElSegundo = Router.withDefaults(StudyNetwork.build());
            for (ReadingRecord r : newest.values()) {
                DetectorConditions c =
                        new DetectorConditions(r.speed()[ReadingRecord.WINDOW - 1], predict(predictor, r));
                everyone.update(r.detector(), c);
                if (r == elSegundo) {
                    onlyElSegundo.update(r.detector(), c);
                }
            }
            double expected = everyone.routeByDijkstra(ORIGIN, DESTINATION).costSeconds();
            double withoutRestore =
                    onlyElSegundo.routeByDijkstra(ORIGIN, DESTINATION).costSeconds();
            assertThat(withoutRestore).as("the check can tell a lost state").isNotCloseTo(expected, within(1.0));
            for (ReadingRecord r : phase2) {
                assertThat(byKey.get(new AdviceKey(r.detector(), r.seq())).routeCostS())
                        .isCloseTo(expected, within(1e-9 * expected));
            }
        }
        CommittedOutput.assertEachReadingExactlyOnce(
                CommittedOutput.readAll(kafka.bootstrapServers(), prefix + ".advice"), keysOf(phase1, phase2));
        List<NetworkStateChange> restoredChanges = CollectingSink.collected(prefix + "-2");
        assertThat(restoredChanges)
                .allSatisfy(change -> assertThat(change.update.detector).isEqualTo(ORIGIN));
    }

    @Test
    void exactlyOnceOutputSurvivesAFailureAndARestartFromACheckpoint() throws Exception {
        String prefix = "eof";
        String input = prefix + ".readings";
        createTopics(prefix, 1);
        JobSettings s = settings(
                input,
                prefix,
                "--parallelism",
                "1",
                "--exactly-once",
                "--checkpoint-interval-ms",
                "200",
                "--transactional-id-prefix",
                "eof-test");
        List<ReadingRecord> first = readings(0, 4);
        List<ReadingRecord> second = readings(5, 9);

        List<AdviceRecord> advice;
        JobClient job = JobTestKit.startWithFault(s, prefix, first.size() + second.size() / 2);
        try (Outputs out = new Outputs(kafka.bootstrapServers(), prefix + ".advice", prefix + ".dead-letters")) {
            send(
                    kafka.bootstrapServers(),
                    first.stream().map(r -> keyed(input, r)).toList());
            // Committed output of the first batch means at least one checkpoint completed before the fault.
            out.awaitAtLeast(first.size(), 0, job);
            send(
                    kafka.bootstrapServers(),
                    second.stream().map(r -> keyed(input, r)).toList());
            advice = out.awaitAtLeast(first.size() + second.size(), 0, job)
                    .drain(Duration.ofSeconds(2))
                    .adviceRecords();
        } finally {
            cancel(job);
        }

        assertThat(JobTestKit.FailOnce.FIRED).as("the fault was injected").isTrue();
        // read_committed: the transaction open at the failure was aborted, the records since the
        // checkpoint were processed again, and each reading appears once.
        assertThat(advice).hasSize(first.size() + second.size());
        Map<AdviceKey, AdviceRecord> byKey = new HashMap<>();
        advice.forEach(a ->
                assertThat(byKey.put(AdviceKey.of(a), a)).as("duplicate %s", a).isNull());
        for (ReadingRecord r : first) {
            assertThat(byKey).containsKey(new AdviceKey(r.detector(), r.seq()));
        }
        for (ReadingRecord r : second) {
            assertThat(byKey).containsKey(new AdviceKey(r.detector(), r.seq()));
        }
        // The restart logs KafkaCommitter's "producer is already fenced ... most likely signals data
        // loss" when it commits again a transaction that was committed before the fault (docs/job.md,
        // section 6). The whole topic, every partition to its end, shows that nothing was lost.
        CommittedOutput.assertEachReadingExactlyOnce(
                CommittedOutput.readAll(kafka.bootstrapServers(), prefix + ".advice"), keysOf(first, second));
    }

    /**
     * The check above can fail: the same job with an advice sink that aborts one transaction
     * instead of committing it, while Flink goes on as if it were committed. Every reading sent
     * after the loss comes back, and the whole-topic check still finds the lost ones missing.
     */
    @Test
    void theExactlyOnceCheckFindsATransactionThatWasLost() throws Exception {
        String prefix = "eolost";
        String input = prefix + ".readings";
        createTopics(prefix, 1);
        JobSettings s = settings(
                input,
                prefix,
                "--parallelism",
                "1",
                "--exactly-once",
                "--checkpoint-interval-ms",
                "200",
                "--transactional-id-prefix",
                "eolost-test");
        List<ReadingRecord> first = readings(0, 4);
        List<ReadingRecord> second = readings(5, 9);

        JobClient job = JobTestKit.startLosingATransaction(s, prefix);
        try (Outputs out = new Outputs(kafka.bootstrapServers(), prefix + ".advice", prefix + ".dead-letters")) {
            send(
                    kafka.bootstrapServers(),
                    first.stream().map(r -> keyed(input, r)).toList());
            long deadline = System.nanoTime() + JobTestKit.WAIT.toNanos();
            while (!AbortOneCommitSink.ABORTED.get()) {
                assertThat(System.nanoTime())
                        .as("a transaction was aborted in time")
                        .isLessThan(deadline);
                JobTestKit.requireRunning(job);
                Thread.sleep(50);
            }
            // Sent after the loss, so these are in later, committed transactions.
            send(
                    kafka.bootstrapServers(),
                    second.stream().map(r -> keyed(input, r)).toList());
            Set<AdviceKey> wanted = new HashSet<>(keysOf(second));
            while (true) {
                out.awaitAtLeast(out.advice.size() + 1, 0, job);
                out.adviceRecords().forEach(a -> wanted.remove(AdviceKey.of(a)));
                if (wanted.isEmpty()) {
                    break;
                }
            }
        } finally {
            cancel(job);
        }

        List<AdviceRecord> committed = CommittedOutput.readAll(kafka.bootstrapServers(), prefix + ".advice");
        assertThatThrownBy(() -> CommittedOutput.assertEachReadingExactlyOnce(committed, keysOf(first, second)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("missing");
        assertThat(committed).hasSizeLessThan(first.size() + second.size());
    }

    @SafeVarargs
    private static List<AdviceKey> keysOf(List<ReadingRecord>... batches) {
        return Arrays.stream(batches)
                .flatMap(List::stream)
                .map(r -> new AdviceKey(r.detector(), r.seq()))
                .toList();
    }
}
