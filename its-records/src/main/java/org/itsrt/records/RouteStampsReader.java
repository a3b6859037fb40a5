package org.itsrt.records;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;

/**
 * Reads the {@link RouteStamps} of a route request or answer (docs/records.md): {@code stream},
 * {@code seq}, {@code traveller}, {@code sent_ns}, and where present {@code intended_ns},
 * {@code parse_ns}, {@code route_ns}, {@code warmup} and {@code outcome}. The route and the
 * stations are skipped token by token without being built, as {@link RecordStampsReader} skips a
 * reading's flows; {@link RouteRecordJson} reads and validates whole records.
 *
 * <p>Checks what a measurement relies on, with {@link RecordStampsReader}'s categories: a
 * version-{@value ReadingRecord#VERSION} JSON object with integer {@code traveller},
 * {@code 0 <= stream <= 2^31-1}, {@code 0 <= seq < 2^31-1} and {@code sent_ns}; optional stamps
 * integer or {@code null}, durations not negative, {@code warmup} a boolean, {@code outcome} one of
 * {@link RouteOutcome}'s names. Whatever the bytes, it throws nothing but a
 * {@link MalformedRecordException}. It parses with Jackson's duplicate detection in one pass:
 * answers come at the rate travellers ask, and the first pass without it that
 * {@link RecordStampsReader} makes for the readings' rate is not worth its code here until a
 * measurement says otherwise.
 */
public final class RouteStampsReader {

    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(RecordJson.MAX_NESTING_DEPTH)
                    .build())
            .build();

    private RouteStampsReader() {}

    /**
     * Reads the stamps of one record value of {@code its.routes} or {@code its.route-requests}.
     *
     * @throws MalformedRecordException when the value cannot be measured (see the class comment)
     */
    public static RouteStamps read(byte[] value) throws MalformedRecordException {
        try {
            return readStamps(value);
        } catch (RuntimeException e) {
            // As in RecordStampsReader: a bad record is only malformed, never the end of the reader.
            throw new MalformedRecordException("not JSON", "unreadable: " + e);
        }
    }

    private static RouteStamps readStamps(byte[] value) throws MalformedRecordException {
        long stream = 0;
        long seq = 0;
        long traveller = 0;
        long sent = 0;
        boolean hasStream = false;
        boolean hasSeq = false;
        boolean hasTraveller = false;
        boolean hasSent = false;
        long intended = RecordStamps.ABSENT;
        long parse = RecordStamps.ABSENT;
        long route = RecordStamps.ABSENT;
        boolean warmup = false;
        RouteOutcome outcome = null;
        try (JsonParser json = RecordStampsReader.parser(JSON, value)) {
            RecordStampsReader.requireObject(json);
            JsonToken token;
            while ((token = json.nextToken()) == JsonToken.FIELD_NAME) {
                String name = json.currentName();
                JsonToken fieldValue = json.nextToken();
                switch (name) {
                    case RecordFields.VERSION -> RecordStampsReader.requireVersion(json, fieldValue);
                    case RecordFields.STREAM -> {
                        stream = required(json, fieldValue, RecordFields.STREAM);
                        hasStream = true;
                    }
                    case RecordFields.SEQ -> {
                        seq = required(json, fieldValue, RecordFields.SEQ);
                        hasSeq = true;
                    }
                    case RecordFields.TRAVELLER -> {
                        traveller = required(json, fieldValue, RecordFields.TRAVELLER);
                        hasTraveller = true;
                    }
                    case RecordFields.SENT_NS -> {
                        sent = required(json, fieldValue, RecordFields.SENT_NS);
                        hasSent = true;
                    }
                    case RecordFields.INTENDED_NS ->
                        intended = optional(json, fieldValue, RecordFields.INTENDED_NS, false);
                    case RecordFields.PARSE_NS -> parse = optional(json, fieldValue, RecordFields.PARSE_NS, true);
                    case RecordFields.ROUTE_NS -> route = optional(json, fieldValue, RecordFields.ROUTE_NS, true);
                    case RecordFields.WARMUP -> warmup = flag(json, fieldValue);
                    case RecordFields.OUTCOME -> outcome = outcome(json, fieldValue);
                    default -> json.skipChildren();
                }
            }
            RecordStampsReader.requireEnd(json, token);
        } catch (IOException e) {
            throw RecordStampsReader.notJson(e);
        }
        if (!hasStream) {
            throw RecordStampsReader.missing(RecordFields.STREAM);
        }
        if (!hasSeq) {
            throw RecordStampsReader.missing(RecordFields.SEQ);
        }
        if (!hasTraveller) {
            throw RecordStampsReader.missing(RecordFields.TRAVELLER);
        }
        if (!hasSent) {
            throw RecordStampsReader.missing(RecordFields.SENT_NS);
        }
        if (stream < 0 || stream > Integer.MAX_VALUE) {
            throw new MalformedRecordException(
                    "invalid " + RecordFields.STREAM,
                    "\"" + RecordFields.STREAM + "\" is " + stream + ", expected 0 .. " + Integer.MAX_VALUE);
        }
        RecordStampsReader.requireSeqInRange(seq);
        return new RouteStamps((int) stream, seq, traveller, sent, intended, parse, route, warmup, outcome);
    }

    private static long required(JsonParser json, JsonToken token, String field)
            throws IOException, MalformedRecordException {
        if (token != JsonToken.VALUE_NUMBER_INT) {
            json.skipChildren();
            throw notAnInteger(json, token, field);
        }
        return RecordStampsReader.longValue(json, field);
    }

    private static long optional(JsonParser json, JsonToken token, String field, boolean duration)
            throws IOException, MalformedRecordException {
        if (token == JsonToken.VALUE_NULL) {
            return RecordStamps.ABSENT;
        }
        return RecordStampsReader.present(required(json, token, field), field, duration);
    }

    private static boolean flag(JsonParser json, JsonToken token) throws IOException, MalformedRecordException {
        if (token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE) {
            return token == JsonToken.VALUE_TRUE;
        }
        json.skipChildren();
        throw RecordStampsReader.notABoolean(json, token, RecordFields.WARMUP);
    }

    private static RouteOutcome outcome(JsonParser json, JsonToken token) throws IOException, MalformedRecordException {
        RouteOutcome outcome = token == JsonToken.VALUE_STRING ? RouteOutcome.ofWire(json.getText()) : null;
        if (outcome == null) {
            json.skipChildren();
            throw new MalformedRecordException(
                    "invalid " + RecordFields.OUTCOME,
                    "\"" + RecordFields.OUTCOME + "\" is " + RecordStampsReader.describe(json, token)
                            + ", expected one of " + RouteOutcome.wireNames());
        }
        return outcome;
    }

    private static MalformedRecordException notAnInteger(JsonParser json, JsonToken token, String field)
            throws IOException {
        return new MalformedRecordException(
                "invalid " + field,
                "\"" + field + "\" is " + RecordStampsReader.describe(json, token) + ", expected an integer");
    }
}
