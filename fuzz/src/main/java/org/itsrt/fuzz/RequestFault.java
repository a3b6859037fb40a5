package org.itsrt.fuzz;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.itsrt.records.RecordJson;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.records.RouteRequestRecord;

/**
 * The catalogue of hostile or unusual route requests a district campaign sends (docs/fuzz.md,
 * "District campaign"), one fault per constant: the rule of docs/records.md's
 * {@code its.route-requests} table it exercises, what the job must make of it (a dead letter whose
 * reason has the given category, {@link org.itsrt.records.DeadLetterHeaders#category}, or, for an
 * edge case the format accepts, an answer like any valid request), and the mutation that turns a
 * valid request into it.
 *
 * <p>A rejected fault is built from the request the next valid one will be ({@code stream} and
 * {@code seq} included): accepted by mistake, its answer would be a second answer of that
 * {@code (stream, seq)}, or an answer of a route the clean run never asked for, and the report
 * would show it. An accepted fault is a valid request in a form the format accepts; it takes a
 * valid request's place and is sent in the clean run too, byte for byte.
 */
public enum RequestFault {
    NOT_JSON(
            "not JSON",
            "not JSON",
            "not valid JSON",
            false,
            d -> d.utf8("from " + d.request().origin() + " to " + d.request().destination() + ", seq "
                    + d.request().seq())),
    TRUNCATED_JSON("truncated JSON", "cut off", "truncated JSON", false, d -> d.utf8(d.truncated())),
    NOT_AN_OBJECT(
            "a JSON array",
            "not an object",
            "not a JSON object",
            false,
            d -> d.utf8("[" + d.request().origin() + "," + d.request().destination() + "]")),
    NOT_UTF8("invalid UTF-8 in a valid request", "not UTF-8", "not UTF-8", false, Draft::invalidUtf8),
    EMPTY_VALUE("empty value (0 bytes)", "0 bytes", "empty record", false, d -> new byte[0]),
    NULL_VALUE("no value (null)", "no value", "record has no value", false, d -> null),
    TOO_LARGE(
            "300 kB request",
            "more than 256 KiB",
            "record too large",
            true,
            d -> d.padded(RecordJson.MAX_RECORD_BYTES + 44 * 1024)),
    NESTED_TOO_DEEP(
            "JSON nested 100 levels deep",
            "nested deeper than 16",
            "JSON nested too deep",
            false,
            d -> d.json(",\"x\":" + "[".repeat(100) + "]".repeat(100))),
    DUPLICATE_KEY(
            "duplicate key (destination twice)",
            "a key twice",
            "duplicate field",
            false,
            d -> d.replace(
                    "\"destination\":" + d.request().destination(),
                    "\"destination\":" + d.request().destination() + ",\"destination\":"
                            + d.request().origin())),
    NON_FINITE(
            "NaN origin",
            "NaN/Infinity",
            "non-finite number",
            false,
            d -> d.replace("\"origin\":" + d.request().origin(), "\"origin\":NaN")),
    WRONG_VERSION("wrong version (v=2)", "v not 1", "field v", false, d -> d.replace("\"v\":1", "\"v\":2")),
    MISSING_FIELD(
            "missing field (destination)",
            "a field missing",
            "field destination",
            false,
            d -> d.replace(",\"destination\":" + d.request().destination(), "")),
    WRONG_TYPE(
            "wrong type (origin as a string)",
            "a field of another type",
            "field origin",
            false,
            d -> d.replace(
                    "\"origin\":" + d.request().origin(),
                    "\"origin\":\"" + d.request().origin() + "\"")),
    BEYOND_64_BITS(
            "destination beyond 64 bits",
            "an integer beyond 64 bits",
            "field destination",
            false,
            d -> d.replace("\"destination\":" + d.request().destination(), "\"destination\":18446744073709551616")),
    TRAVELLER_NOT_POSITIVE(
            "traveller 0",
            "traveller, origin or destination <= 0",
            "field traveller",
            false,
            d -> d.rebuilt(b -> b.traveller(0))),
    ORIGIN_NEGATIVE(
            "negative origin",
            "traveller, origin or destination <= 0",
            "field origin",
            false,
            d -> d.rebuilt(b -> b.origin(-d.request().origin()))),
    SEQ_NEGATIVE(
            "negative seq",
            "seq < 0",
            "field seq",
            false,
            d -> d.rebuilt(b -> b.seq(-1 - d.request().seq()))),
    STREAM_OUT_OF_RANGE(
            "stream 2^31",
            "stream outside 0..2^31-1",
            "field stream",
            false,
            d -> d.replace("\"stream\":" + d.request().stream(), "\"stream\":2147483648")),
    DEPARTURE_WITHOUT_ZONE(
            "departure without a zone",
            "departure not an ISO-8601 UTC instant",
            "field departure",
            false,
            d -> d.replace(
                    "\"departure\":\"" + d.request().departure() + "\"",
                    "\"departure\":\"" + d.request().departure().toString().replace("Z", "") + "\"")),
    REQUESTED_AT_NOT_INSTANT(
            "requested_at \"tomorrow\"",
            "requested_at not an ISO-8601 UTC instant",
            "field requested_at",
            false,
            d -> d.replace("\"requested_at\":\"" + d.request().requestedAt() + "\"", "\"requested_at\":\"tomorrow\"")),
    WARMUP_NOT_BOOLEAN(
            "warmup \"yes\"", "warmup not a boolean", "field warmup", false, d -> d.json(",\"warmup\":\"yes\"")),
    SAME_ORIGIN_DESTINATION(
            "same origin and destination",
            "origin = destination",
            "same origin and destination",
            false,
            d -> d.rebuilt(b -> b.destination(d.request().origin()))),
    DEPARTURE_IN_PAST(
            "departure 1 s past the tolerance",
            "departure more than 60 s before requested_at",
            "departure in the past",
            false,
            d -> d.rebuilt(b -> b.departure(d.request()
                    .requestedAt()
                    .minus(RouteRecordJson.DEPARTURE_TOLERANCE)
                    .minusSeconds(1)))),
    DEPARTURE_TOO_FAR(
            "departure 1 s past 24 h ahead",
            "departure more than 24 h after requested_at",
            "departure too far ahead",
            false,
            d -> d.rebuilt(b -> b.departure(d.request()
                    .requestedAt()
                    .plus(RouteRecordJson.MAX_DEPARTURE_LEAD)
                    .plusSeconds(1)))),
    UNKNOWN_ORIGIN(
            "origin not in the routing graph",
            "a station not in the routing graph (the job's check)",
            "unknown station",
            false,
            d -> d.rebuilt(b -> b.origin(d.unknownStation()))),
    UNKNOWN_DESTINATION(
            "destination not in the routing graph",
            "a station not in the routing graph (the job's check)",
            "unknown station",
            false,
            d -> d.rebuilt(b -> b.destination(d.unknownStation()))),
    DEPARTURE_AT_TOLERANCE(
            "departure exactly 60 s before requested_at (accepted)",
            "departure more than 60 s before requested_at: the limit itself",
            null,
            false,
            d -> d.rebuilt(b -> b.departure(d.request().requestedAt().minus(RouteRecordJson.DEPARTURE_TOLERANCE)))),
    DEPARTURE_AT_MAX_LEAD(
            "departure exactly 24 h ahead (accepted)",
            "departure more than 24 h after requested_at: the limit itself",
            null,
            false,
            d -> d.rebuilt(b -> b.departure(d.request().requestedAt().plus(RouteRecordJson.MAX_DEPARTURE_LEAD)))),
    FAR_APART(
            "origin and destination the graph's lowest and highest ids (accepted)",
            "origin and destination: any two stations of the graph",
            null,
            false,
            d -> d.rebuilt(b -> b.origin(d.stations()[0]).destination(d.stations()[d.stations().length - 1]))),
    TRAVELLER_MAX(
            "traveller 2^63-1 (accepted)",
            "traveller: a positive id, up to 64 bits",
            null,
            false,
            d -> d.rebuilt(b -> b.traveller(Long.MAX_VALUE))),
    TRAVELLER_ONE(
            "traveller 1 (accepted)", "traveller: a positive id", null, false, d -> d.rebuilt(b -> b.traveller(1))),
    REQUESTED_LONG_AGO(
            "requested_at in 2001, departure with it (accepted)",
            "requested_at far from the job's clock",
            null,
            false,
            d -> d.rebuilt(b -> b.requestedAt(Instant.parse("2001-09-09T01:46:40Z"))
                    .departure(Instant.parse("2001-09-09T02:00:00Z")))),
    NANOSECOND_INSTANTS(
            "instants to the nanosecond (accepted)",
            "departure, requested_at: ISO-8601 UTC with any fraction",
            null,
            false,
            d -> d.rebuilt(b -> b.requestedAt(d.request().requestedAt().plusNanos(123_456_789))
                    .departure(d.request().departure().plusNanos(987_654_321)))),
    EXTRA_FIELDS(
            "extra unknown fields (accepted)",
            "unknown fields are ignored",
            null,
            false,
            d -> d.json(",\"mode\":\"car\",\"client\":{\"app\":\"its\",\"tags\":[\"beta\",null]}"));

