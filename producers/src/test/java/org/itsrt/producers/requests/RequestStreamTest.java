package org.itsrt.producers.requests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.records.RouteRequestRecord;
import org.junit.jupiter.api.Test;

class RequestStreamTest {

    private static final Instant NOW = Instant.parse("2026-11-27T08:00:00.125Z");
    private static final GravityModel MODEL = GravityModel.of(GravityModelTest.smallDistrict(), 8_000);

    private static List<RouteRequestRecord> first(RequestStream stream, int count) {
        List<RouteRequestRecord> requests = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            requests.add(stream.request(k, NOW.plusMillis(100L * k)));
        }
        return requests;
    }

    @Test
    void theSameSeedAndStreamGiveTheSameRequestsInAnyOrder() {
        List<RouteRequestRecord> once = first(RequestStream.of(MODEL, 7, 2), 1_000);
        List<RouteRequestRecord> again = first(RequestStream.of(MODEL, 7, 2), 1_000);
        assertThat(again).isEqualTo(once);

        RequestStream fresh = RequestStream.of(MODEL, 7, 2);
        assertThat(fresh.request(999, NOW.plusMillis(99_900))).isEqualTo(once.get(999));
        assertThat(fresh.request(3, NOW.plusMillis(300))).isEqualTo(once.get(3));
    }

    @Test
    void anotherSeedOrStreamGivesOtherRequests() {
        List<RouteRequestRecord> base = first(RequestStream.of(MODEL, 7, 2), 200);
        List<RouteRequestRecord> otherSeed = first(RequestStream.of(MODEL, 8, 2), 200);
        List<RouteRequestRecord> otherStream = first(RequestStream.of(MODEL, 7, 3), 200);

        assertThat(travellers(otherSeed)).isNotEqualTo(travellers(base));
        assertThat(travellers(otherStream)).isNotEqualTo(travellers(base));
        assertThat(otherStream).allSatisfy(r -> assertThat(r.stream()).isEqualTo(3));
    }

    private static List<Long> travellers(List<RouteRequestRecord> requests) {
        return requests.stream().map(RouteRequestRecord::traveller).toList();
    }

    @Test
    void everyRequestIsOneTheJobAccepts() throws Exception {
        RequestStream stream = new RequestStream(MODEL, 11, 0, 500, Duration.ofMinutes(15));
        Set<Long> stations = new HashSet<>();
        for (int i = 0; i < MODEL.size(); i++) {
            stations.add(MODEL.station(i));
        }
        long maxLead = 0;
        for (int k = 0; k < 50_000; k++) {
            RouteRequestRecord r = stream.request(k, NOW);
            assertThat(r.origin()).isNotEqualTo(r.destination());
            assertThat(stations).contains(r.origin(), r.destination());
            assertThat(r.traveller()).isBetween(1L, 500L);
            assertThat(r.seq()).isEqualTo(k);
            assertThat(r.requestedAt()).isEqualTo(NOW);
            Duration lead = Duration.between(r.requestedAt(), r.departure());
            assertThat(lead).isBetween(Duration.ZERO, Duration.ofMinutes(15));
            maxLead = Math.max(maxLead, lead.toSeconds());
            if (k % 1_000 == 0) {
                assertThat(RouteRecordJson.readRequest(RouteRecordJson.write(r)))
                        .isEqualTo(r);
            }
        }
        assertThat(maxLead).as("leads reach the maximum").isGreaterThan(880);
    }

    /** The pairs of a stream follow the model: the test of the samplers, through the request path. */
    @Test
    void theStreamsPairsFollowTheModel() {
        RequestStream stream = RequestStream.of(MODEL, 5, 1);
        int draws = 100_000;
        java.util.Map<Long, Integer> index = new java.util.HashMap<>();
        for (int i = 0; i < MODEL.size(); i++) {
            index.put(MODEL.station(i), i);
        }
        long[][] count = new long[MODEL.size()][MODEL.size()];
        for (int k = 0; k < draws; k++) {
            RouteRequestRecord r = stream.request(k, NOW);
            count[index.get(r.origin())][index.get(r.destination())]++;
        }
        double chiSquare = 0;
        for (int o = 0; o < MODEL.size(); o++) {
            for (int d = 0; d < MODEL.size(); d++) {
                if (o != d) {
                    double expected = draws * MODEL.probability(o, d);
                    chiSquare += (count[o][d] - expected) * (count[o][d] - expected) / expected;
                }
            }
        }
        // 19 degrees of freedom, 0.1 % critical value.
        assertThat(chiSquare).isLessThan(43.8);
    }

    @Test
    void drawingARequestAllocatesLittleMoreThanTheRecordAndItsDeparture() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        RequestStream stream = RequestStream.of(MODEL, 3, 0);
        long checksum = 0;
        for (int k = 0; k < 20_000; k++) {
            checksum += stream.request(k, NOW).destination();
        }
        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        int count = 100_000;
        for (int k = 0; k < count; k++) {
            checksum += stream.request(k, NOW).destination();
        }
        long perRequest = (threads.getThreadAllocatedBytes(thread) - before) / count;
        assertThat(checksum).isPositive();
        // A record of ten fields (about 80 bytes) and an Instant (24): nothing per draw besides.
        assertThat(perRequest).isLessThanOrEqualTo(128);
    }

    @Test
    void invalidSettingsAreRefusedNamingThem() {
        assertThatThrownBy(() -> new RequestStream(MODEL, 1, -1, 10, Duration.ZERO))
                .hasMessage("request stream: stream must be 0 or more, got -1");
        assertThatThrownBy(() -> new RequestStream(MODEL, 1, 0, 0, Duration.ZERO))
                .hasMessage("request stream: travellers must be 1 or more, got 0");
        assertThatThrownBy(() -> new RequestStream(MODEL, 1, 0, 10, Duration.ofHours(25)))
                .hasMessageStartingWith("request stream: the maximum lead must be from 0 to PT24H");
        assertThatThrownBy(() -> new RequestStream(MODEL, 1, 0, 10, Duration.ofSeconds(-1)))
                .hasMessageContaining("maximum lead");
        assertThatThrownBy(() -> RequestStream.of(MODEL, 1, 0).request(-1, NOW))
                .hasMessage("request stream: request number must be 0 or more, got -1");
    }
}
