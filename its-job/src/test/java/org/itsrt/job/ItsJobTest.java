package org.itsrt.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.itsrt.job.JobTestKit.MODEL;
import static org.itsrt.job.JobTestKit.cancel;
import static org.itsrt.job.JobTestKit.header;
import static org.itsrt.job.JobTestKit.keyed;
import static org.itsrt.job.JobTestKit.predict;
import static org.itsrt.job.JobTestKit.record;
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
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.itsrt.graph.Detector;
import org.itsrt.graph.RoadSegment;
import org.itsrt.graph.StudyNetwork;
import org.itsrt.job.JobTestKit.AdviceKey;
import org.itsrt.job.JobTestKit.Outputs;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.kafka.DeadLetterSerializer;
import org.itsrt.job.records.ConditionUpdate;
import org.itsrt.job.records.NetworkStateChange;
import org.itsrt.stack.kafka.LocalKafka;
import org.itsrt.predict.Engine;
import org.itsrt.predict.FlowPredictor;
import org.itsrt.predict.FlowPredictors;
import org.itsrt.predict.PredictorOptions;
import org.itsrt.readings.Reading;
import org.itsrt.records.AdviceRecord;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordJson;
import org.itsrt.routing.DetectorConditions;
import org.itsrt.routing.Router;
import org.jgrapht.GraphPath;
import org.jgrapht.alg.shortestpath.DijkstraShortestPath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The whole job on a Flink MiniCluster against a real local Kafka broker. */
class ItsJobTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(() -> new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .setConfiguration(JobTestKit.miniClusterConfiguration())
            .build());

    private static LocalKafka kafka;
    private static Map<Long, List<Reading>> day;

    @BeforeAll
    static void startKafka() {
        kafka = LocalKafka.start(LocalKafka.Options.defaults());
        day = JobTestKit.syntheticDay();
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    /** Settings for a run whose topics all start with {@code prefix}. */
    private static JobSettings settings(String inputTopic, String prefix, String... extra) {
        List<String> args = new ArrayList<>(List.of("--bootstrap-servers", kafka.bootstrapServers(),
                "--input-topic", inputTopic, "--output-topic", prefix + ".advice",
                "--dead-letter-topic", prefix + ".dead-letters", "--group-id", prefix,
                "--starting-offsets", "earliest", "--model", MODEL.toString()));
        args.addAll(Arrays.asList(extra));
        return JobSettings.fromArgs(args.toArray(String[]::new));
    }

    /** Sends {@code records} to {@code prefix.readings}, collects their advice, then cancels the job. */
    private static List<AdviceRecord> adviceFor(JobClient job, String prefix, List<ReadingRecord> records)
            throws Exception {
        try (Outputs out = new Outputs(kafka.bootstrapServers(), prefix + ".advice", prefix + ".dead-letters")) {
            send(kafka.bootstrapServers(), records.stream().map(r -> keyed(prefix + ".readings", r)).toList());
            return out.awaitAtLeast(records.size(), 0, job).drain(Duration.ofMillis(500)).adviceRecords();
        } finally {
            cancel(job);
        }
    }

    private static void createTopics(String prefix, int inputPartitions) {
        kafka.createTopics(List.of(prefix + ".readings"), inputPartitions);
        kafka.createTopics(List.of(prefix + ".advice", prefix + ".dead-letters"), 1);
    }

    /**
     * Records {@code fromSeq..toSeq} of every detector; window k starts at reading 96 + 7k, in the
     * morning peak (from 08:00 Pacific), where predicted flows slow the freeways down and the
     * route's cost depends on every detector's conditions.
     */
    private static List<ReadingRecord> readings(int fromSeq, int toSeq) {
        List<ReadingRecord> records = new ArrayList<>();
        for (int seq = fromSeq; seq <= toSeq; seq++) {
            for (List<Reading> station : day.values()) {
                records.add(record(station, 96 + 7 * seq, seq));
            }
        }
        return records;
    }

    @Test
    void everyValidReadingIsAdvisedAndEveryBadOneDeadLettered() throws Exception {
        String prefix = "basic";
        String input = prefix + ".readings";
        createTopics(prefix, 1);

        // Phase 1: five readings of each detector, with every kind of bad record among them.
        List<ReadingRecord> phase1 = readings(0, 4);
        Map<String, byte[]> malformed = malformedRecords(phase1.get(0));
        List<ProducerRecord<byte[], byte[]>> sent = new ArrayList<>();
        List<byte[]> bad = new ArrayList<>(malformed.values());
        for (int i = 0; i < phase1.size(); i++) {
            sent.add(keyed(input, phase1.get(i)));
            if (i % 4 == 1 && !bad.isEmpty()) {
                sent.add(new ProducerRecord<>(input, bad.remove(0)));
            }
        }
        bad.forEach(value -> sent.add(new ProducerRecord<>(input, value)));
        sent.add(new ProducerRecord<>(input, "764598".getBytes(StandardCharsets.UTF_8), null));
        int deadLetterCount = malformed.size() + 1;

        // Phase 2: each detector's newest conditions again, under new sequence numbers. Once
        // phase 1 is advised, every detector's conditions are in the route step's view, and no
        // later record changes them: each phase-2 route has one right answer.
        Map<Long, ReadingRecord> newest = new LinkedHashMap<>();
        phase1.forEach(r -> newest.put(r.detector(), r));
        List<ReadingRecord> phase2 = new ArrayList<>();
        for (int seq = 5; seq <= 9; seq++) {
            for (ReadingRecord r : newest.values()) {
                phase2.add(withSeq(r, seq));
            }
        }

        JobClient job = start(settings(input, prefix, "--parallelism", "1"), prefix);
        List<AdviceRecord> advice;
        Outputs out = new Outputs(kafka.bootstrapServers(), prefix + ".advice", prefix + ".dead-letters");
        try (out) {
            send(kafka.bootstrapServers(), sent);
            out.awaitAtLeast(phase1.size(), deadLetterCount, job);
            send(kafka.bootstrapServers(), phase2.stream().map(r -> keyed(input, r)).toList());
            out.awaitAtLeast(phase1.size() + phase2.size(), deadLetterCount, job).drain(Duration.ofSeconds(2));
            advice = out.adviceRecords();
        } finally {
            cancel(job);
        }

        // Exactly one advice per valid reading, nothing more.
        List<ReadingRecord> all = new ArrayList<>(phase1);
        all.addAll(phase2);
        assertThat(advice).hasSize(all.size());
        Map<AdviceKey, AdviceRecord> byKey = new HashMap<>();
        advice.forEach(a -> assertThat(byKey.put(AdviceKey.of(a), a)).as("duplicate %s", a).isNull());

        try (FlowPredictor predictor = FlowPredictors.open(MODEL, PredictorOptions.defaults())) {
            for (ReadingRecord r : all) {
                AdviceRecord a = byKey.get(new AdviceKey(r.detector(), r.seq()));
                assertThat(a).as("advice for detector %d seq %d", r.detector(), r.seq()).isNotNull();
                assertThat(a.predictedFlow()).isCloseTo(predict(predictor, r), within(1e-4));
                assertThat(a.sentNs()).isEqualTo(r.sentNs());
                assertThat(a.intendedNs()).isEqualTo(r.intendedNs());
                assertThat(a.model()).isEqualTo("lstm-flow/" + Engine.DEFAULT.engineName());
                assertThat(a.parseNs()).isPositive();
                assertThat(a.inferNs()).isPositive();
                assertThat(a.routeNs()).isPositive();
                assertThat(a.route()).startsWith(JobSettings.DEFAULT_ORIGIN).endsWith(JobSettings.DEFAULT_DESTINATION);
            }

            // Phase 2's routes: Dijkstra over the costs of every detector's newest conditions.
            Router expected = Router.withDefaults(StudyNetwork.build());
            for (ReadingRecord r : newest.values()) {
                expected.update(r.detector(), new DetectorConditions(r.speed()[ReadingRecord.WINDOW - 1],
                        predict(predictor, r)));
            }
            GraphPath<Detector, RoadSegment> path = new DijkstraShortestPath<>(expected.costGraph()).getPath(
                    expected.network().requireDetector(JobSettings.DEFAULT_ORIGIN),
                    expected.network().requireDetector(JobSettings.DEFAULT_DESTINATION));
            List<Long> expectedRoute = path.getVertexList().stream().map(Detector::vdsId).toList();
            for (ReadingRecord r : phase2) {
                AdviceRecord a = byKey.get(new AdviceKey(r.detector(), r.seq()));
                assertThat(a.routeCostS()).isCloseTo(path.getWeight(), within(1e-9 * path.getWeight()));
                assertThat(a.route()).isEqualTo(expectedRoute);
            }
        }

        // Every bad record once, untouched, with its reason and where it came from.
        assertThat(out.deadLetters).hasSize(deadLetterCount);
        Map<String, String> reasonByValue = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> letter : out.deadLetters) {
            assertThat(header(letter, DeadLetterSerializer.SOURCE_TOPIC)).isEqualTo(input);
            assertThat(header(letter, DeadLetterSerializer.SOURCE_PARTITION)).isEqualTo("0");
            assertThat(Long.parseLong(header(letter, DeadLetterSerializer.SOURCE_OFFSET))).isNotNegative();
            String value = letter.value() == null ? null : new String(letter.value(), StandardCharsets.UTF_8);
            reasonByValue.put(value, header(letter, DeadLetterSerializer.REASON));
        }
        malformed.forEach((reason, value) ->
                assertThat(reasonByValue.get(new String(value, StandardCharsets.UTF_8)))
                        .as("dead letter of %s", new String(value, StandardCharsets.UTF_8))
                        .startsWith(reason));
        assertThat(reasonByValue.get(null)).isEqualTo("record has no value");
    }

    /** Expected reason (its start) -> a record that must be dead-lettered with it. */
    private static Map<String, byte[]> malformedRecords(ReadingRecord valid) {
        String json = new String(RecordJson.write(valid), StandardCharsets.UTF_8);
        Map<String, byte[]> records = new LinkedHashMap<>();
        records.put("unsupported version v=2", utf8(json.replace("\"v\":1", "\"v\":2")));
        records.put("missing integer field seq", utf8(json.replaceFirst(",\"seq\":\\d+", "")));
        double[] eleven = Arrays.copyOf(valid.flow(), 11);
        records.put("field flow has 11 values, expected 12", RecordJson.write(
                new ReadingRecord(valid.detector(), valid.ts(), eleven, valid.speed(), 1, 1, 1)));
        records.put("flow[3] is not a number: null", RecordJson.write(withFlow(valid, f -> {
            f[3] = Double.NaN;
            return f;
        })));
        records.put("flow[0] out of range 0..2000: -5.0", RecordJson.write(withFlow(valid, f -> {
            f[0] = -5;
            return f;
        })));
        records.put("unknown detector 999999: not in the routing graph", RecordJson.write(new ReadingRecord(999_999,
                valid.ts(), valid.flow(), valid.speed(), 0, 1, 1)));
        records.put("not valid JSON", utf8("detector 764598, flow 300"));
        return records;
    }

    private static ReadingRecord withFlow(ReadingRecord r, UnaryOperator<double[]> change) {
        return new ReadingRecord(r.detector(), r.ts(), change.apply(r.flow().clone()), r.speed(), r.seq(), 1, 1);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void parallelismTwoAdvisesEveryReadingOnceAndEndsWithTheSameNetworkState() throws Exception {
        String input = "par.readings";
        kafka.createTopics(List.of(input), 2);
        List<ReadingRecord> records = readings(0, 9);
        send(kafka.bootstrapServers(), records.stream().map(r -> keyed(input, r)).toList());
        Map<Long, Long> lastSeq = new HashMap<>();
        records.forEach(r -> lastSeq.merge(r.detector(), r.seq(), Math::max));

        Run one = run(input, "par1", 1, records.size(), lastSeq);
        Run two = run(input, "par2", 2, records.size(), lastSeq);

        for (Run run : List.of(one, two)) {
            assertThat(run.advice).hasSize(records.size());
            Set<AdviceKey> keys = new HashSet<>();
            run.advice.forEach(a -> assertThat(keys.add(AdviceKey.of(a))).as("duplicate %s", a).isTrue());
            records.forEach(r -> assertThat(keys).contains(new AdviceKey(r.detector(), r.seq())));
        }
        Map<AdviceKey, Double> predictedByOne = new HashMap<>();
        one.advice.forEach(a -> predictedByOne.put(AdviceKey.of(a), a.predictedFlow()));
        two.advice.forEach(a -> assertThat(a.predictedFlow()).as("prediction for %s", AdviceKey.of(a))
                .isEqualTo(predictedByOne.get(AdviceKey.of(a))));

        assertThat(one.stateBySubtask).containsOnlyKeys(0);
        assertThat(two.stateBySubtask).containsOnlyKeys(0, 1);
        Map<Long, ConditionUpdate> reference = one.stateBySubtask.get(0);
        assertThat(reference).hasSize(6);
        reference.forEach((detector, update) -> assertThat(update.seq).isEqualTo(lastSeq.get(detector)));
        assertThat(two.stateBySubtask.get(0)).isEqualTo(reference);
        assertThat(two.stateBySubtask.get(1)).isEqualTo(reference);
    }

    private record Run(List<AdviceRecord> advice, Map<Integer, Map<Long, ConditionUpdate>> stateBySubtask) {
    }

    /** Runs the job over the whole input topic and waits until every subtask's state has every detector's last reading. */
    private static Run run(String input, String prefix, int parallelism, int expected, Map<Long, Long> lastSeq)
            throws Exception {
        kafka.createTopics(List.of(prefix + ".advice", prefix + ".dead-letters"), 1);
        JobClient job = start(settings(input, prefix, "--parallelism", String.valueOf(parallelism)), prefix);
        try (Outputs out = new Outputs(kafka.bootstrapServers(), prefix + ".advice", prefix + ".dead-letters")) {
            out.awaitAtLeast(expected, 0, job);
            Map<Integer, Map<Long, ConditionUpdate>> state = awaitState(JobTestKit.STATE_CHANGES.get(prefix),
                    parallelism, lastSeq, job);
            out.drain(Duration.ofSeconds(1));
            assertThat(out.deadLetters).isEmpty();
            return new Run(out.adviceRecords(), state);
        } finally {
            cancel(job);
        }
    }

    /** Folds the state changes into each subtask's latest view until all show the last readings. */
    private static Map<Integer, Map<Long, ConditionUpdate>> awaitState(Queue<NetworkStateChange> changes,
                                                                     int subtasks, Map<Long, Long> lastSeq,
                                                                     JobClient job) throws Exception {
        long deadline = System.nanoTime() + JobTestKit.WAIT.toNanos();
        while (true) {
            Map<Integer, Map<Long, ConditionUpdate>> state = new TreeMap<>();
            for (NetworkStateChange change : changes) {
                state.computeIfAbsent(change.subtask, s -> new TreeMap<>())
                        .merge(change.update.detector, change.update, (a, b) -> b.isNewerThan(a) ? b : a);
            }
            boolean complete = state.size() == subtasks && state.values().stream().allMatch(view ->
                    lastSeq.entrySet().stream().allMatch(e -> view.containsKey(e.getKey())
                            && view.get(e.getKey()).seq == e.getValue()));
            if (complete) {
                return state;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("network state did not converge: " + state);
            }
            JobTestKit.requireRunning(job);
            Thread.sleep(100);
        }
    }

    @Test
    void identityAdvisesWithTheLastFlowAndNoRoute() throws Exception {
        String prefix = "identity";
        createTopics(prefix, 1);
        List<ReadingRecord> records = readings(0, 1);
        JobClient job = start(settings(prefix + ".readings", prefix, "--identity", "--parallelism", "1"), prefix);
        List<AdviceRecord> advice = adviceFor(job, prefix, records);
        assertThat(advice).hasSize(records.size());
        for (AdviceRecord a : advice) {
            ReadingRecord r = records.stream().filter(x -> x.detector() == a.detector() && x.seq() == a.seq())
                    .findFirst().orElseThrow();
            assertThat(a.predictedFlow()).isEqualTo(r.flow()[ReadingRecord.WINDOW - 1]);
            assertThat(a.model()).isEqualTo("identity");
            assertThat(a.route()).isEmpty();
            assertThat(a.routeCostS()).isZero();
            assertThat(a.inferNs()).isZero();
            assertThat(a.routeNs()).isZero();
        }
        assertThat(JobTestKit.STATE_CHANGES.get(prefix)).isEmpty();
    }

    @Test
    void microBatchesPredictWhatSingleCallsPredict() throws Exception {
        String prefix = "batched";
        createTopics(prefix, 1);
        List<ReadingRecord> records = readings(0, 4);
        JobClient job = start(settings(prefix + ".readings", prefix, "--parallelism", "1", "--max-batch", "4",
                "--max-batch-wait-us", "2000"), prefix);
        List<AdviceRecord> advice = adviceFor(job, prefix, records);
        assertThat(advice).hasSize(records.size());
        try (FlowPredictor predictor = FlowPredictors.open(MODEL, PredictorOptions.defaults())) {
            for (AdviceRecord a : advice) {
                ReadingRecord r = records.stream().filter(x -> x.detector() == a.detector() && x.seq() == a.seq())
                        .findFirst().orElseThrow();
                double single = predict(predictor, r);
                assertThat(a.predictedFlow()).isCloseTo(single, within(1e-5 * Math.max(1, single)));
            }
        }
    }

    @Test
    void aSecondSubmissionInTheSameJvmStillRunsTensorFlow() throws Exception {
        try (FlowPredictor reference = FlowPredictors.open(MODEL,
                PredictorOptions.defaults().withEngine(Engine.TENSORFLOW))) {
            for (int submission = 1; submission <= 2; submission++) {
                String prefix = "tf" + submission;
                createTopics(prefix, 1);
                List<ReadingRecord> records = readings(0, 0);
                JobClient job = start(settings(prefix + ".readings", prefix, "--engine", "tensorflow",
                        "--parallelism", "1"), prefix);
                List<AdviceRecord> advice;
                try (Outputs out = new Outputs(kafka.bootstrapServers(), prefix + ".advice", prefix + ".dead-letters")) {
                    send(kafka.bootstrapServers(), records.stream().map(r -> keyed(prefix + ".readings", r)).toList());
                    advice = out.awaitAtLeast(records.size(), 0, job).adviceRecords();
                } finally {
                    cancel(job);
                }
                assertThat(job.getJobStatus().get(10, TimeUnit.SECONDS).name()).isEqualTo("CANCELED");
                assertThat(advice).hasSize(records.size());
                for (AdviceRecord a : advice) {
                    ReadingRecord r = records.stream().filter(x -> x.detector() == a.detector()).findFirst().orElseThrow();
                    assertThat(a.model()).isEqualTo("lstm-flow/tensorflow");
                    assertThat(a.predictedFlow()).as("submission %d", submission)
                            .isCloseTo(predict(reference, r), within(1e-4));
                }
            }
        }
    }
    @Test
    void exactlyOnceOutputSurvivesAStopWithSavepointAndTheNetworkStateIsRestored() throws Exception {
        String prefix = "eo";
        String input = prefix + ".readings";
        createTopics(prefix, 1);
        JobSettings s = settings(input, prefix, "--parallelism", "1", "--exactly-once",
                "--checkpoint-interval-ms", "300", "--transactional-id-prefix", "eo-test");
        List<ReadingRecord> phase1 = readings(0, 4);
        Map<Long, ReadingRecord> newest = new LinkedHashMap<>();
        phase1.forEach(r -> newest.put(r.detector(), r));
        // After the restart only El Segundo reports, with its newest conditions again: its routes
        // are right only if the other five detectors' conditions came back with the savepoint.
        ReadingRecord elSegundo = newest.get(JobSettings.DEFAULT_ORIGIN);
        List<ReadingRecord> phase2 = new ArrayList<>();
        for (int seq = 5; seq <= 9; seq++) {
            phase2.add(withSeq(elSegundo, seq));
        }

        String savepoint;
        JobClient first = start(s, prefix + "-1");
        try (Outputs out = new Outputs(kafka.bootstrapServers(), prefix + ".advice", prefix + ".dead-letters")) {
            send(kafka.bootstrapServers(), phase1.stream().map(r -> keyed(input, r)).toList());
            out.awaitAtLeast(phase1.size(), 0, first);
            savepoint = first.stopWithSavepoint(false, JobTestKit.FLINK_TMP.resolve("savepoints").toUri().toString(),
                    SavepointFormatType.CANONICAL).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            cancel(first);
            throw e;
        }
        assertThat(first.getJobStatus().get(30, TimeUnit.SECONDS)).isEqualTo(JobStatus.FINISHED);

        JobClient second = start(s, prefix + "-2", savepoint);
        List<AdviceRecord> advice;
        try (Outputs out = new Outputs(kafka.bootstrapServers(), prefix + ".advice", prefix + ".dead-letters")) {
            send(kafka.bootstrapServers(), phase2.stream().map(r -> keyed(input, r)).toList());
            advice = out.awaitAtLeast(phase1.size() + phase2.size(), 0, second).drain(Duration.ofSeconds(2))
                    .adviceRecords();
        } finally {
            cancel(second);
        }

        // Committed output only, each reading once across the restart.
        assertThat(advice).hasSize(phase1.size() + phase2.size());
        Map<AdviceKey, AdviceRecord> byKey = new HashMap<>();
        advice.forEach(a -> assertThat(byKey.put(AdviceKey.of(a), a)).as("duplicate %s", a).isNull());

        try (FlowPredictor predictor = FlowPredictors.open(MODEL, PredictorOptions.defaults())) {
            Router everyone = Router.withDefaults(StudyNetwork.build());
            Router onlyElSegundo = Router.withDefaults(StudyNetwork.build());
            for (ReadingRecord r : newest.values()) {
                DetectorConditions c = new DetectorConditions(r.speed()[ReadingRecord.WINDOW - 1], predict(predictor, r));
                everyone.update(r.detector(), c);
                if (r == elSegundo) {
                    onlyElSegundo.update(r.detector(), c);
                }
            }
            double expected = everyone.routeByDijkstra(JobSettings.DEFAULT_ORIGIN, JobSettings.DEFAULT_DESTINATION)
                    .costSeconds();
            double withoutRestore = onlyElSegundo.routeByDijkstra(JobSettings.DEFAULT_ORIGIN,
                    JobSettings.DEFAULT_DESTINATION).costSeconds();
            assertThat(withoutRestore).as("the check can tell a lost state").isNotCloseTo(expected, within(1.0));
            for (ReadingRecord r : phase2) {
                assertThat(byKey.get(new AdviceKey(r.detector(), r.seq())).routeCostS())
                        .isCloseTo(expected, within(1e-9 * expected));
            }
        }
        Queue<NetworkStateChange> restoredChanges = JobTestKit.STATE_CHANGES.get(prefix + "-2");
        assertThat(restoredChanges).allSatisfy(change -> assertThat(change.update.detector)
                .isEqualTo(JobSettings.DEFAULT_ORIGIN));
    }

    @Test
    void exactlyOnceOutputSurvivesAFailureAndARestartFromACheckpoint() throws Exception {
        String prefix = "eof";
        String input = prefix + ".readings";
        createTopics(prefix, 1);
        JobSettings s = settings(input, prefix, "--parallelism", "1", "--exactly-once",
                "--checkpoint-interval-ms", "200", "--transactional-id-prefix", "eof-test");
        List<ReadingRecord> first = readings(0, 4);
        List<ReadingRecord> second = readings(5, 9);

        List<AdviceRecord> advice;
        JobClient job = JobTestKit.startWithFault(s, prefix, first.size() + second.size() / 2);
        try (Outputs out = new Outputs(kafka.bootstrapServers(), prefix + ".advice", prefix + ".dead-letters")) {
            send(kafka.bootstrapServers(), first.stream().map(r -> keyed(input, r)).toList());
            // Committed output of the first batch means at least one checkpoint completed before the fault.
            out.awaitAtLeast(first.size(), 0, job);
            send(kafka.bootstrapServers(), second.stream().map(r -> keyed(input, r)).toList());
            advice = out.awaitAtLeast(first.size() + second.size(), 0, job).drain(Duration.ofSeconds(2))
                    .adviceRecords();
        } finally {
            cancel(job);
        }

        assertThat(JobTestKit.FailOnce.FIRED).as("the fault was injected").isTrue();
        // read_committed: the transaction open at the failure was aborted, the records since the
        // checkpoint were processed again, and each reading appears once.
        assertThat(advice).hasSize(first.size() + second.size());
        Map<AdviceKey, AdviceRecord> byKey = new HashMap<>();
        advice.forEach(a -> assertThat(byKey.put(AdviceKey.of(a), a)).as("duplicate %s", a).isNull());
        for (ReadingRecord r : first) {
            assertThat(byKey).containsKey(new AdviceKey(r.detector(), r.seq()));
        }
        for (ReadingRecord r : second) {
            assertThat(byKey).containsKey(new AdviceKey(r.detector(), r.seq()));
        }
    }
}