    /**
     * Turns a valid request into the fault's record value: the bytes sent, null for a record with
     * no value.
     */
    @FunctionalInterface
    interface Mutation {
        byte[] apply(Draft draft);
    }

    private final String label;
    private final String rule;
    private final String reasonCategory;
    private final boolean large;
    private final Mutation mutation;

    RequestFault(String label, String rule, String reasonCategory, boolean large, Mutation mutation) {
        this.label = label;
        this.rule = rule;
        this.reasonCategory = reasonCategory;
        this.large = large;
        this.mutation = mutation;
    }

    /** What the report calls it. */
    public String label() {
        return label;
    }

    /** The rule of docs/records.md ("What a reader rejects", or the job's check) it exercises. */
    public String rule() {
        return rule;
    }

    /** Whether the job must accept it as a request and answer it. */
    public boolean accepted() {
        return reasonCategory == null;
    }

    /** The category the dead letter's reason must have; null for an accepted fault. */
    public String reasonCategory() {
        return reasonCategory;
    }

    /** A record of 100 kB and more: one per thousand requests, at least one (as {@link FuzzKind#large}). */
    public boolean large() {
        return large;
    }

    /** The fault's value, made from {@code draft}'s valid request. */
    public byte[] mutate(Draft draft) {
        return mutation.apply(draft);
    }

