package org.itsrt.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.itsrt.job.JobTestKit.MODEL;
import static org.itsrt.job.JobTestKit.predict;
import static org.itsrt.job.JobTestKit.readings;
import static org.itsrt.job.JobTestKit.withSeq;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.itsrt.job.JobTestKit.AdviceKey;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.functions.ToAdviceRecord;
import org.itsrt.job.records.ConditionUpdate;
import org.itsrt.job.records.DeadLetter;
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
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.RoadSegment;
import org.itsrt.routing.graph.StudyNetwork;
import org.jgrapht.GraphPath;
import org.jgrapht.alg.shortestpath.DijkstraShortestPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole job on a Flink MiniCluster, between in-memory ends ({@link MemoryJobIO}): the readings
 * are a bounded list, so each run ends when they are processed, and its advice, dead letters and
 * network-state changes are collected in this JVM. What only real Kafka topics can show is in
 * {@link ItsJobKafkaTest}.
 */
class ItsJobTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(() -> new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .setConfiguration(JobTestKit.miniClusterConfiguration())
                    .build());

    private static final long ORIGIN = 764598; // El Segundo
    private static final long DESTINATION = 774445; // Long Beach

    /** What one run wrote: advice as the advice topic would carry it, dead letters, network-state changes. */
    private record Run(
            List<AdviceRecord> advice,
            List<DeadLetter> deadLetters,
            Map<Integer, Map<Long, ConditionUpdate>> stateBySubtask,
            boolean keptNetworkState) {}

    /**
     * Runs the job over {@code input} (record values; null for a record without one) to its end.
     * The Kafka options are required but unused: the ends are in memory.
     */
    private static Run run(String name, List<byte[]> input, String... options) throws Exception {
        // Warm-up is about first-record latency, which no test here measures.
        List<String> args = new ArrayList<>(
                List.of("--bootstrap-servers", "127.0.0.1:9", "--model", MODEL.toString(), "--warmup-calls", "10"));
        args.addAll(Arrays.asList(options));
        JobSettings settings = JobSettings.fromArgs(args.toArray(String[]::new));
        StreamExecutionEnvironment env = JobTestKit.environment(new Configuration());
        MemoryJobIO io = new MemoryJobIO(name, input);
        JobStreams streams = ItsJob.build(env, settings, io);
        JobTestKit.collectNetworkState(streams, name + "/state");
        env.execute(ItsJob.JOB_NAME + " " + name);

        ToAdviceRecord asRecord = new ToAdviceRecord(settings.model().label());
        List<AdviceRecord> advice = new ArrayList<>();
        io.collectedAdvice().forEach(a -> advice.add(asRecord.map(a)));
        List<NetworkStateChange> changes = CollectingSink.collected(name + "/state");
        return new Run(
                advice,
                io.collectedDeadLetters(),
                JobTestKit.stateBySubtask(changes),
                streams.networkState().isPresent());
    }

    private static List<byte[]> values(List<ReadingRecord> records) {
        return records.stream().map(RecordJson::write).toList();
    }

    private static ReadingRecord recordOf(List<ReadingRecord> records, AdviceRecord a) {
        return records.stream()
                .filter(r -> r.detector() == a.detector() && r.seq() == a.seq())
                .findFirst()
                .orElseThrow();
    }

    @Test
    void everyValidReadingIsAdvisedAndEveryBadOneDeadLettered() throws Exception {
        // Phase 1: five readings of each detector, with every kind of bad record among them.
        // Each detector's first reading is a warm-up record: its advice must carry the flag.
        Map<String, byte[]> malformed = malformedRecords(readings(0, 4).get(0));
        List<ReadingRecord> phase1 =
                readings(0, 4).stream().map(r -> r.withWarmup(r.seq() == 0)).toList();
        List<byte[]> input = new ArrayList<>();
        List<byte[]> bad = new ArrayList<>(malformed.values());
        for (int i = 0; i < phase1.size(); i++) {
            input.add(RecordJson.write(phase1.get(i)));
            if (i % 4 == 1 && !bad.isEmpty()) {
                input.add(bad.remove(0));
            }
        }
        input.addAll(bad);
        input.add(null);
        int deadLetterCount = malformed.size() + 1;

        // Phase 2: each detector's newest conditions again, under new sequence numbers. At
        // parallelism 1 the route step takes the readings in input order, so each phase-2 record
        // finds every detector's phase-1 conditions in its view, and no later record changes
        // them: each phase-2 route has one right answer.
        Map<Long, ReadingRecord> newest = new LinkedHashMap<>();
        phase1.forEach(r -> newest.put(r.detector(), r));
        List<ReadingRecord> phase2 = new ArrayList<>();
        for (int seq = 5; seq <= 9; seq++) {
            for (ReadingRecord r : newest.values()) {
                phase2.add(withSeq(r, seq));
            }
        }
        input.addAll(values(phase2));

        Run run = run("basic", input, "--parallelism", "1");

        // Exactly one advice per valid reading, nothing more.
        List<ReadingRecord> all = new ArrayList<>(phase1);
        all.addAll(phase2);
        assertThat(run.advice).hasSize(all.size());
        Map<AdviceKey, AdviceRecord> byKey = new HashMap<>();
        run.advice.forEach(a ->
                assertThat(byKey.put(AdviceKey.of(a), a)).as("duplicate %s", a).isNull());

        try (FlowPredictor predictor =
                FlowPredictors.open(MODEL, PredictorOptions.reference().withEngine(Engine.DEFAULT))) {
            for (ReadingRecord r : all) {
                AdviceRecord a = byKey.get(new AdviceKey(r.detector(), r.seq()));
                assertThat(a)
                        .as("advice for detector %d seq %d", r.detector(), r.seq())
                        .isNotNull();
                assertThat(a.predictedFlow()).isCloseTo(predict(predictor, r), within(1e-4));
                assertThat(a.sentNs()).isEqualTo(r.sentNs());
                assertThat(a.intendedNs()).isEqualTo(r.intendedNs());
                assertThat(a.warmup()).isEqualTo(r.warmup());
                assertThat(a.model()).isEqualTo("lstm-flow/" + Engine.DEFAULT.engineName());
                assertThat(a.parseNs()).isPositive();
                assertThat(a.inferNs()).isPositive();
                assertThat(a.routeNs()).isPositive();
                assertThat(a.route()).startsWith(ORIGIN).endsWith(DESTINATION);
            }

            // Phase 2's routes: Dijkstra over the costs of every detector's newest conditions.
            Router expected = Router.withDefaults(StudyNetwork.build());
            for (ReadingRecord r : newest.values()) {
                expected.update(
                        r.detector(),
                        new DetectorConditions(r.speed()[ReadingRecord.WINDOW - 1], predict(predictor, r)));
            }
            GraphPath<Detector, RoadSegment> path = new DijkstraShortestPath<>(expected.costGraph())
                    .getPath(
                            expected.network().requireDetector(ORIGIN),
                            expected.network().requireDetector(DESTINATION));
            List<Long> expectedRoute =
                    path.getVertexList().stream().map(Detector::vdsId).toList();
            for (ReadingRecord r : phase2) {
                AdviceRecord a = byKey.get(new AdviceKey(r.detector(), r.seq()));
                assertThat(a.routeCostS()).isCloseTo(path.getWeight(), within(1e-9 * path.getWeight()));
                assertThat(a.route()).isEqualTo(expectedRoute);
            }
        }

        // Every bad record once, untouched, with its reason and where it came from.
        assertThat(run.deadLetters).hasSize(deadLetterCount);
        Map<String, String> reasonByValue = new HashMap<>();
        for (DeadLetter letter : run.deadLetters) {
            assertThat(letter.sourceTopic).isEqualTo(MemoryJobIO.TOPIC);
            assertThat(letter.sourcePartition).isZero();
            assertThat(letter.value).isEqualTo(input.get((int) letter.sourceOffset));
            String value = letter.value == null ? null : new String(letter.value, StandardCharsets.UTF_8);
            reasonByValue.put(value, letter.reason);
        }
        malformed.forEach((reason, value) -> assertThat(reasonByValue.get(new String(value, StandardCharsets.UTF_8)))
                .as("dead letter of %s", new String(value, StandardCharsets.UTF_8))
                .startsWith(reason));
        assertThat(reasonByValue.get(null)).isEqualTo("record has no value");
    }

    /** Expected reason (its start) -> a record that must be dead-lettered with it. */
    private static Map<String, byte[]> malformedRecords(ReadingRecord valid) {
        String json = new String(RecordJson.write(valid), StandardCharsets.UTF_8);
        Map<String, byte[]> records = new LinkedHashMap<>();
        records.put("field v: unsupported version 2, expected 1", utf8(json.replace("\"v\":1", "\"v\":2")));
        records.put("field seq: missing", utf8(json.replaceFirst(",\"seq\":\\d+", "")));
        double[] eleven = Arrays.copyOf(valid.flow(), 11);
        records.put(
                "field flow: has 11 values, expected 12",
                RecordJson.write(new ReadingRecord(valid.detector(), valid.ts(), eleven, valid.speed(), 1, 1, 1)));
        records.put("field flow: [3] is not a number: null", RecordJson.write(withFlow(valid, f -> {
            f[3] = Double.NaN;
            return f;
        })));
        records.put("field flow: [0] out of range 0..2000: -5", RecordJson.write(withFlow(valid, f -> {
            f[0] = -5;
            return f;
        })));
        records.put(
                "unknown detector: 999999 is not in the routing graph",
                RecordJson.write(new ReadingRecord(999_999, valid.ts(), valid.flow(), valid.speed(), 0, 1, 1)));
        records.put("not valid JSON: ", utf8("detector 764598, flow 300"));
        records.put(
                "field warmup: not a boolean: \"yes\"",
                utf8(json.substring(0, json.length() - 1) + ",\"warmup\":\"yes\"}"));
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
        // Detector by detector: at parallelism 2 the in-memory source reads the list as two halves
        // at once, and each detector's readings must stay in one half, in order, as they stay in
        // one Kafka partition. In the order readings() gives (all detectors' seq 0, then seq 1,
        // ...) a detector's later readings could overtake its earlier ones and be dead-lettered.
        List<ReadingRecord> records = readings(0, 9).stream()
                .sorted(java.util.Comparator.comparingLong(ReadingRecord::detector)
                        .thenComparingLong(ReadingRecord::seq))
                .toList();
        Map<Long, Long> lastSeq = new HashMap<>();
        records.forEach(r -> lastSeq.merge(r.detector(), r.seq(), Math::max));

        Run one = run("par1", values(records), "--parallelism", "1");
        Run two = run("par2", values(records), "--parallelism", "2");

        for (Run run : List.of(one, two)) {
            assertThat(run.advice).hasSize(records.size());
            Set<AdviceKey> keys = new HashSet<>();
            run.advice.forEach(a ->
                    assertThat(keys.add(AdviceKey.of(a))).as("duplicate %s", a).isTrue());
            records.forEach(r -> assertThat(keys).contains(new AdviceKey(r.detector(), r.seq())));
            assertThat(run.deadLetters).isEmpty();
        }
        Map<AdviceKey, Double> predictedByOne = new HashMap<>();
        one.advice.forEach(a -> predictedByOne.put(AdviceKey.of(a), a.predictedFlow()));
        two.advice.forEach(a -> assertThat(a.predictedFlow())
                .as("prediction for %s", AdviceKey.of(a))
                .isEqualTo(predictedByOne.get(AdviceKey.of(a))));

        // Each run ended with its input drained: every subtask has taken every broadcast update.
        assertThat(one.stateBySubtask).containsOnlyKeys(0);
        assertThat(two.stateBySubtask).containsOnlyKeys(0, 1);
        Map<Long, ConditionUpdate> reference = one.stateBySubtask.get(0);
        assertThat(reference).hasSize(6);
        reference.forEach((detector, update) -> assertThat(update.seq).isEqualTo(lastSeq.get(detector)));
        assertThat(two.stateBySubtask.get(0)).isEqualTo(reference);
        assertThat(two.stateBySubtask.get(1)).isEqualTo(reference);
    }

    @Test
    void identityAdvisesWithTheLastFlowAndNoRoute() throws Exception {
        List<ReadingRecord> records =
                readings(0, 1).stream().map(r -> r.withWarmup(r.seq() == 0)).toList();
        Run run = run("identity", values(records), "--identity", "--parallelism", "1");
        assertThat(run.advice).hasSize(records.size());
        for (AdviceRecord a : run.advice) {
            ReadingRecord r = recordOf(records, a);
            assertThat(a.predictedFlow()).isEqualTo(r.flow()[ReadingRecord.WINDOW - 1]);
            assertThat(a.model()).isEqualTo("identity");
            assertThat(a.route()).isEmpty();
            assertThat(a.routeCostS()).isZero();
            assertThat(a.inferNs()).isZero();
            assertThat(a.routeNs()).isZero();
            assertThat(a.warmup()).isEqualTo(r.warmup());
        }
        assertThat(run.keptNetworkState).as("identity keeps no network state").isFalse();
    }

    @Test
    void microBatchesPredictWhatSingleCallsPredict() throws Exception {
        List<ReadingRecord> records =
                readings(0, 4).stream().map(r -> r.withWarmup(r.seq() < 2)).toList();
        Run run = run(
                "batched", values(records), "--parallelism", "1", "--max-batch", "4", "--max-batch-wait-us", "2000");
        assertThat(run.advice).hasSize(records.size());
        try (FlowPredictor predictor =
                FlowPredictors.open(MODEL, PredictorOptions.reference().withEngine(Engine.DEFAULT))) {
            for (AdviceRecord a : run.advice) {
                double single = predict(predictor, recordOf(records, a));
                assertThat(a.predictedFlow()).isCloseTo(single, within(1e-5 * Math.max(1, single)));
                assertThat(a.warmup()).isEqualTo(recordOf(records, a).warmup());
            }
        }
    }

    /**
     * A network the job has no code for (GRU cells), given as a bundle alone: ONNX Runtime runs its
     * graph, one window at a time and in micro-batches, and every advice carries what the same
     * graph predicts for that reading.
     */
    @Test
    void aGruBundleRunsOnOnnxRuntimeWithNoCodeOfItsOwn() throws Exception {
        Path gru = MODEL.resolveSibling("gru-flow");
        List<ReadingRecord> records =
                readings(0, 3).stream().map(r -> r.withWarmup(r.seq() == 0)).toList();
        Run run = run(
                "gru",
                values(records),
                "--model",
                gru.toString(),
                "--engine",
                "onnx",
                "--parallelism",
                "1",
                "--max-batch",
                "4",
                "--max-batch-wait-us",
                "2000");
        assertThat(run.advice).hasSize(records.size());
        try (FlowPredictor reference =
                FlowPredictors.open(gru, PredictorOptions.reference().withEngine(Engine.ONNX))) {
            for (AdviceRecord a : run.advice) {
                assertThat(a.model()).isEqualTo("gru-flow/onnx");
                double single = predict(reference, recordOf(records, a));
                assertThat(a.predictedFlow()).isCloseTo(single, within(1e-5 * Math.max(1, single)));
            }
        }
    }

    @Test
    void aSecondSubmissionInTheSameJvmStillRunsTensorFlow() throws Exception {
        try (FlowPredictor reference =
                FlowPredictors.open(MODEL, PredictorOptions.reference().withEngine(Engine.TENSORFLOW))) {
            for (int submission = 1; submission <= 2; submission++) {
                List<ReadingRecord> records = readings(0, 0);
                Run run = run("tf" + submission, values(records), "--engine", "tensorflow", "--parallelism", "1");
                assertThat(run.advice).hasSize(records.size());
                for (AdviceRecord a : run.advice) {
                    assertThat(a.model()).isEqualTo("lstm-flow/tensorflow");
                    assertThat(a.predictedFlow())
                            .as("submission %d", submission)
                            .isCloseTo(predict(reference, recordOf(records, a)), within(1e-4));
                }
            }
        }
    }
}
