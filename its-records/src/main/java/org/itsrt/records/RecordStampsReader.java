package org.itsrt.records;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import java.io.IOException;

/**
 * Reads the {@link RecordStamps} of a record of its.readings, its.advice or its.predictions
 * (docs/records.md): {@code detector}, {@code seq}, {@code sent_ns}, and where present
 * {@code intended_ns}, {@code parse_ns}, {@code infer_ns}, {@code route_ns}, {@code warmup},
 * {@code degraded}, {@code predicted_flow}.
 * Everything else (flows, speeds, route, prediction) is skipped token by token without being built
 * into objects, so a consumer that measures every record (the latency probe, between two polls)
 * pays little for it. {@link RecordJson} reads and validates whole records; both take the field
 * names from {@link RecordFields}.
 *
 * <p>Checks only what a measurement relies on: a version-{@value ReadingRecord#VERSION} JSON
 * object with integer {@code detector}, {@code 0 <= seq < 2^31-1} and {@code sent_ns}; optional
 * stamps integer or {@code null}, stage durations not negative. A record that fails is rejected
 * with a {@link MalformedRecordException} whose {@linkplain MalformedRecordException#reason()
 * reason} is one of a few categories, so a report can count them. Nothing a record holds makes it
 * throw anything else: a consumer that reads every record of a topic must survive whatever is
 * written there (docs/fuzz.md). Duplicate keys are rejected ("not JSON"), as {@link RecordJson}
 * rejects them, so a record cannot carry two stamps of which each reader would take another.
 */
