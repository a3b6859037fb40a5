package org.itsrt.producers.send;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.itsrt.clock.Clocks;
import org.itsrt.producers.ProducerRun;
import org.itsrt.producers.replay.DetectorWindows;
import org.itsrt.producers.requests.GravityModel;
import org.itsrt.producers.requests.RequestStream;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.pems.StationMeta;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.records.RouteRequestRecord;
import org.itsrt.records.Topics;
import org.junit.jupiter.api.Test;

/** Route requests on the readings' open-loop machinery, on Kafka's own mock producer: no broker needed. */
class RequestSourceTest {

    private static final Instant NOW = Instant.parse("2026-11-27T08:00:00Z");

    private static final Path SAMPLE =
            Path.of(System.getProperty("itsrt.repo.root", ".."), "data", "sample", "synthetic-readings.csv");

    private static StationMeta station(long id, int lanes, double latitude, double longitude) {
        return new StationMeta(id, 405, 'S', 7, "37", "", "1.0", 1.0, latitude, longitude, 0.5, "ML", lanes, "");
    }

    private static final GravityModel MODEL = GravityModel.of(List.of(
            station(764598, 5, 33.928621, -118.368522),
            station(717731, 4, 33.842000, -118.290000),
            station(774445, 3, 33.990000, -118.420000),
            station(716847, 2, 33.900000, -118.250000)));

    @Test
    void requestsAreTheirStreamsRequestsStampedWarmupFirstAndKeyedByTraveller() throws Exception {
        ProducerRun.Requests plan = ProducerRun.Requests.of(Path.of("meta.txt"), 400, 42);
        List<RequestSource> sources = ProducerRun.requestSources(plan, MODEL, Clock.fixed(NOW, ZoneOffset.UTC));
        List<MockProducer<byte[], byte[]>> producers = Collections.synchronizedList(new ArrayList<>());
        ReplayRun run = new ReplayRun(sources, plan.streams(), config -> mock(producers), Map.of(), Clocks.system());

        long[] warmups = ReplayRun.share(6, plan.streams());
        long[] measured = ReplayRun.share(10, plan.streams());
        run.run(plan.perSecond() / plan.streams(), warmups, measured, Duration.ofSeconds(10), stats -> {});

        assertThat(producers).as("one sender thread and producer per stream").hasSize(plan.streams());
        assertThat(run.stats().sent()).isEqualTo(16);
        assertThat(run.stats().warmupSent()).isEqualTo(6);
        Map<Integer, List<RouteRequestRecord>> byStream = new TreeMap<>();
        for (MockProducer<byte[], byte[]> producer : producers) {
            for (ProducerRecord<byte[], byte[]> record : producer.history()) {
                assertThat(record.topic()).isEqualTo(Topics.ROUTE_REQUESTS);
                RouteRequestRecord r = RouteRecordJson.readRequest(record.value());
                assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(r.key());
                byStream.computeIfAbsent(r.stream(), s -> new ArrayList<>()).add(r);
            }
        }
        assertThat(byStream).hasSize(plan.streams());
        long period = Math.round(1e9 / (plan.perSecond() / plan.streams()));
        for (var entry : byStream.entrySet()) {
            int stream = entry.getKey();
            List<RouteRequestRecord> requests = entry.getValue();
            assertThat(requests).hasSize((int) (warmups[stream] + measured[stream]));
            RequestStream expected = RequestStream.of(MODEL, 42, stream);
            for (int k = 0; k < requests.size(); k++) {
                RouteRequestRecord r = requests.get(k);
                assertThat(r.withWarmup(false).stamped(0, 0))
                        .as("request %d of stream %d is the stream's own", k, stream)
                        .isEqualTo(expected.request(k, NOW));
                assertThat(r.warmup()).as("request %d of stream %d", k, stream).isEqualTo(k < warmups[stream]);
                assertThat(r.sentNs()).isGreaterThanOrEqualTo(r.intendedNs());
                assertThat(r.intendedNs() - requests.get(0).intendedNs())
                        .as("one open-loop schedule across warm-up and measured requests")
                        .isEqualTo(k * period);
            }
        }
    }

    @Test
    void everyDetectorOfATableIsReadWithoutNamingIt() throws Exception {
        List<DetectorWindows> all = DetectorWindows.readAll(SAMPLE);
        List<Long> ids = all.stream().map(DetectorWindows::detector).toList();
        assertThat(ids)
                .containsExactlyInAnyOrderElementsOf(CanonicalTable.read(SAMPLE).stream()
                        .map(org.itsrt.readings.Reading::stationId)
                        .distinct()
                        .toList());
        assertThat(ids).doesNotHaveDuplicates();
    }

    private static MockProducer<byte[], byte[]> mock(List<MockProducer<byte[], byte[]>> producers) {
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        producers.add(producer);
        return producer;
    }
}
