package org.itsrt.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.itsrt.job.JobTestKit.MODEL;
import static org.itsrt.job.JobTestKit.predict;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.functions.ToPredictionRecord;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.NetworkStateChange;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.RouteAnswer;
import org.itsrt.model.Engine;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.FlowPredictors;
import org.itsrt.model.PredictorOptions;
import org.itsrt.records.PredictionRecord;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordJson;
import org.itsrt.records.RouteOutcome;
import org.itsrt.records.RouteRecord;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.records.RouteRequestRecord;
import org.itsrt.routing.Route;
import org.itsrt.routing.Router;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The district workload ({@code --workload district}) on a Flink MiniCluster at parallelism 2,
 * between in-memory ends ({@link MemoryDistrictIO}), over a small generated district: a prediction
 * per reading, an answer per valid request equal to a {@link Router}'s on the state the answer was
 * computed on, bad requests dead-lettered with their reasons, and network versions that grow.
 */
class DistrictJobTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(() -> new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .setConfiguration(JobTestKit.miniClusterConfiguration())
                    .build());

    private static final long UNKNOWN_STATION = 999_999;

    @TempDir
    Path dir;

    private record Run(
            List<PredictedFlow> predictions,
            List<RouteAnswer> routes,
            List<DeadLetter> deadLetters,
            List<NetworkStateChange> stateChanges,
            String modelLabel) {}

    private static Run run(
            String name,
            DistrictFixture district,
            List<byte[]> readings,
            List<byte[]> requests,
            int holdFrom,
            int predictionsFirst)
            throws Exception {
        JobSettings settings = JobSettings.fromArgs(
                "--bootstrap-servers", "127.0.0.1:9",
                "--model", MODEL.toString(),
                "--warmup-calls", "10",
                "--workload", "district",
                "--graph-meta", district.metaFile.toString(),
                "--parallelism", "2");
        StreamExecutionEnvironment env = JobTestKit.environment(new Configuration());
        MemoryDistrictIO io = new MemoryDistrictIO(name, readings, requests, holdFrom, predictionsFirst);
        DistrictStreams streams = ItsJob.buildDistrict(env, settings, io);
        streams.networkState().sinkTo(new CollectingSink<>(name + "/state")).name("test: state");
        env.execute(ItsJob.JOB_NAME + " " + name);
        return new Run(
                io.collectedPredictions(),
                io.collectedRoutes(),
                io.collectedDeadLetters(),
                CollectingSink.collected(name + "/state"),
                settings.model().label());
    }

    @Test
    void everyReadingIsPredictedAndEveryValidRequestAnsweredOnceOverTheStateItSaw() throws Exception {
        DistrictFixture district = DistrictFixture.in(dir);
        List<ReadingRecord> readings = district.readings(2);
        // At parallelism 2 the in-memory source reads the list as two halves at once: each
        // detector's readings must stay in one half, in order, as in one Kafka partition. So the
        // halves end on a detector's last reading, and readings of a detector outside the district
        // (dead-lettered as in the study) make them equally long.
        int firstHalf = readings.size() / 2;
        while (readings.get(firstHalf).detector() == readings.get(firstHalf - 1).detector()) {
            firstHalf++;
        }
        List<byte[]> readingValues =
                new ArrayList<>(readings.stream().map(RecordJson::write).toList());
        ReadingRecord first = readings.get(0);
        List<byte[]> outside = new ArrayList<>();
        for (int seq = 0; readingValues.size() + outside.size() < 2 * firstHalf; seq++) {
            outside.add(RecordJson.write(new ReadingRecord(
                    UNKNOWN_STATION,
                    first.ts(),
                    first.flow(),
                    first.speed(),
                    seq,
                    first.sentNs(),
                    first.intendedNs())));
        }
        assertThat(outside).as("readings outside the district").isNotEmpty();
        readingValues.addAll(outside);

        List<RouteRequestRecord> valid = district.requests(40, 17);
        Map<String, byte[]> bad = badRequests(district);
        // The bad requests in the first half, which is answered at once; the second half waits
        // until every reading has been predicted.
        List<byte[]> requestValues = new ArrayList<>(bad.values());
        valid.forEach(r -> requestValues.add(RouteRecordJson.write(r)));
        int holdFrom = requestValues.size() / 2;

        Run run = run("district", district, readingValues, requestValues, holdFrom, readings.size());

        // A prediction per valid reading, once, as the model predicts it.
        assertThat(run.predictions).hasSize(readings.size());
        ToPredictionRecord asRecord = new ToPredictionRecord(run.modelLabel);
        Map<String, PredictionRecord> predictions = new HashMap<>();
        for (PredictedFlow p : run.predictions) {
            PredictionRecord record = RecordJson.readPrediction(RecordJson.write(asRecord.map(p)));
            assertThat(predictions.put(record.detector() + "/" + record.seq(), record))
                    .as("duplicate prediction %s", record)
                    .isNull();
        }
        try (FlowPredictor predictor =
                FlowPredictors.open(MODEL, PredictorOptions.reference().withEngine(Engine.DEFAULT))) {
            for (ReadingRecord r : readings) {
                PredictionRecord p = predictions.get(r.detector() + "/" + r.seq());
                assertThat(p)
                        .as("prediction of detector %d seq %d", r.detector(), r.seq())
                        .isNotNull();
                assertThat(p.predictedFlow()).isCloseTo(predict(predictor, r), within(1e-4));
                assertThat(p.ts()).isEqualTo(r.ts());
                assertThat(p.sentNs()).isEqualTo(r.sentNs());
                assertThat(p.model()).isEqualTo("lstm-flow/" + Engine.DEFAULT.engineName());
                assertThat(p.inferNs()).isPositive();
            }
        }

        // Every valid request answered once, carrying its identity.
        assertThat(run.routes).hasSize(valid.size());
        Map<Long, RouteAnswer> bySeq = new HashMap<>();
        for (RouteAnswer a : run.routes) {
            assertThat(bySeq.put(a.request.seq, a))
                    .as("duplicate answer to seq %d", a.request.seq)
                    .isNull();
        }
        for (RouteRequestRecord r : valid) {
            RouteAnswer a = bySeq.get(r.seq());
            assertThat(a).as("answer to request %d", r.seq()).isNotNull();
            assertThat(a.request.traveller).isEqualTo(r.traveller());
            assertThat(a.request.origin).isEqualTo(r.origin());
            assertThat(a.request.destination).isEqualTo(r.destination());
            assertThat(a.request.sentNs).isEqualTo(r.sentNs());
        }

        // Each subtask took every reading's update, in the order of its versions 1, 2, ...
        Map<Integer, List<NetworkStateChange>> changes = new HashMap<>();
        run.stateChanges.forEach(
                c -> changes.computeIfAbsent(c.subtask, s -> new ArrayList<>()).add(c));
        assertThat(changes).containsOnlyKeys(0, 1);
        changes.values().forEach(list -> assertThat(list).hasSize(readings.size()));

        // Each answer is the route a Router gives after its subtask's first networkVersion updates;
        // per subtask, versions never go back.
        Map<Integer, Long> lastVersion = new HashMap<>();
        for (RouteAnswer a : run.routes) {
            long previous = lastVersion.getOrDefault(a.subtask, 0L);
            assertThat(a.networkVersion)
                    .as("version of subtask %d after %d", a.subtask, previous)
                    .isGreaterThanOrEqualTo(previous);
            lastVersion.put(a.subtask, a.networkVersion);
        }
        List<RouteAnswer> byVersion = new ArrayList<>(run.routes);
        byVersion.sort(Comparator.<RouteAnswer>comparingInt(a -> a.subtask).thenComparingLong(a -> a.networkVersion));
        Router router = null;
        int routerSubtask = -1;
        int applied = 0;
        int reachable = 0;
        for (RouteAnswer a : byVersion) {
            if (a.subtask != routerSubtask) {
                router = Router.withDefaults(district.graph);
                routerSubtask = a.subtask;
                applied = 0;
            }
            List<NetworkStateChange> own = changes.get(a.subtask);
            for (; applied < a.networkVersion; applied++) {
                NetworkStateChange c = own.get(applied);
                router.update(c.update.detector, c.update.conditions());
            }
            Route expected = router.route(a.request.origin, a.request.destination);
            RouteRecord record = RouteRecordJson.readRoute(RouteRecordJson.write(a.toRecord()));
            assertThat(record.networkVersion()).isEqualTo(a.networkVersion);
            assertThat(record.route()).as("route of request %d", a.request.seq).isEqualTo(expected.vdsIds());
            if (expected.isReachable()) {
                reachable++;
                assertThat(record.outcome()).isEqualTo(RouteOutcome.ROUTED);
                assertThat(record.travelTimeS()).isCloseTo(expected.costSeconds(), within(1e-9));
            } else {
                assertThat(record.outcome()).isEqualTo(RouteOutcome.UNREACHABLE);
            }
        }
        assertThat(reachable).as("requests with a route").isPositive();
        // The held half was answered after every prediction had been made and broadcast.
        assertThat(run.routes.stream().mapToLong(a -> a.networkVersion).max().orElseThrow())
                .as("the largest network version answered on")
                .isPositive();

        // The bad requests and the outside readings, each once, with their reasons.
        assertThat(run.deadLetters).hasSize(bad.size() + outside.size());
        Map<String, String> reasonByValue = new HashMap<>();
        for (DeadLetter letter : run.deadLetters) {
            reasonByValue.put(new String(letter.value, StandardCharsets.UTF_8), letter.reason);
            if (letter.sourceTopic.equals(MemoryDistrictIO.REQUESTS_TOPIC)) {
                assertThat(letter.value).isEqualTo(requestValues.get((int) letter.sourceOffset));
            }
        }
        bad.forEach((reason, value) -> assertThat(reasonByValue.get(new String(value, StandardCharsets.UTF_8)))
                .as("dead letter of %s", new String(value, StandardCharsets.UTF_8))
                .startsWith(reason));
        outside.forEach(value -> assertThat(reasonByValue.get(new String(value, StandardCharsets.UTF_8)))
                .startsWith("unknown detector: " + UNKNOWN_STATION));
    }

    /** Expected reason (its start) -> a request that must be dead-lettered with it. */
    private static Map<String, byte[]> badRequests(DistrictFixture district) {
        long a = district.detectors[0];
        long b = district.detectors[1];
        Map<String, byte[]> requests = new LinkedHashMap<>();
        requests.put(
                "same origin and destination: station " + a,
                RouteRecordJson.write(DistrictFixture.request(8, a, a, 1_000)));
        requests.put(
                "unknown station: " + UNKNOWN_STATION + " is not in the routing graph (origin)",
                RouteRecordJson.write(DistrictFixture.request(8, UNKNOWN_STATION, b, 1_001)));
        requests.put(
                "unknown station: " + UNKNOWN_STATION + " is not in the routing graph (destination)",
                RouteRecordJson.write(DistrictFixture.request(9, a, UNKNOWN_STATION, 1_002)));
        requests.put("not valid JSON: ", "from 900001 to 900002, please".getBytes(StandardCharsets.UTF_8));
        return requests;
    }
}
