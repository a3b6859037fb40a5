package org.itsrt.records;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * JSON of the route records (docs/records.md): {@link RouteRequestRecord} on
 * {@code its.route-requests} and {@link RouteRecord} on {@code its.routes}. The same rules as
 * {@link RecordJson}, through the same parser and helpers: the size limit, UTF-8, the depth limit,
 * duplicate keys, version 1, every field present with its type and range, unknown fields ignored;
 * every rejection's message is {@code CATEGORY: detail} ({@link DeadLetterHeaders#category}).
 * Beyond one field, what a record alone decides: origin and destination differ, and a request's
 * departure is neither before its request time (beyond {@link #DEPARTURE_TOLERANCE}) nor more than
 * {@link #MAX_DEPARTURE_LEAD} after it. Whether a station is in the routing graph is the job's to
 * decide ({@code unknown station}).
 *
 * <p>The job reads every request, and reads it as it reads a reading: in a streaming pass that
 * only accepts, and with the tree reader when that pass does not. Answers are read by the tree only
 * (the probe's tests, the demo); a consumer that needs only an answer's identity and stamps, at
 * the rate the probe polls, reads it with {@link RouteStampsReader}.
 */
public final class RouteRecordJson {

    /**
     * How far a departure may lie before the request time and still be taken as "now": a client
     * that rounds "leave now" down to the minute, or whose clock and the producer's differ by a
     * few seconds, is not asking for the past.
     */
    public static final Duration DEPARTURE_TOLERANCE = Duration.ofSeconds(60);

    /**
     * How far ahead a departure may be. The costs the job routes with are predictions of the next
     * intervals; a route for a departure days ahead would be priced on today's traffic, so such a
     * request is refused rather than answered with a travel time that means nothing.
     */
    public static final Duration MAX_DEPARTURE_LEAD = Duration.ofHours(24);

    /**
     * The largest travel time an answer may carry (s). A district's longest route takes hours;
     * a day or more is an overflowing or sentinel cost (an infinite weight summed into a path),
     * not a prediction.
     */
    public static final double MAX_TRAVEL_TIME_S = 86_400;

    private RouteRecordJson() {}

    public static byte[] write(RouteRequestRecord r) {
        return RecordJson.writeObject(g -> {
            g.writeNumberField(RecordFields.VERSION, ReadingRecord.VERSION);
            g.writeNumberField(RecordFields.TRAVELLER, r.traveller());
            g.writeNumberField(RecordFields.ORIGIN, r.origin());
            g.writeNumberField(RecordFields.DESTINATION, r.destination());
            g.writeStringField(RecordFields.DEPARTURE, r.departure().toString());
            g.writeStringField(RecordFields.REQUESTED_AT, r.requestedAt().toString());
            g.writeNumberField(RecordFields.STREAM, r.stream());
            g.writeNumberField(RecordFields.SEQ, r.seq());
            g.writeNumberField(RecordFields.SENT_NS, r.sentNs());
            g.writeNumberField(RecordFields.INTENDED_NS, r.intendedNs());
            RecordJson.writeWarmup(g, r.warmup());
        });
    }

    public static byte[] write(RouteRecord a) {
        return RecordJson.writeObject(g -> {
            g.writeNumberField(RecordFields.VERSION, ReadingRecord.VERSION);
            g.writeNumberField(RecordFields.TRAVELLER, a.traveller());
            g.writeNumberField(RecordFields.STREAM, a.stream());
            g.writeNumberField(RecordFields.SEQ, a.seq());
            g.writeNumberField(RecordFields.SENT_NS, a.sentNs());
            g.writeNumberField(RecordFields.INTENDED_NS, a.intendedNs());
            g.writeNumberField(RecordFields.ORIGIN, a.origin());
            g.writeNumberField(RecordFields.DESTINATION, a.destination());
            g.writeStringField(RecordFields.DEPARTURE, a.departure().toString());
            g.writeStringField(RecordFields.OUTCOME, a.outcome().wire());
            g.writeArrayFieldStart(RecordFields.ROUTE);
            for (long station : a.route()) {
                g.writeNumber(station);
            }
            g.writeEndArray();
            writeTravelTime(g, a.travelTimeS());
            g.writeNumberField(RecordFields.NETWORK_VERSION, a.networkVersion());
            g.writeNumberField(RecordFields.PARSE_NS, a.parseNs());
            g.writeNumberField(RecordFields.ROUTE_NS, a.routeNs());
            RecordJson.writeWarmup(g, a.warmup());
        });
    }

    /**
     * Reads and validates a route request; the exception's message is the dead-letter reason.
     *
     * <p>As {@link RecordJson#readReading}: a valid request, the job's every request, is read in one
     * streaming pass straight into the record ({@link #streamValidRequest}), without the tree; any
     * other is read again by the tree reader ({@link #readRequestByTree}), which names its problem.
     */
    public static RouteRequestRecord readRequest(byte[] bytes) throws RecordFormatException {
        RecordJson.requireSizeAndUtf8(bytes);
        RouteRequestRecord request = streamValidRequest(bytes);
        return request != null ? request : readRequestByTree(bytes);
    }

    /**
     * The request, when the record is one the tree reader accepts too; {@code null} when it is not,
     * or when this pass cannot tell (the tree reader decides then); called once size and encoding
     * are checked. What it checks after the parser is every rule of {@link #readRequestByTree}, as
     * an acceptance test (RouteRequestStreamingTest holds both to that).
     */
    static RouteRequestRecord streamValidRequest(byte[] bytes) {
        StreamedRequest r = new StreamedRequest();
        if (!r.read(bytes) || r.traveller <= 0 || r.origin <= 0 || r.destination <= 0 || r.stream < 0) {
            return null;
        }
        Instant departure = RecordJson.streamedInstant(r.departure);
        Instant requestedAt = RecordJson.streamedInstant(r.requestedAt);
        if (departure == null
                || requestedAt == null
                || r.origin == r.destination
                || departsInThePast(departure, requestedAt)
                || departsTooFarAhead(departure, requestedAt)) {
            return null;
        }
        return new RouteRequestRecord(
                r.traveller,
                r.origin,
                r.destination,
                departure,
                requestedAt,
                (int) r.stream,
                r.seq(),
                r.sentNs(),
                r.intendedNs(),
                r.warmup());
    }

    /** A request's own fields, as {@link #readRequestByTree} accepts them. */
    private static final class StreamedRequest extends RecordJson.StreamedRecord {
        private long traveller;
        private long origin;
        private long destination;
        private String departure;
        private String requestedAt;
        private long stream = -1;

        @Override
        boolean ownField(String name, JsonToken value, JsonParser json) throws IOException {
            return switch (name) {
                case RecordFields.TRAVELLER -> (traveller = RecordJson.streamedPositiveLong(json, value)) > 0;
                case RecordFields.ORIGIN -> (origin = RecordJson.streamedPositiveLong(json, value)) > 0;
                case RecordFields.DESTINATION -> (destination = RecordJson.streamedPositiveLong(json, value)) > 0;
                case RecordFields.DEPARTURE -> (departure = RecordJson.streamedText(json, value)) != null;
                case RecordFields.REQUESTED_AT -> (requestedAt = RecordJson.streamedText(json, value)) != null;
                case RecordFields.STREAM ->
                    (stream = RecordJson.streamedNonNegativeLong(json, value)) >= 0 && stream <= Integer.MAX_VALUE;
                default -> RecordJson.skipped(json);
            };
        }
    }

    /**
     * The reader of every request the streaming pass does not accept: names the first problem.
     * Each field is checked in the order the record is written in, then the rules between fields.
     */
    static RouteRequestRecord readRequestByTree(byte[] bytes) throws RecordFormatException {
        JsonNode root = RecordJson.tree(bytes);
        RecordJson.version(root);
        long traveller = RecordJson.positiveLong(root, RecordFields.TRAVELLER);
        long origin = RecordJson.positiveLong(root, RecordFields.ORIGIN);
        long destination = RecordJson.positiveLong(root, RecordFields.DESTINATION);
        Instant departure = instant(root, RecordFields.DEPARTURE);
        Instant requestedAt = instant(root, RecordFields.REQUESTED_AT);
        int stream = stream(root);
        long seq = RecordJson.nonNegativeLong(root, RecordFields.SEQ);
        long sent = RecordJson.anyLong(root, RecordFields.SENT_NS);
        long intended = RecordJson.anyLong(root, RecordFields.INTENDED_NS);
        boolean warmup = RecordJson.warmup(root);
        requireDistinct(origin, destination);
        if (departsInThePast(departure, requestedAt)) {
            throw new RecordFormatException("departure in the past: " + departure + " is "
                    + secondsBetween(departure, requestedAt) + " s before " + RecordFields.REQUESTED_AT + " "
                    + requestedAt + " (tolerance " + DEPARTURE_TOLERANCE.toSeconds() + " s)");
        }
        if (departsTooFarAhead(departure, requestedAt)) {
            throw new RecordFormatException("departure too far ahead: " + departure + " is "
                    + secondsBetween(requestedAt, departure) + " s after " + RecordFields.REQUESTED_AT + " "
                    + requestedAt + " (at most " + MAX_DEPARTURE_LEAD.toSeconds() + " s)");
        }
        return new RouteRequestRecord(
                traveller, origin, destination, departure, requestedAt, stream, seq, sent, intended, warmup);
    }

    private static boolean departsInThePast(Instant departure, Instant requestedAt) {
        return departure.isBefore(requestedAt.minus(DEPARTURE_TOLERANCE));
    }

    private static boolean departsTooFarAhead(Instant departure, Instant requestedAt) {
        return departure.isAfter(requestedAt.plus(MAX_DEPARTURE_LEAD));
    }

    /** Reads and validates a route answer (the probe's tests, the demo, and tests of the job read it). */
    public static RouteRecord readRoute(byte[] bytes) throws RecordFormatException {
        JsonNode root = RecordJson.tree(bytes);
        RecordJson.version(root);
        long traveller = RecordJson.positiveLong(root, RecordFields.TRAVELLER);
        int stream = stream(root);
        long seq = RecordJson.nonNegativeLong(root, RecordFields.SEQ);
        long sent = RecordJson.anyLong(root, RecordFields.SENT_NS);
        long intended = RecordJson.anyLong(root, RecordFields.INTENDED_NS);
        long origin = RecordJson.positiveLong(root, RecordFields.ORIGIN);
        long destination = RecordJson.positiveLong(root, RecordFields.DESTINATION);
        Instant departure = instant(root, RecordFields.DEPARTURE);
        RouteOutcome outcome = outcome(root);
        List<Long> route = stations(root);
        double travelTime = travelTime(root);
        long networkVersion = RecordJson.nonNegativeLong(root, RecordFields.NETWORK_VERSION);
        long parse = RecordJson.nonNegativeLong(root, RecordFields.PARSE_NS);
        long routeNs = RecordJson.nonNegativeLong(root, RecordFields.ROUTE_NS);
        boolean warmup = RecordJson.warmup(root);
        requireDistinct(origin, destination);
        if (outcome == RouteOutcome.ROUTED) {
            requireRouteBetween(route, origin, destination);
            if (Double.isNaN(travelTime)) {
                throw new RecordFormatException(field(RecordFields.TRAVEL_TIME_S) + "null, expected the travel time "
                        + "of a route for outcome " + outcome.wire());
            }
            if (!(travelTime >= 0) || travelTime > MAX_TRAVEL_TIME_S) {
                throw new RecordFormatException(field(RecordFields.TRAVEL_TIME_S) + "out of range 0.."
                        + (long) MAX_TRAVEL_TIME_S + ": " + root.get(RecordFields.TRAVEL_TIME_S));
            }
        } else {
            if (!route.isEmpty()) {
                throw new RecordFormatException(field(RecordFields.ROUTE) + "has " + route.size()
                        + " stations, expected none for outcome " + outcome.wire());
            }
            if (!Double.isNaN(travelTime)) {
                throw new RecordFormatException(field(RecordFields.TRAVEL_TIME_S) + "expected null for outcome "
                        + outcome.wire() + ", got " + root.get(RecordFields.TRAVEL_TIME_S));
            }
        }
        return new RouteRecord(
                traveller,
                stream,
                seq,
                sent,
                intended,
                warmup,
                origin,
                destination,
                departure,
                outcome,
                route,
                travelTime,
                networkVersion,
                parse,
                routeNs);
    }

    private static String field(String name) {
        return RecordJson.field(name);
    }

    /** The producer stream: an integer 0 .. 2^31-1, the range the probe keys its sequence checks by. */
    private static int stream(JsonNode root) throws RecordFormatException {
        long stream = RecordJson.anyLong(root, RecordFields.STREAM);
        if (stream < 0 || stream > Integer.MAX_VALUE) {
            throw new RecordFormatException(
                    field(RecordFields.STREAM) + "out of range 0.." + Integer.MAX_VALUE + ": " + stream);
        }
        return (int) stream;
    }

    private static Instant instant(JsonNode root, String name) throws RecordFormatException {
        String text = RecordJson.text(root, name);
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new RecordFormatException(field(name) + "not an ISO-8601 UTC instant: " + root.get(name));
        }
    }

    private static RouteOutcome outcome(JsonNode root) throws RecordFormatException {
        String name = RecordJson.text(root, RecordFields.OUTCOME);
        RouteOutcome outcome = RouteOutcome.ofWire(name);
        if (outcome == null) {
            throw new RecordFormatException(field(RecordFields.OUTCOME) + "unknown outcome "
                    + RecordJson.abbreviate(root.get(RecordFields.OUTCOME)) + ", expected one of "
                    + RouteOutcome.wireNames());
        }
        return outcome;
    }

    /** The route's station ids: an array of positive integers, possibly empty. */
    private static List<Long> stations(JsonNode root) throws RecordFormatException {
        JsonNode node = root.get(RecordFields.ROUTE);
        if (node == null) {
            throw new RecordFormatException(field(RecordFields.ROUTE) + "missing (an array of station ids)");
        }
        if (!node.isArray()) {
            throw new RecordFormatException(
                    field(RecordFields.ROUTE) + "not an array of station ids: " + RecordJson.abbreviate(node));
        }
        List<Long> stations = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            JsonNode element = node.get(i);
            if (!element.isIntegralNumber() || !element.canConvertToLong() || element.asLong() <= 0) {
                throw new RecordFormatException(field(RecordFields.ROUTE) + "[" + i + "] is not a station id "
                        + "(a positive integer): " + RecordJson.abbreviate(element));
            }
            stations.add(element.asLong());
        }
        return stations;
    }

    /** The travel time, or NaN for {@code null}: its presence per outcome is checked by the caller. */
    private static double travelTime(JsonNode root) throws RecordFormatException {
        JsonNode node = root.get(RecordFields.TRAVEL_TIME_S);
        if (node == null) {
            throw new RecordFormatException(
                    field(RecordFields.TRAVEL_TIME_S) + "missing (seconds, or null when not routed)");
        }
        if (node.isNull()) {
            return Double.NaN;
        }
        if (!node.isNumber()) {
            throw new RecordFormatException(
                    field(RecordFields.TRAVEL_TIME_S) + "not a number: " + RecordJson.abbreviate(node));
        }
        // NaN is not JSON (the parser refuses it), so NaN here can only mean null.
        return node.asDouble();
    }

    private static void requireDistinct(long origin, long destination) throws RecordFormatException {
        if (origin == destination) {
            throw new RecordFormatException("same origin and destination: station " + origin);
        }
    }

    private static void requireRouteBetween(List<Long> route, long origin, long destination)
            throws RecordFormatException {
        if (route.size() < 2) {
            throw new RecordFormatException(field(RecordFields.ROUTE) + "has " + route.size()
                    + " stations, expected at least 2 (origin and destination) for outcome "
                    + RouteOutcome.ROUTED.wire());
        }
        if (route.get(0) != origin) {
            throw new RecordFormatException(
                    field(RecordFields.ROUTE) + "starts at station " + route.get(0) + ", not at origin " + origin);
        }
        if (route.get(route.size() - 1) != destination) {
            throw new RecordFormatException(field(RecordFields.ROUTE) + "ends at station " + route.get(route.size() - 1)
                    + ", not at destination " + destination);
        }
    }

    /** {@code null} for NaN (not routed), else the seconds as the advice's {@code route_cost_s} is written. */
    private static void writeTravelTime(JsonGenerator g, double seconds) throws IOException {
        if (Double.isNaN(seconds)) {
            g.writeNullField(RecordFields.TRAVEL_TIME_S);
        } else {
            g.writeNumberField(RecordFields.TRAVEL_TIME_S, seconds);
        }
    }

    /**
     * Whole seconds when whole, else to the millisecond ({@code 60.5}), so that a reason never
     * shows "60 s" for a gap past a 60 s limit.
     */
    private static String secondsBetween(Instant from, Instant to) {
        long millis = Duration.between(from, to).toMillis();
        return millis % 1_000 == 0
                ? Long.toString(millis / 1_000)
                : BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString();
    }
}