    /**
     * A valid request about to be mutated, with what a mutation may draw on: its JSON, the routing
     * graph's stations (sorted) and the campaign's random source.
     */
    public record Draft(RouteRequestRecord request, long[] stations, java.util.Random random) {

        String text() {
            return new String(RouteRecordJson.write(request), StandardCharsets.UTF_8);
        }

        byte[] utf8(String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }

        /** The request's JSON with {@code target} replaced; fails if it is not there, so a mutation cannot miss. */
        byte[] replace(String target, String replacement) {
            String json = text();
            if (!json.contains(target)) {
                throw new IllegalStateException("no " + target + " in " + json);
            }
            return utf8(json.replace(target, replacement));
        }

        /** The request's JSON with {@code members} (",name:value...") added before its closing brace. */
        byte[] json(String members) {
            String json = text();
            return utf8(json.substring(0, json.length() - 1) + members + "}");
        }

        /** The request with fields changed, written as a valid writer writes it. */
        byte[] rebuilt(java.util.function.UnaryOperator<RouteRequestRecord.Builder> change) {
            RouteRequestRecord r = request;
            return RouteRecordJson.write(change.apply(RouteRequestRecord.builder()
                            .traveller(r.traveller())
                            .origin(r.origin())
                            .destination(r.destination())
                            .departure(r.departure())
                            .requestedAt(r.requestedAt())
                            .stream(r.stream())
                            .seq(r.seq())
                            .sentNs(r.sentNs())
                            .intendedNs(r.intendedNs())
                            .warmup(r.warmup()))
                    .build());
        }

        /** Cut right after a comma, so the record always ends inside its object. */
        String truncated() {
            String json = text();
            List<Integer> commas = new ArrayList<>();
            for (int i = 0; i < json.length(); i++) {
                if (json.charAt(i) == ',') {
                    commas.add(i + 1);
                }
            }
            return json.substring(0, commas.get(random.nextInt(commas.size())));
        }

        byte[] invalidUtf8() {
            String json = text();
            byte[] bytes = utf8(json);
            int at = json.indexOf("\"departure\":\"") + "\"departure\":\"".length();
            bytes[at] = (byte) 0xC3;
            bytes[at + 1] = (byte) 0x28;
            return bytes;
        }

        byte[] padded(int size) {
            String json = text();
            String head = json.substring(0, json.length() - 1) + ",\"pad\":\"";
            return utf8(head + "x".repeat(Math.max(0, size - head.length() - 2)) + "\"}");
        }

        /** A positive id that is no station of the graph: a plausible VDS id, or one near 2^63. */
        long unknownStation() {
            long id;
            do {
                id = random.nextBoolean() ? Long.MAX_VALUE - random.nextInt(1000) : 100_000 + random.nextInt(900_000);
            } while (java.util.Arrays.binarySearch(stations, id) >= 0);
            return id;
        }
    }
}
