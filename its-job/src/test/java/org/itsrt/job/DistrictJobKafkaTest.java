package org.itsrt.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.itsrt.job.JobTestKit.MODEL;
import static org.itsrt.job.JobTestKit.cancel;
import static org.itsrt.job.JobTestKit.header;
import static org.itsrt.job.JobTestKit.keyed;
import static org.itsrt.job.JobTestKit.requireRunning;
import static org.itsrt.job.JobTestKit.send;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.kafka.DeadLetterSerializer;
import org.itsrt.job.kafka.KafkaJobIO;
import org.itsrt.records.PredictionRecord;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordJson;
import org.itsrt.records.RouteRecord;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.records.RouteRequestRecord;
import org.itsrt.routing.DetectorConditions;
import org.itsrt.routing.Route;
import org.itsrt.routing.Router;
import org.itsrt.stack.kafka.LocalKafka;
import org.itsrt.stack.kafka.LocalKafkaOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The district workload between real Kafka topics (a local KRaft broker) at parallelism 2 with
 * exactly-once delivery: predictions, routes and dead letters committed once each, and across a
 * stop-with-savepoint the network state and its version come back. What the workload computes is
 * tested without a broker, in {@link DistrictJobTest}.
 */
class DistrictJobKafkaTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(() -> new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .setConfiguration(JobTestKit.miniClusterConfiguration())
                    .build());

    private static final String PREFIX = "district";
    private static final String READINGS = PREFIX + ".readings";
    private static final String REQUESTS = PREFIX + ".route-requests";
    private static final String PREDICTIONS = PREFIX + ".predictions";
    private static final String ROUTES = PREFIX + ".routes";
    private static final String DEAD_LETTERS = PREFIX + ".dead-letters";
    private static final Duration WAIT = Duration.ofSeconds(120);

    private static LocalKafka kafka;

    @TempDir
    Path dir;

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

    private static JobClient start(JobSettings settings, String savepoint) throws Exception {
        Configuration conf = new Configuration();
        if (savepoint != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        }
        StreamExecutionEnvironment env = JobTestKit.environment(conf);
        ItsJob.buildDistrict(env, settings, KafkaJobIO.of(settings));
        return env.executeAsync(ItsJob.JOB_NAME + " district test");
    }

    /** Waits until {@code topic} holds at least {@code count} committed records, and returns them. */
    private static List<ConsumerRecord<byte[], byte[]>> awaitCommitted(String topic, int count, JobClient job)
            throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            List<ConsumerRecord<byte[], byte[]>> records = CommittedOutput.records(kafka.bootstrapServers(), topic);
            if (records.size() >= count) {
                return records;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited " + WAIT.toSeconds() + " s for " + count + " committed records on "
                        + topic + ", got " + records.size());
            }
            requireRunning(job);
            Thread.sleep(300);
        }
    }

    private static ProducerRecord<byte[], byte[]> request(RouteRequestRecord request) {
        return new ProducerRecord<>(
                REQUESTS, request.key().getBytes(StandardCharsets.UTF_8), RouteRecordJson.write(request));
    }

    @Test
    void exactlyOnceOutputSurvivesAStopWithSavepointWithTheNetworkStateAndItsVersion() throws Exception {
        DistrictFixture district = DistrictFixture.in(dir);
        kafka.createTopics(List.of(READINGS, REQUESTS), 2);
        kafka.createTopics(List.of(PREDICTIONS, ROUTES, DEAD_LETTERS), 1);
        JobSettings settings = JobSettings.fromArgs(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--workload",
                "district",
                "--graph-meta",
                district.metaFile.toString(),
                "--input-topic",
                READINGS,
                "--requests-topic",
                REQUESTS,
                "--predictions-topic",
                PREDICTIONS,
                "--routes-topic",
                ROUTES,
                "--dead-letter-topic",
                DEAD_LETTERS,
                "--group-id",
                PREFIX,
                "--starting-offsets",
                "earliest",
                "--model",
                MODEL.toString(),
                "--warmup-calls",
                "10",
                "--parallelism",
                "2",
                "--exactly-once",
                "--checkpoint-interval-ms",
                "300",
                "--transactional-id-prefix",
                "district-test",
                // The requests wait out the restart, far past any deadline: this checks the state,
                // not shedding, so every request is routed.
                "--deadline-ms",
                "0");
        List<ReadingRecord> readings = district.readings(1);
        List<RouteRequestRecord> requests = district.requests(30, 23);
        List<RouteRequestRecord> before = requests.subList(0, 10);
        List<RouteRequestRecord> after = requests.subList(10, requests.size());
        byte[] sameEnds =
                RouteRecordJson.write(DistrictFixture.request(8, district.detectors[0], district.detectors[0], 999));

        // Phase 1: every reading, some requests and a bad one; then a savepoint.
        JobClient first = start(settings, null);
        String savepoint;
        List<ConsumerRecord<byte[], byte[]>> predictions;
        try {
            List<ProducerRecord<byte[], byte[]>> sent = new ArrayList<>();
            readings.forEach(r -> sent.add(keyed(READINGS, r)));
            before.forEach(r -> sent.add(request(r)));
            sent.add(new ProducerRecord<>(REQUESTS, "8".getBytes(StandardCharsets.UTF_8), sameEnds));
            send(kafka.bootstrapServers(), sent);
            predictions = awaitCommitted(PREDICTIONS, readings.size(), first);
            awaitCommitted(ROUTES, before.size(), first);
            awaitCommitted(DEAD_LETTERS, 1, first);
            savepoint = first.stopWithSavepoint(
                            false,
                            JobTestKit.FLINK_TMP.resolve("savepoints").toUri().toString(),
                            SavepointFormatType.CANONICAL)
                    .get(60, TimeUnit.SECONDS);
        } catch (Exception | AssertionError e) {
            cancel(first);
            throw e;
        }
        assertThat(first.getJobStatus().get(30, TimeUnit.SECONDS)).isEqualTo(JobStatus.FINISHED);

        // Phase 2: requests only; no reading arrives after the restart.
        JobClient second = start(settings, savepoint);
        List<ConsumerRecord<byte[], byte[]>> routes;
        try {
            send(
                    kafka.bootstrapServers(),
                    after.stream().map(DistrictJobKafkaTest::request).toList());
            routes = awaitCommitted(ROUTES, requests.size(), second);
            Thread.sleep(1_000);
            routes = CommittedOutput.records(kafka.bootstrapServers(), ROUTES);
        } finally {
            cancel(second);
        }

        // Each reading predicted once and each valid request answered once, across the restart.
        predictions = CommittedOutput.records(kafka.bootstrapServers(), PREDICTIONS);
        assertThat(predictions).hasSize(readings.size());
        Map<Long, PredictionRecord> newestPrediction = new HashMap<>();
        Set<String> predicted = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> record : predictions) {
            PredictionRecord p = RecordJson.readPrediction(record.value());
            assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(Long.toString(p.detector()));
            assertThat(predicted.add(p.detector() + "/" + p.seq()))
                    .as("duplicate %s", p)
                    .isTrue();
            newestPrediction.merge(p.detector(), p, (a, b) -> a.seq() > b.seq() ? a : b);
        }
        assertThat(routes).hasSize(requests.size());
        Map<Long, RouteRecord> bySeq = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : routes) {
            RouteRecord answer = RouteRecordJson.readRoute(record.value());
            assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(answer.key());
            assertThat(bySeq.put(answer.seq(), answer))
                    .as("duplicate %s", answer)
                    .isNull();
        }

        // After the restart every answer saw the whole state of before: each subtask had taken
        // every reading's update when the savepoint was taken, and no reading came since.
        Router restored = Router.withDefaults(district.graph);
        Router empty = Router.withDefaults(district.graph);
        for (ReadingRecord r : readings) {
            PredictionRecord p = newestPrediction.get(r.detector());
            if (p.seq() == r.seq()) {
                restored.update(
                        r.detector(), new DetectorConditions(r.speed()[ReadingRecord.WINDOW - 1], p.predictedFlow()));
            }
        }
        boolean aLostStateWouldShow = false;
        for (RouteRequestRecord request : after) {
            RouteRecord answer = bySeq.get(request.seq());
            assertThat(answer).as("answer to %d", request.seq()).isNotNull();
            assertThat(answer.networkVersion()).isEqualTo(readings.size());
            Route expected = restored.route(request.origin(), request.destination());
            assertThat(answer.route()).isEqualTo(expected.vdsIds());
            if (expected.isReachable()) {
                assertThat(answer.travelTimeS()).isCloseTo(expected.costSeconds(), within(1e-9));
                double withoutState =
                        empty.route(request.origin(), request.destination()).costSeconds();
                aLostStateWouldShow |= Math.abs(withoutState - expected.costSeconds()) > 1;
            }
        }
        assertThat(aLostStateWouldShow).as("the check can tell a lost state").isTrue();
        before.forEach(r -> assertThat(bySeq).containsKey(r.seq()));

        List<ConsumerRecord<byte[], byte[]>> deadLetters =
                CommittedOutput.records(kafka.bootstrapServers(), DEAD_LETTERS);
        assertThat(deadLetters).hasSize(1);
        assertThat(header(deadLetters.get(0), DeadLetterSerializer.REASON))
                .isEqualTo("same origin and destination: station " + district.detectors[0]);
        assertThat(header(deadLetters.get(0), DeadLetterSerializer.SOURCE_TOPIC))
                .isEqualTo(REQUESTS);
        assertThat(deadLetters.get(0).value()).isEqualTo(sameEnds);
    }
}