public final class RecordStampsReader {

    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(RecordJson.MAX_NESTING_DEPTH)
                    .build())
            .build();

    /**
     * The same parser without Jackson's duplicate detection, which keeps a set of every object's
     * names (about a third of what reading an advice allocates). The first pass reads with it and
     * tells duplicates itself from the known field names, which are all a record of those topics
     * holds; a record with any other name or with an object inside is read again with
     * {@link #JSON} (see {@link #read}).
     */
    private static final JsonFactory WITHOUT_DUPLICATE_DETECTION = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(RecordJson.MAX_NESTING_DEPTH)
                    .build())
            .build();

    private static final String VERSION_TEXT = Integer.toString(ReadingRecord.VERSION);

    /**
     * Thrown by the first pass when it cannot tell duplicates itself: the record is read again
     * with Jackson's detection. Never leaves this class; one instance, without a stack trace.
     */
    private static final class NeedsDuplicateDetection extends Exception {
        private static final long serialVersionUID = 1L;
        static final NeedsDuplicateDetection INSTANCE = new NeedsDuplicateDetection();

        private NeedsDuplicateDetection() {
            super(null, null, false, false);
        }
    }

    private RecordStampsReader() {}

    /**
     * Reads the stamps of one record value.
     *
     * @throws MalformedRecordException when the value cannot be measured (see the class comment)
     */
    public static RecordStamps read(byte[] value) throws MalformedRecordException {
        try {
            try {
                return readStamps(value, WITHOUT_DUPLICATE_DETECTION);
            } catch (NeedsDuplicateDetection e) {
                return readWithDuplicateDetection(value);
            }
        } catch (RuntimeException e) {
            // Not expected from Jackson's parser on a byte array; should one occur, the record is
            // still only malformed, never the end of the reader.
            throw new MalformedRecordException("not JSON", "unreadable: " + e);
        }
    }

    /** The one pass with Jackson's duplicate detection: what {@link #read} answers for every record. */
    static RecordStamps readWithDuplicateDetection(byte[] value) throws MalformedRecordException {
        try {
            return readStamps(value, JSON);
        } catch (NeedsDuplicateDetection e) {
            throw new IllegalStateException("the pass with duplicate detection never asks for it", e);
        }
    }

    /**
     * One pass over the record. With {@link #WITHOUT_DUPLICATE_DETECTION} it stops with
     * {@link NeedsDuplicateDetection} at a second occurrence of a name, at a name that is not a
     * field of the records ({@link #fieldBit}) and at any object below the top level, before the
     * parser reads on; until then it has seen only distinct top-level names, so whatever it returns
     * or throws is what the pass with Jackson's detection returns or throws.
     */
    private static RecordStamps readStamps(byte[] value, JsonFactory factory)
            throws MalformedRecordException, NeedsDuplicateDetection {
        boolean detectsDuplicates = factory == JSON;
        int seen = 0;
        long detector = 0;
        long seq = 0;
        long sent = 0;
        boolean hasDetector = false;
        boolean hasSeq = false;
        boolean hasSent = false;
        long intended = RecordStamps.ABSENT;
        long parse = RecordStamps.ABSENT;
        long infer = RecordStamps.ABSENT;
        long route = RecordStamps.ABSENT;
        boolean warmup = false;
        boolean degraded = false;
        double predictedFlow = Double.NaN;
        try (JsonParser json = parser(factory, value)) {
            requireObject(json);
            JsonToken token;
            while ((token = json.nextToken()) == JsonToken.FIELD_NAME) {
                String name = json.currentName();
                if (!detectsDuplicates) {
                    int bit = fieldBit(name);
                    if (bit == 0 || (seen & bit) != 0) {
                        throw NeedsDuplicateDetection.INSTANCE;
                    }
                    seen |= bit;
                }
                JsonToken fieldValue = json.nextToken();
                if (!detectsDuplicates) {
                    requireNoObjectInside(json, fieldValue);
                }
                switch (name) {
                    case RecordFields.VERSION -> requireVersion(json, fieldValue);
                    case RecordFields.DETECTOR -> {
                        detector = required(json, detectsDuplicates, fieldValue, RecordFields.DETECTOR);
                        hasDetector = true;
                    }
                    case RecordFields.SEQ -> {
                        seq = required(json, detectsDuplicates, fieldValue, RecordFields.SEQ);
                        hasSeq = true;
                    }
                    case RecordFields.SENT_NS -> {
                        sent = required(json, detectsDuplicates, fieldValue, RecordFields.SENT_NS);
                        hasSent = true;
                    }
                    case RecordFields.INTENDED_NS ->
                        intended = optional(json, detectsDuplicates, fieldValue, RecordFields.INTENDED_NS, false);
                    case RecordFields.PARSE_NS ->
                        parse = optional(json, detectsDuplicates, fieldValue, RecordFields.PARSE_NS, true);
                    case RecordFields.INFER_NS ->
                        infer = optional(json, detectsDuplicates, fieldValue, RecordFields.INFER_NS, true);
                    case RecordFields.ROUTE_NS ->
                        route = optional(json, detectsDuplicates, fieldValue, RecordFields.ROUTE_NS, true);
                    case RecordFields.WARMUP -> warmup = flag(json, detectsDuplicates, fieldValue, RecordFields.WARMUP);
                    case RecordFields.DEGRADED ->
                        degraded = flag(json, detectsDuplicates, fieldValue, RecordFields.DEGRADED);
                    case RecordFields.PREDICTED_FLOW -> predictedFlow = prediction(json, detectsDuplicates, fieldValue);
                    default -> skip(json, detectsDuplicates);
                }
            }
            requireEnd(json, token);
        } catch (IOException e) {
            throw notJson(e);
        }
        if (!hasDetector) {
            throw missing(RecordFields.DETECTOR);
        }
        if (!hasSeq) {
            throw missing(RecordFields.SEQ);
        }
        requireSeqInRange(seq);
        if (!hasSent) {
            throw missing(RecordFields.SENT_NS);
        }
        return new RecordStamps(detector, seq, sent, intended, parse, infer, route, warmup, degraded, predictedFlow);
    }

    /** A bit of its own for every field name of the records (docs/records.md), 0 for any other name. */
    private static int fieldBit(String name) {
        int index =
                switch (name) {
                    case RecordFields.VERSION -> 0;
                    case RecordFields.DETECTOR -> 1;
                    case RecordFields.SEQ -> 2;
                    case RecordFields.SENT_NS -> 3;
                    case RecordFields.INTENDED_NS -> 4;
                    case RecordFields.WARMUP -> 5;
                    case RecordFields.TS -> 6;
                    case RecordFields.FLOW -> 7;
                    case RecordFields.SPEED -> 8;
                    case RecordFields.PREDICTED_FLOW -> 9;
                    case RecordFields.MODEL -> 10;
                    case RecordFields.ROUTE -> 11;
                    case RecordFields.ROUTE_COST_S -> 12;
                    case RecordFields.PARSE_NS -> 13;
                    case RecordFields.INFER_NS -> 14;
                    case RecordFields.ROUTE_NS -> 15;
                    case RecordFields.DEGRADED -> 16;
                    default -> -1;
                };
        return index < 0 ? 0 : 1 << index;
    }

    /** An object as a field's value: the pass without duplicate detection stops there. */
    private static void requireNoObjectInside(JsonParser json, JsonToken token) throws NeedsDuplicateDetection {
        if (token == JsonToken.START_OBJECT) {
            throw NeedsDuplicateDetection.INSTANCE;
        }
    }

    /**
     * Skips the current value, as {@link JsonParser#skipChildren()}; without duplicate detection,
     * token by token, stopping at an object inside an array (whose names it would not check).
     */
    private static void skip(JsonParser json, boolean detectsDuplicates) throws IOException, NeedsDuplicateDetection {
        if (detectsDuplicates || json.currentToken() != JsonToken.START_ARRAY) {
            json.skipChildren();
            return;
        }
        int depth = 1;
        while (depth > 0) {
            JsonToken token = json.nextToken();
            if (token == null) {
                return;
            }
            switch (token) {
                case START_OBJECT -> throw NeedsDuplicateDetection.INSTANCE;
                case START_ARRAY -> depth++;
                case END_ARRAY -> depth--;
                default -> {}
            }
        }
    }

    /** A parser of a record's value, which it must have. */
    static JsonParser parser(JsonFactory factory, byte[] value) throws IOException, MalformedRecordException {
        if (value == null || value.length == 0) {
            throw new MalformedRecordException("empty value", "the record has no value");
        }
        return factory.createParser(value);
    }

    /** The record's first token: the start of an object. */
    static void requireObject(JsonParser json) throws IOException, MalformedRecordException {
        if (json.nextToken() != JsonToken.START_OBJECT) {
            throw new MalformedRecordException("not a JSON object", "the value is not a JSON object");
        }
    }

    /** {@code v}: the integer {@value ReadingRecord#VERSION}, as {@link RecordJson} reads it. */
    static void requireVersion(JsonParser json, JsonToken token) throws IOException, MalformedRecordException {
        if (!RecordJson.isVersion(json, token)) {
            throw new MalformedRecordException(
                    "unsupported version",
                    "\"" + RecordFields.VERSION + "\" is " + json.getText() + ", expected " + VERSION_TEXT);
        }
    }

    /** Where the pass over the object's fields stopped: at the object's end, with nothing after it. */
    static void requireEnd(JsonParser json, JsonToken token) throws IOException, MalformedRecordException {
        if (token != JsonToken.END_OBJECT) {
            throw new MalformedRecordException("not JSON", "the object is not closed");
        }
        if (json.nextToken() != null) {
            throw new MalformedRecordException("not JSON", "content after the JSON object");
        }
    }

    /** What the parser could not read. Parsing a byte array does no I/O: any IOException is a bad record. */
    static MalformedRecordException notJson(IOException e) {
        return new MalformedRecordException(
                "not JSON",
                e instanceof JsonProcessingException parse
                        ? parse.getOriginalMessage()
                        : String.valueOf(e.getMessage()));
    }

    /** Below 2^31-1 because the probe tracks sequence numbers per detector or stream in int-indexed sets. */
    static void requireSeqInRange(long seq) throws MalformedRecordException {
        if (seq < 0 || seq >= Integer.MAX_VALUE) {
            throw new MalformedRecordException(
                    "invalid " + RecordFields.SEQ,
                    "\"" + RecordFields.SEQ + "\" is " + seq + ", expected 0 .. " + (Integer.MAX_VALUE - 1));
        }
    }

    static MalformedRecordException missing(String field) {
        return new MalformedRecordException("missing " + field, "no \"" + field + "\" field");
    }

    private static long required(JsonParser json, boolean detectsDuplicates, JsonToken token, String field)
            throws IOException, MalformedRecordException, NeedsDuplicateDetection {
        if (token != JsonToken.VALUE_NUMBER_INT) {
            skip(json, detectsDuplicates);
            throw notAnInteger(json, token, field);
        }
        return longValue(json, field);
    }

    private static long optional(
            JsonParser json, boolean detectsDuplicates, JsonToken token, String field, boolean duration)
            throws IOException, MalformedRecordException, NeedsDuplicateDetection {
        if (token == JsonToken.VALUE_NULL) {
            return RecordStamps.ABSENT;
        }
        return present(required(json, detectsDuplicates, token, field), field, duration);
    }

    /**
     * An optional stamp's value, when present: a duration not negative, and never the value that
     * stands for an absent stamp.
     */
    static long present(long value, String field, boolean duration) throws MalformedRecordException {
        if (duration && value < 0) {
            throw new MalformedRecordException(
                    "invalid " + field, "\"" + field + "\" is " + value + ", a duration cannot be negative");
        }
        if (value == RecordStamps.ABSENT) {
            throw new MalformedRecordException("invalid " + field, "\"" + field + "\" is out of range");
        }
        return value;
    }

    /** A boolean field: {@code true} or {@code false}, nothing else (as {@link RecordJson} reads it). */
    private static boolean flag(JsonParser json, boolean detectsDuplicates, JsonToken token, String field)
            throws IOException, MalformedRecordException, NeedsDuplicateDetection {
        if (token == JsonToken.VALUE_TRUE) {
            return true;
        }
        if (token == JsonToken.VALUE_FALSE) {
            return false;
        }
        skip(json, detectsDuplicates);
        throw notABoolean(json, token, field);
    }

    /**
     * {@code predicted_flow}: a finite number, or {@link Double#NaN} for anything else. No measurement of
     * time relies on it, so a prediction the probe cannot read costs the record nothing but its
     * place in an accuracy comparison, which counts such records apart; {@link RecordJson} is the
     * reader that validates a prediction's range.
     */
    private static double prediction(JsonParser json, boolean detectsDuplicates, JsonToken token)
            throws IOException, NeedsDuplicateDetection {
        if (token == JsonToken.VALUE_NUMBER_FLOAT || token == JsonToken.VALUE_NUMBER_INT) {
            double value = json.getDoubleValue();
            return Double.isFinite(value) ? value : Double.NaN;
        }
        skip(json, detectsDuplicates);
        return Double.NaN;
    }

    static MalformedRecordException notABoolean(JsonParser json, JsonToken token, String field) throws IOException {
        return new MalformedRecordException(
                "invalid " + field, "\"" + field + "\" is " + describe(json, token) + ", expected true or false");
    }

    static long longValue(JsonParser json, String field) throws IOException, MalformedRecordException {
        try {
            return json.getLongValue();
        } catch (InputCoercionException e) {
            throw new MalformedRecordException(
                    "invalid " + field, "\"" + field + "\" is " + json.getText() + ", out of range");
        }
    }

    private static MalformedRecordException notAnInteger(JsonParser json, JsonToken token, String field)
            throws IOException {
        return new MalformedRecordException(
                "invalid " + field, "\"" + field + "\" is " + describe(json, token) + ", expected an integer");
    }

    static String describe(JsonParser json, JsonToken token) throws IOException {
        return switch (token) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "the string \"" + json.getText() + "\"";
            default -> json.getText();
        };
    }
}
