package org.itsrt.job.functions;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.ValidRouteRequest;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.records.RouteRequestRecord;
import org.junit.jupiter.api.Test;

class ParseRouteRequestTest {

    private static final long[] STATIONS = {764598, 717731, 774445};
    private static final Instant T0 = Instant.parse("2018-03-05T17:00:00Z");

    private static RouteRequestRecord request(long origin, long destination, Instant departure) {
        return RouteRequestRecord.builder()
                .traveller(42)
                .origin(origin)
                .destination(destination)
                .departure(departure)
                .requestedAt(T0)
                .stream(3)
                .seq(7)
                .sentNs(11)
                .intendedNs(10)
                .warmup(true)
                .build();
    }

    private static OneInputStreamOperatorTestHarness<RawReading, ValidRouteRequest> harness() throws Exception {
        return ProcessFunctionTestHarnesses.forProcessFunction(new ParseRouteRequest(STATIONS));
    }

    private static String reasonFor(byte[] value) throws Exception {
        try (var h = harness()) {
            h.processElement(new RawReading("requests", 2, 99, value), 0);
            assertThat(h.extractOutputValues()).isEmpty();
            List<DeadLetter> letters = List.copyOf(h.getSideOutput(ParseAndValidate.DEAD_LETTERS).stream()
                    .map(record -> record.getValue())
                    .toList());
            assertThat(letters).hasSize(1);
            assertThat(letters.get(0).value).isEqualTo(value);
            assertThat(letters.get(0).sourceTopic).isEqualTo("requests");
            assertThat(letters.get(0).sourceOffset).isEqualTo(99);
            return letters.get(0).reason;
        }
    }

    @Test
    void aValidRequestPassesWithEveryField() throws Exception {
        try (var h = harness()) {
            h.processElement(new RawReading("requests", 0, 0, RouteRecordJson.write(request(764598, 774445, T0))), 0);
            ValidRouteRequest r = h.extractOutputValues().get(0);
            assertThat(r.toRecord()).isEqualTo(request(764598, 774445, T0));
            assertThat(r.parseNs).isPositive();
            assertThat(h.getSideOutput(ParseAndValidate.DEAD_LETTERS)).isNull();
        }
    }

    @Test
    void badRequestsAreDeadLetteredWithTheirReasons() throws Exception {
        assertThat(reasonFor(RouteRecordJson.write(request(999, 774445, T0))))
                .isEqualTo("unknown station: 999 is not in the routing graph (origin)");
        assertThat(reasonFor(RouteRecordJson.write(request(764598, 998, T0))))
                .isEqualTo("unknown station: 998 is not in the routing graph (destination)");
        assertThat(reasonFor(RouteRecordJson.write(request(774445, 774445, T0))))
                .isEqualTo("same origin and destination: station 774445");
        assertThat(reasonFor(RouteRecordJson.write(request(764598, 774445, T0.minusSeconds(3_600)))))
                .startsWith("departure in the past: ");
        assertThat(reasonFor("{\"v\":1,".getBytes(StandardCharsets.UTF_8))).startsWith("truncated JSON: ");
        assertThat(reasonFor("from 764598 to 774445".getBytes(StandardCharsets.UTF_8)))
                .startsWith("not valid JSON: ");
        assertThat(reasonFor(null)).isEqualTo("record has no value");
    }
}
