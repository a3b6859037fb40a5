package org.itsrt.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RouteRecordJsonTest {

    private static final Instant REQUESTED_AT = Instant.parse("2026-11-27T08:00:00.250Z");

    static RouteRequestRecord request() {
        return RouteRequestRecord.builder()
                .traveller(90211)
                .origin(764598)
                .destination(774445)
                .departure(Instant.parse("2026-11-27T08:10:00Z"))
                .requestedAt(REQUESTED_AT)
                .stream(3)
                .seq(17)
                .sentNs(5_834_612_307_719L)
                .intendedNs(5_834_612_207_000L)
                .build();
    }

    static RouteRecord routed() {
        return RouteRecord.answering(request())
                .routed(List.of(764598L, 717731L, 774445L), 699.5)
                .networkVersion(48_211)
                .parseNs(21_000)
                .routeNs(4_800)
                .build();
    }

    @Test
    void aRequestRoundTripsWithEveryField() throws Exception {
        RouteRequestRecord original = request().withWarmup(true);
        byte[] json = RouteRecordJson.write(original);

        assertThat(new String(json, StandardCharsets.UTF_8))
                .isEqualTo("{\"v\":1,\"traveller\":90211,\"origin\":764598,\"destination\":774445,"
                        + "\"departure\":\"2026-11-27T08:10:00Z\",\"requested_at\":\"2026-11-27T08:00:00.250Z\","
                        + "\"stream\":3,\"seq\":17,\"sent_ns\":5834612307719,\"intended_ns\":5834612207000,"
                        + "\"warmup\":true}");
        assertThat(RouteRecordJson.readRequest(json)).isEqualTo(original);
        assertThat(new String(RouteRecordJson.write(request()), StandardCharsets.UTF_8))
                .as("a measured request has no warmup field")
                .doesNotContain("warmup");
        assertThat(RouteRecordJson.readRequest(RouteRecordJson.write(request())))
                .isEqualTo(request());
        assertThat(request().key()).isEqualTo("90211");
    }

    @Test
    void aRoutedAnswerRoundTripsWithEveryField() throws Exception {
        RouteRecord original = RouteRecord.answering(request().withWarmup(true))
                .routed(List.of(764598L, 717731L, 774445L), 699.5)
                .networkVersion(48_211)
                .parseNs(21_000)
                .routeNs(4_800)
                .build();
        byte[] json = RouteRecordJson.write(original);

        assertThat(new String(json, StandardCharsets.UTF_8))
                .isEqualTo("{\"v\":1,\"traveller\":90211,\"stream\":3,\"seq\":17,\"sent_ns\":5834612307719,"
                        + "\"intended_ns\":5834612207000,\"origin\":764598,\"destination\":774445,"
                        + "\"departure\":\"2026-11-27T08:10:00Z\",\"outcome\":\"routed\","
                        + "\"route\":[764598,717731,774445],\"travel_time_s\":699.5,\"network_version\":48211,"
                        + "\"parse_ns\":21000,\"route_ns\":4800,\"warmup\":true}");
        RouteRecord read = RouteRecordJson.readRoute(json);
        assertThat(read).isEqualTo(original);
        assertThat(read.warmup()).isTrue();
        assertThat(read.isRouted()).isTrue();
        assertThat(read.key()).isEqualTo(request().key());
    }

    @Test
    void anUnreachableAnswerHasNoRouteAndANullTravelTime() throws Exception {
        RouteRecord original = RouteRecord.answering(request())
                .unreachable()
                .networkVersion(7)
                .parseNs(1)
                .routeNs(2)
                .build();
        String json = new String(RouteRecordJson.write(original), StandardCharsets.UTF_8);

        assertThat(json).contains("\"outcome\":\"unreachable\",\"route\":[],\"travel_time_s\":null,");
        RouteRecord read = RouteRecordJson.readRoute(json.getBytes(StandardCharsets.UTF_8));
        assertThat(read).isEqualTo(original);
        assertThat(read.travelTimeS()).isNaN();
        assertThat(read.route()).isEmpty();
        assertThat(read.isRouted()).isFalse();
    }

    @Test
    void theAnswerCarriesTheRequestsIdentityAndStamps() {
        RouteRequestRecord request = request().withWarmup(true);
        RouteRecord answer = RouteRecord.answering(request)
                .routed(List.of(764598L, 774445L), 60)
                .build();

        assertThat(answer.traveller()).isEqualTo(request.traveller());
        assertThat(answer.stream()).isEqualTo(request.stream());
        assertThat(answer.seq()).isEqualTo(request.seq());
        assertThat(answer.sentNs()).isEqualTo(request.sentNs());
        assertThat(answer.intendedNs()).isEqualTo(request.intendedNs());
        assertThat(answer.warmup()).isTrue();
        assertThat(answer.origin()).isEqualTo(request.origin());
        assertThat(answer.destination()).isEqualTo(request.destination());
        assertThat(answer.departure()).isEqualTo(request.departure());
    }

    @Test
    void theBuildersNameWhatWasNotSet() {
        assertThatThrownBy(() -> RouteRequestRecord.builder()
                        .traveller(1)
                        .origin(2)
                        .destination(3)
                        .departure(REQUESTED_AT)
                        .requestedAt(REQUESTED_AT)
                        .seq(0)
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("route request: stream not set");
        assertThatThrownBy(() -> RouteRecord.answering(request()).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("route answer: outcome not set");
    }

    @Test
    void aDepartureWithinTheToleranceBeforeTheRequestIsAccepted() throws Exception {
        Instant departure = REQUESTED_AT.minus(RouteRecordJson.DEPARTURE_TOLERANCE);
        RouteRequestRecord request =
                RouteRequestRecord.builder()
                        .traveller(1)
                        .origin(2)
                        .destination(3)
                        .departure(departure)
                        .requestedAt(REQUESTED_AT)
                        .stream(0)
                        .seq(0)
                        .build();
        assertThat(RouteRecordJson.readRequest(RouteRecordJson.write(request)).departure())
                .isEqualTo(departure);

        Instant furthest = REQUESTED_AT.plus(RouteRecordJson.MAX_DEPARTURE_LEAD);
        assertThat(RouteRecordJson.readRequest(withDeparture(furthest)).departure())
                .isEqualTo(furthest);
    }

    private static byte[] withDeparture(Instant departure) {
        return RouteRecordJson.write(
                RouteRequestRecord.builder()
                        .traveller(1)
                        .origin(2)
                        .destination(3)
                        .departure(departure)
                        .requestedAt(REQUESTED_AT)
                        .stream(0)
                        .seq(0)
                        .build());
    }

    private static final String REQUEST =
            "{\"v\":1,\"traveller\":5,\"origin\":764598,\"destination\":774445,\"departure\":\"2026-11-27T08:10:00Z\","
                    + "\"requested_at\":\"2026-11-27T08:00:00Z\",\"stream\":0,\"seq\":3,\"sent_ns\":10,\"intended_ns\":9}";

    @Test
    void theValidRequestOfTheseTestsIsValid() throws Exception {
        assertThat(RouteRecordJson.readRequest(REQUEST.getBytes(StandardCharsets.UTF_8))
                        .seq())
                .isEqualTo(3);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not json | {\"v\":1,x | not valid JSON: ",
                "truncated | {\"v\":1, | truncated JSON: ",
                "array | [1,2] | not a JSON object: array",
                "no version | \"v\":1, -> | field v: missing",
                "wrong version | \"v\":1, -> \"v\":2, | field v: unsupported version 2, expected 1",
                "no traveller | \"traveller\":5, -> | field traveller: missing",
                "text traveller | \"traveller\":5 -> \"traveller\":\"5\" | field traveller: not an integer: \"5\"",
                "zero traveller | \"traveller\":5 -> \"traveller\":0 | field traveller: must be positive: 0",
                "huge traveller | \"traveller\":5 -> \"traveller\":99999999999999999999 | field traveller: out of the 64-bit range",
                "negative stream | \"stream\":0 -> \"stream\":-1 | field stream: out of range 0..2147483647: -1",
                "wide stream | \"stream\":0 -> \"stream\":2147483648 | field stream: out of range 0..2147483647: 2147483648",
                "negative seq | \"seq\":3 -> \"seq\":-3 | field seq: negative: -3",
                "fractional seq | \"seq\":3 -> \"seq\":1.5 | field seq: not an integer: 1.5",
                "no origin | \"origin\":764598, -> | field origin: missing",
                "negative origin | \"origin\":764598 -> \"origin\":-7 | field origin: must be positive: -7",
                "text destination | \"destination\":774445 -> \"destination\":\"774445\" | field destination: not an integer",
                "bad departure | \"departure\":\"2026-11-27T08:10:00Z\" -> \"departure\":\"tomorrow\" | field departure: not an ISO-8601 UTC instant: \"tomorrow\"",
                "number departure | \"departure\":\"2026-11-27T08:10:00Z\" -> \"departure\":17 | field departure: not a string: 17",
                "local requested_at | \"requested_at\":\"2026-11-27T08:00:00Z\" -> \"requested_at\":\"2026-11-27T08:00:00\" | field requested_at: not an ISO-8601 UTC instant",
                "no sent_ns | \"sent_ns\":10, -> | field sent_ns: missing",
                "text intended_ns | \"intended_ns\":9 -> \"intended_ns\":\"9\" | field intended_ns: not an integer",
                "text warmup | \"intended_ns\":9 -> \"intended_ns\":9,\"warmup\":\"true\" | field warmup: not a boolean: \"true\"",
                "duplicate key | \"seq\":3 -> \"seq\":3,\"seq\":3 | duplicate field: 'seq'",
                "NaN | \"seq\":3 -> \"seq\":NaN | non-finite number: ",
                "same stations | \"destination\":774445 -> \"destination\":764598 | same origin and destination: station 764598",
                "in the past | \"departure\":\"2026-11-27T08:10:00Z\" -> \"departure\":\"2026-11-27T07:55:00Z\" | departure in the past: 2026-11-27T07:55:00Z is 300 s before requested_at 2026-11-27T08:00:00Z (tolerance 60 s)",
                "just past the tolerance | \"departure\":\"2026-11-27T08:10:00Z\" -> \"departure\":\"2026-11-27T07:58:59.5Z\" | departure in the past: 2026-11-27T07:58:59.500Z is 60.5 s before",
                "a week ahead | \"departure\":\"2026-11-27T08:10:00Z\" -> \"departure\":\"2026-12-04T08:00:00Z\" | departure too far ahead: 2026-12-04T08:00:00Z is 604800 s after requested_at",
            })
    void badRequestsNameTheirProblem(String name, String edit, String reason) {
        String json = edit.contains(" ->") ? apply(REQUEST, edit) : edit;
        assertThatThrownBy(() -> RouteRecordJson.readRequest(json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(RecordFormatException.class)
                .hasMessageStartingWith(reason);
    }

    @Test
    void theCategoriesOfTheCrossFieldRulesAreTheirOwn() {
        String past =
                apply(REQUEST, "\"departure\":\"2026-11-27T08:10:00Z\" -> \"departure\":\"2026-11-27T07:00:00Z\"");
        String same = apply(REQUEST, "\"destination\":774445 -> \"destination\":764598");
        assertThatThrownBy(() -> RouteRecordJson.readRequest(past.getBytes(StandardCharsets.UTF_8)))
                .satisfies(e ->
                        assertThat(DeadLetterHeaders.category(e.getMessage())).isEqualTo("departure in the past"));
        assertThatThrownBy(() -> RouteRecordJson.readRequest(same.getBytes(StandardCharsets.UTF_8)))
                .satisfies(e -> assertThat(DeadLetterHeaders.category(e.getMessage()))
                        .isEqualTo("same origin and destination"));
    }

    @Test
    void theSharedLimitsApplyToRouteRecords() {
        byte[] big = REQUEST.replace("}", ",\"pad\":\"" + "x".repeat(RecordJson.MAX_RECORD_BYTES) + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> RouteRecordJson.readRequest(big))
                .hasMessage("record too large: " + big.length + " bytes, the limit is " + RecordJson.MAX_RECORD_BYTES);
        assertThatThrownBy(() -> RouteRecordJson.readRoute(big)).hasMessageStartingWith("record too large: ");

        String deep = REQUEST.replace("}", ",\"x\":" + "[".repeat(100) + "]".repeat(100) + "}");
        assertThatThrownBy(() -> RouteRecordJson.readRequest(deep.getBytes(StandardCharsets.UTF_8)))
                .hasMessageStartingWith("JSON nested too deep: ");
        assertThatThrownBy(() -> RouteRecordJson.readRequest(new byte[0])).hasMessage("empty record: 0 bytes");
    }

    @Test
    void unknownFieldsAreIgnored() throws Exception {
        String request = REQUEST.replace("}", ",\"mode\":\"car\",\"via\":[1,{\"a\":2}]}");
        assertThat(RouteRecordJson.readRequest(request.getBytes(StandardCharsets.UTF_8))
                        .traveller())
                .isEqualTo(5);
        String answer =
                new String(RouteRecordJson.write(routed()), StandardCharsets.UTF_8).replace("}", ",\"cost\":3}");
        assertThat(RouteRecordJson.readRoute(answer.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(routed());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "no outcome | \"outcome\":\"routed\", -> | field outcome: missing",
                "unknown outcome | \"outcome\":\"routed\" -> \"outcome\":\"late\" | field outcome: unknown outcome \"late\", expected one of routed, unreachable, expired",
                "expired with a route | \"outcome\":\"routed\" -> \"outcome\":\"expired\" | field route: has 3 stations, expected none for outcome expired",
                "number outcome | \"outcome\":\"routed\" -> \"outcome\":1 | field outcome: not a string: 1",
                "no route | \"route\":[764598,717731,774445], -> | field route: missing",
                "route not an array | \"route\":[764598,717731,774445] -> \"route\":\"764598\" | field route: not an array of station ids",
                "text station | \"route\":[764598,717731,774445] -> \"route\":[764598,\"717731\",774445] | field route: [1] is not a station id (a positive integer): \"717731\"",
                "negative station | \"route\":[764598,717731,774445] -> \"route\":[764598,-1,774445] | field route: [1] is not a station id",
                "wrong start | \"route\":[764598,717731,774445] -> \"route\":[717731,774445] | field route: starts at station 717731, not at origin 764598",
                "wrong end | \"route\":[764598,717731,774445] -> \"route\":[764598,717731] | field route: ends at station 717731, not at destination 774445",
                "one station | \"route\":[764598,717731,774445] -> \"route\":[764598] | field route: has 1 stations, expected at least 2",
                "empty route routed | \"route\":[764598,717731,774445] -> \"route\":[] | field route: has 0 stations, expected at least 2",
                "no travel time | \"travel_time_s\":699.5, -> | field travel_time_s: missing",
                "null travel time routed | \"travel_time_s\":699.5 -> \"travel_time_s\":null | field travel_time_s: null, expected the travel time",
                "text travel time | \"travel_time_s\":699.5 -> \"travel_time_s\":\"699\" | field travel_time_s: not a number: \"699\"",
                "negative travel time | \"travel_time_s\":699.5 -> \"travel_time_s\":-1 | field travel_time_s: out of range 0..86400: -1",
                "sentinel travel time | \"travel_time_s\":699.5 -> \"travel_time_s\":1.7976931348623157E308 | field travel_time_s: out of range 0..86400",
                "infinite travel time | \"travel_time_s\":699.5 -> \"travel_time_s\":1e999 | field travel_time_s: out of range 0..86400",
                "negative network version | \"network_version\":48211 -> \"network_version\":-1 | field network_version: negative: -1",
                "no network version | \"network_version\":48211, -> | field network_version: missing",
                "negative parse_ns | \"parse_ns\":21000 -> \"parse_ns\":-5 | field parse_ns: negative: -5",
                "no route_ns | ,\"route_ns\":4800 -> | field route_ns: missing",
                "same stations | \"destination\":774445 -> \"destination\":764598 | same origin and destination: station 764598",
                "unreachable with a route | \"outcome\":\"routed\" -> \"outcome\":\"unreachable\" | field route: has 3 stations, expected none for outcome unreachable",
                "no stream | \"stream\":3, -> | field stream: missing",
                "wrong version | \"v\":1 -> \"v\":2 | field v: unsupported version 2",
            })
    void badAnswersNameTheirProblem(String name, String edit, String reason) {
        String json = apply(new String(RouteRecordJson.write(routed()), StandardCharsets.UTF_8), edit);
        assertThatThrownBy(() -> RouteRecordJson.readRoute(json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(RecordFormatException.class)
                .hasMessageStartingWith(reason);
    }

    @Test
    void anUnreachableAnswerWithATravelTimeIsRejected() {
        String unreachable = new String(
                RouteRecordJson.write(
                        RouteRecord.answering(request()).unreachable().build()),
                StandardCharsets.UTF_8);
        String json = unreachable.replace("\"travel_time_s\":null", "\"travel_time_s\":12.5");
        assertThatThrownBy(() -> RouteRecordJson.readRoute(json.getBytes(StandardCharsets.UTF_8)))
                .hasMessage("field travel_time_s: expected null for outcome unreachable, got 12.5");
    }

    /** {@code "old -> new"} (new may be empty): the record with its one occurrence of old replaced by new. */
    private static String apply(String json, String edit) {
        int arrow = edit.indexOf(" ->");
        String old = edit.substring(0, arrow);
        String replacement = edit.substring(arrow + 3).strip();
        assertThat(json).as("the edit applies").contains(old);
        return json.replace(old, replacement);
    }
}
