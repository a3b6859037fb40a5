package org.itsrt.records;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * JSON of the D2 records (docs/records.md): the codec of readings, advice and predictions, whole.
 * Writing streams fields in a fixed order; reading checks everything a consumer relies on and
 * names the first problem, so a bad record can be dead-lettered with a reason instead of failing
 * the reader. Field names come from {@link RecordFields}; a reader that needs only the identity
 * and the stamps, at the rate the probe polls, uses {@link RecordStampsReader} instead.
 *
 * <p>Every rejection's message has the form {@code CATEGORY: detail}, where the category names the
 * field or the kind of parse error ({@link DeadLetterHeaders#category}); the edge cases and why
 * each is rejected or accepted: docs/records.md, "What a reader rejects".
 */
public final class RecordJson {

    /** Flows above this (veh/5 min over all lanes of one station) are not traffic but a fault. */
    public static final double MAX_FLOW = 2_000;
    /** Speeds above this (mph) are a fault. */
    public static final double MAX_SPEED = 120;

    /**
     * Records larger than this are rejected before they are parsed. A reading is about 300 bytes;
     * the limit leaves room for fields a later version may add (which this version ignores) while
     * keeping what one bad record can cost the job small.
     */
    public static final int MAX_RECORD_BYTES = 256 * 1024;

    /**
     * Objects and arrays nest at most this deep. A reading nests two levels; Jackson's own
     * default (1,000) would let a record make the parser recurse far deeper than any record needs.
     */
    public static final int MAX_NESTING_DEPTH = 16;

    /**
     * Duplicate keys are an error, not "last one wins": two different {@code seq} values in one
     * record cannot both be the reading's. Non-numeric numbers (NaN, Infinity) and trailing
     * content after the object are errors too (Jackson's defaults, written out).
     */
    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_NESTING_DEPTH)
                            .maxDocumentLength(MAX_RECORD_BYTES)
                            .maxStringLength(MAX_RECORD_BYTES)
                            .build())
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            // Reads a number with a fraction (the speeds) without a String and the JDK's decimal
            // conversion each; correctly rounded like Double.parseDouble, so every value is the same.
            .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private static final JsonFactory FACTORY = MAPPER.getFactory();

    private RecordJson() {}

    public static byte[] write(ReadingRecord r) {
        return writeObject(g -> {
            g.writeNumberField(RecordFields.VERSION, ReadingRecord.VERSION);
            g.writeNumberField(RecordFields.DETECTOR, r.detector());
            g.writeStringField(RecordFields.TS, r.ts().toString());
            writeArray(g, RecordFields.FLOW, r.flow());
            writeArray(g, RecordFields.SPEED, r.speed());
            g.writeNumberField(RecordFields.SEQ, r.seq());
            g.writeNumberField(RecordFields.SENT_NS, r.sentNs());
            g.writeNumberField(RecordFields.INTENDED_NS, r.intendedNs());
            writeWarmup(g, r.warmup());
        });
    }

    public static byte[] write(AdviceRecord a) {
        return writeObject(g -> {
            g.writeNumberField(RecordFields.VERSION, ReadingRecord.VERSION);
            g.writeNumberField(RecordFields.DETECTOR, a.detector());
            g.writeNumberField(RecordFields.SEQ, a.seq());
            g.writeNumberField(RecordFields.SENT_NS, a.sentNs());
            g.writeNumberField(RecordFields.INTENDED_NS, a.intendedNs());
            g.writeNumberField(RecordFields.PREDICTED_FLOW, a.predictedFlow());
            g.writeStringField(RecordFields.MODEL, a.model());
            g.writeArrayFieldStart(RecordFields.ROUTE);
            for (long node : a.route()) {
                g.writeNumber(node);
            }
            g.writeEndArray();
            g.writeNumberField(RecordFields.ROUTE_COST_S, a.routeCostS());
            g.writeNumberField(RecordFields.PARSE_NS, a.parseNs());
            g.writeNumberField(RecordFields.INFER_NS, a.inferNs());
            g.writeNumberField(RecordFields.ROUTE_NS, a.routeNs());
            writeWarmup(g, a.warmup());
            writeDegraded(g, a.degraded());
        });
    }

    public static byte[] write(PredictionRecord p) {
        return writeObject(g -> {
            g.writeNumberField(RecordFields.VERSION, ReadingRecord.VERSION);
            g.writeNumberField(RecordFields.DETECTOR, p.detector());
            g.writeStringField(RecordFields.TS, p.ts().toString());
            g.writeNumberField(RecordFields.SEQ, p.seq());
            g.writeNumberField(RecordFields.SENT_NS, p.sentNs());
            g.writeNumberField(RecordFields.INTENDED_NS, p.intendedNs());
            g.writeNumberField(RecordFields.PREDICTED_FLOW, p.predictedFlow());
            g.writeStringField(RecordFields.MODEL, p.model());
            g.writeNumberField(RecordFields.PARSE_NS, p.parseNs());
            g.writeNumberField(RecordFields.INFER_NS, p.inferNs());
            writeWarmup(g, p.warmup());
            writeDegraded(g, p.degraded());
        });
    }

    /** The fields of one object, written by {@link #writeObject}. */
    @FunctionalInterface
    interface ObjectFields {
        void write(JsonGenerator g) throws IOException;
    }

    /**
     * One JSON object as bytes. Written into a buffer of Jackson's buffer recycler, as
     * {@code ObjectMapper.writeValueAsBytes} does, instead of a new stream per record that grows
     * (an advice is about 290 bytes) and is copied once more at the end.
     */
    static byte[] writeObject(ObjectFields fields) {
        BufferRecycler recycler = FACTORY._getBufferRecycler();
        try (ByteArrayBuilder out = new ByteArrayBuilder(recycler)) {
            try (JsonGenerator g = FACTORY.createGenerator(out)) {
                g.writeStartObject();
                fields.write(g);
                g.writeEndObject();
            }
            return out.getClearAndRelease();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            recycler.releaseToPool();
        }
    }

    /**
     * Reads and validates a reading record; the exception's message is the dead-letter reason.
     *
     * <p>Two readers, one verdict. A valid reading, the job's every record, is read in one pass
     * over the parser's tokens straight into the record ({@link #streamValidReading}), without the
     * tree of about 30 nodes and a map the tree reader builds. That pass only accepts: at the first
     * thing it does not expect it gives up, and the tree reader ({@link #readReadingByTree}) reads
     * the record again and names the problem, so every rejection and its reason stay defined in one
     * place, in the order docs/records.md gives, and a bad record costs two parses instead of one.
     */
    public static ReadingRecord readReading(byte[] bytes) throws RecordFormatException {
        requireSizeAndUtf8(bytes);
        ReadingRecord reading = streamValidReading(bytes);
        return reading != null ? reading : readReadingByTree(bytes);
    }

    /**
     * The reading, when the record is one the tree reader accepts too; {@code null} when it is not,
     * or when this pass cannot tell (the tree reader decides then); called once size and encoding
     * are checked. What it checks after the parser ({@link StreamedRecord}) is every field rule of
     * {@link #readReadingByTree}, as an acceptance test (RecordJsonStreamingTest holds both to that).
     */
    static ReadingRecord streamValidReading(byte[] bytes) {
        StreamedReading r = new StreamedReading();
        if (!r.read(bytes) || r.detector <= 0 || r.flow == null || r.speed == null) {
            return null;
        }
        Instant ts = streamedInstant(r.ts);
        if (ts == null) {
            return null;
        }
        return new ReadingRecord(r.detector, ts, r.flow, r.speed, r.seq(), r.sentNs(), r.intendedNs(), r.warmup());
    }

    /** A reading's own fields, as {@link #readReadingByTree} accepts them. */
    private static final class StreamedReading extends StreamedRecord {
        private long detector;
        private String ts;
        private double[] flow;
        private double[] speed;

        @Override
        boolean ownField(String name, JsonToken value, JsonParser json) throws IOException {
            return switch (name) {
                case RecordFields.DETECTOR -> (detector = streamedPositiveLong(json, value)) > 0;
                case RecordFields.TS -> (ts = streamedText(json, value)) != null;
                case RecordFields.FLOW -> (flow = streamVector(json, value, false, MAX_FLOW)) != null;
                case RecordFields.SPEED -> (speed = streamVector(json, value, true, MAX_SPEED)) != null;
                default -> skipped(json);
            };
        }
    }

    /**
     * One streaming pass over a record, for a reader whose tree reader names every problem
     * ({@link #readReading}, {@link RouteRecordJson#readRequest}). The pass only accepts: at the
     * first thing its tree reader might reject it gives up, and the tree reader reads the record
     * again. It parses with the tree reader's factory, so the same limits, duplicate-key detection
     * and number handling apply. The fields every such record has ({@code v}, {@code seq}, the
     * stamps and {@code warmup}) are read here, each by the tree reader's rule; a subclass reads
     * the record kind's own fields and skips unknown ones. Its values are read once the pass has
     * accepted: those of fields a record lacks are left at values no accepted field has (0 for a
     * positive integer, -1 for a non-negative one, null), for the subclass's caller to test.
     */
    abstract static class StreamedRecord {
        private boolean hasVersion;
        private long seq = -1;
        private boolean hasSentNs;
        private long sentNs;
        private boolean hasIntendedNs;
        private long intendedNs;
        private boolean warmup;

        /**
         * Whether the record is one JSON object, nothing after it, whose every field is accepted
         * and which has all the shared fields but the optional {@code warmup}.
         */
        final boolean read(byte[] bytes) {
            try (JsonParser json = FACTORY.createParser(bytes)) {
                if (json.nextToken() != JsonToken.START_OBJECT) {
                    return false;
                }
                JsonToken token;
                while ((token = json.nextToken()) == JsonToken.FIELD_NAME) {
                    String name = json.currentName();
                    if (!field(name, json.nextToken(), json)) {
                        return false;
                    }
                }
                // FAIL_ON_TRAILING_TOKENS of the tree reader: nothing may follow the object.
                if (token != JsonToken.END_OBJECT || json.nextToken() != null) {
                    return false;
                }
            } catch (IOException e) {
                return false;
            }
            return hasVersion && seq >= 0 && hasSentNs && hasIntendedNs;
        }

        private boolean field(String name, JsonToken value, JsonParser json) throws IOException {
            return switch (name) {
                case RecordFields.VERSION -> hasVersion = isVersion(json, value);
                case RecordFields.SEQ -> (seq = streamedNonNegativeLong(json, value)) >= 0;
                case RecordFields.SENT_NS -> {
                    hasSentNs = isLong(json, value);
                    sentNs = hasSentNs ? json.getLongValue() : 0;
                    yield hasSentNs;
                }
                case RecordFields.INTENDED_NS -> {
                    hasIntendedNs = isLong(json, value);
                    intendedNs = hasIntendedNs ? json.getLongValue() : 0;
                    yield hasIntendedNs;
                }
                case RecordFields.WARMUP -> {
                    warmup = value == JsonToken.VALUE_TRUE;
                    yield warmup || value == JsonToken.VALUE_FALSE;
                }
                default -> ownField(name, value, json);
            };
        }

        /**
         * A field of the record kind's own, or one it does not know, which it skips
         * ({@link #skipped}): false when the tree reader might not accept the value.
         */
        abstract boolean ownField(String name, JsonToken value, JsonParser json) throws IOException;

        final long seq() {
            return seq;
        }

        final long sentNs() {
            return sentNs;
        }

        final long intendedNs() {
            return intendedNs;
        }

        final boolean warmup() {
            return warmup;
        }
    }

    /** An unknown field's value passed over, whatever it holds: accepted, as the tree reader ignores it. */
    static boolean skipped(JsonParser json) throws IOException {
        json.skipChildren();
        return true;
    }

    /** The value of a token the tree reader's positiveLong() takes, else 0. */
    static long streamedPositiveLong(JsonParser json, JsonToken token) throws IOException {
        return isLong(json, token) && json.getLongValue() > 0 ? json.getLongValue() : 0;
    }

    /** The value of a token the tree reader's nonNegativeLong() takes, else -1. */
    static long streamedNonNegativeLong(JsonParser json, JsonToken token) throws IOException {
        return isLong(json, token) && json.getLongValue() >= 0 ? json.getLongValue() : -1;
    }

    /** The string of a string token, else null. */
    static String streamedText(JsonParser json, JsonToken token) throws IOException {
        return token == JsonToken.VALUE_STRING ? json.getText() : null;
    }

    /** The instant a text the tree reader's Instant.parse takes stands for, else (and for null) null. */
    static Instant streamedInstant(String text) {
        if (text == null) {
            return null;
        }
        try {
            return parseInstant(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /**
     * {@code Instant.parse}, with a shortcut for the forms the producers write,
     * {@code yyyy-MM-ddTHH:mm:ssZ} (a reading's {@code ts}) and the same with a fraction of 1 to 9
     * digits (a request's instants, from the wall clock): Instant.parse builds a parse context and a
     * map of fields for every call (about 1.4 kB, a quarter of a reading's parse). Those forms are
     * converted with {@link LocalDate#of}, which validates the date; any other form, and any field
     * out of range, goes to Instant.parse, which decides.
     */
    static Instant parseInstant(String text) {
        int nanos = nanosOfFraction(text);
        if (nanos >= 0
                && text.charAt(4) == '-'
                && text.charAt(7) == '-'
                && text.charAt(10) == 'T'
                && text.charAt(13) == ':'
                && text.charAt(16) == ':') {
            int year = digits(text, 0, 4);
            int month = digits(text, 5, 2);
            int day = digits(text, 8, 2);
            int hour = digits(text, 11, 2);
            int minute = digits(text, 14, 2);
            int second = digits(text, 17, 2);
            if (year >= 0
                    && month >= 1
                    && month <= 12
                    && day >= 1
                    && day <= 31
                    && hour >= 0
                    && hour < 24
                    && minute >= 0
                    && minute < 60
                    && second >= 0
                    && second < 60) {
                try {
                    long day0 = LocalDate.of(year, month, day).toEpochDay();
                    return Instant.ofEpochSecond(day0 * 86_400L + hour * 3_600L + minute * 60L + second, nanos);
                } catch (DateTimeException e) {
                    // Not a date (February 30th): Instant.parse rejects it with its own message.
                }
            }
        }
        return Instant.parse(text);
    }

    /**
     * The nanoseconds of the part of an instant's text after its seconds: 0 for a lone {@code Z}
     * (20 characters in all), those of a point, 1 to 9 digits and {@code Z}; -1 for anything else.
     */
    private static int nanosOfFraction(String text) {
        int length = text.length();
        if (length < 20 || length > 30 || text.charAt(length - 1) != 'Z') {
            return -1;
        }
        if (length == 20) {
            return 0;
        }
        int count = length - 21;
        int fraction = count >= 1 && text.charAt(19) == '.' ? digits(text, 20, count) : -1;
        if (fraction < 0) {
            return -1;
        }
        for (int unit = count; unit < 9; unit++) {
            fraction *= 10;
        }
        return fraction;
    }

    /** The ASCII decimal digits at {@code from}, or -1 if any of them is not one. */
    private static int digits(String text, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** The version this reader reads, {@value ReadingRecord#VERSION}: what the tree reader's version() takes. */
    static boolean isVersion(JsonParser json, JsonToken token) throws IOException {
        return token == JsonToken.VALUE_NUMBER_INT
                && json.getNumberType() == JsonParser.NumberType.INT
                && json.getIntValue() == ReadingRecord.VERSION;
    }

    /** An integer token within 64 bits: what the tree reader's integral, convertible-to-long check takes. */
    static boolean isLong(JsonParser json, JsonToken token) throws IOException {
        return token == JsonToken.VALUE_NUMBER_INT && json.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
    }

    /** The {@link ReadingRecord#WINDOW} values of a valid flow or speed array, else {@code null}. */
    private static double[] streamVector(JsonParser json, JsonToken token, boolean nullable, double max)
            throws IOException {
        if (token != JsonToken.START_ARRAY) {
            return null;
        }
        double[] values = new double[ReadingRecord.WINDOW];
        for (int i = 0; i < values.length; i++) {
            JsonToken element = json.nextToken();
            if (element == JsonToken.VALUE_NULL && nullable) {
                values[i] = Double.NaN;
                continue;
            }
            if (element != JsonToken.VALUE_NUMBER_INT && element != JsonToken.VALUE_NUMBER_FLOAT) {
                return null;
            }
            double value = json.getDoubleValue();
            if (!(value >= 0) || value > max) {
                return null;
            }
            values[i] = value;
        }
        return json.nextToken() == JsonToken.END_ARRAY ? values : null;
    }

    /** The reader of every record the streaming pass does not accept: names the first problem. */
    static ReadingRecord readReadingByTree(byte[] bytes) throws RecordFormatException {
        JsonNode root = tree(bytes);
        version(root);
        long detector = positiveLong(root, RecordFields.DETECTOR);
        Instant ts;
        try {
            ts = Instant.parse(text(root, RecordFields.TS));
        } catch (DateTimeParseException e) {
            throw new RecordFormatException(
                    field(RecordFields.TS) + "not an ISO-8601 UTC instant: " + root.get(RecordFields.TS));
        }
        double[] flow = vector(root, RecordFields.FLOW, false, MAX_FLOW);
        double[] speed = vector(root, RecordFields.SPEED, true, MAX_SPEED);
        long seq = nonNegativeLong(root, RecordFields.SEQ);
        return new ReadingRecord(
                detector,
                ts,
                flow,
                speed,
                seq,
                anyLong(root, RecordFields.SENT_NS),
                anyLong(root, RecordFields.INTENDED_NS),
                warmup(root));
    }

    /** Reads an advice record (the probe and tests use it). */
    public static AdviceRecord readAdvice(byte[] bytes) throws RecordFormatException {
        JsonNode root = tree(bytes);
        version(root);
        JsonNode route = root.get(RecordFields.ROUTE);
        if (route == null || !route.isArray()) {
            throw new RecordFormatException(field(RecordFields.ROUTE) + "missing (an array of detector ids)");
        }
        List<Long> nodes = new ArrayList<>(route.size());
        route.forEach(n -> nodes.add(n.asLong()));
        JsonNode flow = root.get(RecordFields.PREDICTED_FLOW);
        JsonNode cost = root.get(RecordFields.ROUTE_COST_S);
        if (flow == null || !flow.isNumber() || cost == null || !cost.isNumber()) {
            throw new RecordFormatException(
                    field(flow == null || !flow.isNumber() ? RecordFields.PREDICTED_FLOW : RecordFields.ROUTE_COST_S)
                            + "missing or not a number");
        }
        return new AdviceRecord(
                positiveLong(root, RecordFields.DETECTOR),
                nonNegativeLong(root, RecordFields.SEQ),
                anyLong(root, RecordFields.SENT_NS),
                anyLong(root, RecordFields.INTENDED_NS),
                flow.asDouble(),
                text(root, RecordFields.MODEL),
                nodes,
                cost.asDouble(),
                anyLong(root, RecordFields.PARSE_NS),
                anyLong(root, RecordFields.INFER_NS),
                anyLong(root, RecordFields.ROUTE_NS),
                warmup(root),
                flag(root, RecordFields.DEGRADED));
    }

    /** Reads and validates a prediction record (docs/records.md, {@code its.predictions}). */
    public static PredictionRecord readPrediction(byte[] bytes) throws RecordFormatException {
        JsonNode root = tree(bytes);
        version(root);
        long detector = positiveLong(root, RecordFields.DETECTOR);
        Instant ts;
        try {
            ts = Instant.parse(text(root, RecordFields.TS));
        } catch (DateTimeParseException e) {
            throw new RecordFormatException(
                    field(RecordFields.TS) + "not an ISO-8601 UTC instant: " + root.get(RecordFields.TS));
        }
        long seq = nonNegativeLong(root, RecordFields.SEQ);
        long sent = anyLong(root, RecordFields.SENT_NS);
        long intended = anyLong(root, RecordFields.INTENDED_NS);
        JsonNode flow = root.get(RecordFields.PREDICTED_FLOW);
        if (flow == null || !flow.isNumber()) {
            throw new RecordFormatException(field(RecordFields.PREDICTED_FLOW)
                    + (flow == null ? "missing" : "not a number: " + abbreviate(flow)));
        }
        if (!(flow.asDouble() >= 0) || flow.asDouble() > MAX_FLOW) {
            throw new RecordFormatException(
                    field(RecordFields.PREDICTED_FLOW) + "out of range 0.." + (long) MAX_FLOW + ": " + flow.asText());
        }
        String model = text(root, RecordFields.MODEL);
        if (model.isBlank()) {
            throw new RecordFormatException(field(RecordFields.MODEL) + "empty, expected the predictor's name");
        }
        return new PredictionRecord(
                detector,
                ts,
                seq,
                sent,
                intended,
                warmup(root),
                flow.asDouble(),
                model,
                nonNegativeLong(root, RecordFields.PARSE_NS),
                nonNegativeLong(root, RecordFields.INFER_NS),
                flag(root, RecordFields.DEGRADED));
    }

    /**
     * The warm-up flag: absent is false (every record before the flag existed is measured); when
     * present it must be a JSON boolean, so that {@code "warmup":"false"} or {@code 1} cannot be
     * read as one thing by one reader and another by the next.
     */
    static boolean warmup(JsonNode root) throws RecordFormatException {
        return flag(root, RecordFields.WARMUP);
    }

    /** An optional flag ({@code warmup}, {@code degraded}): absent is false, present a JSON boolean. */
    static boolean flag(JsonNode root, String name) throws RecordFormatException {
        JsonNode node = root.get(name);
        if (node == null) {
            return false;
        }
        if (!node.isBoolean()) {
            throw new RecordFormatException(field(name) + "not a boolean: " + abbreviate(node));
        }
        return node.booleanValue();
    }

    /** Written only when true, so that a measured record is byte for byte what it was before the flag. */
    static void writeWarmup(JsonGenerator g, boolean warmup) throws IOException {
        if (warmup) {
            g.writeBooleanField(RecordFields.WARMUP, true);
        }
    }

    /** Written only when true, so that a record of the job's own model is what it was before the flag. */
    static void writeDegraded(JsonGenerator g, boolean degraded) throws IOException {
        if (degraded) {
            g.writeBooleanField(RecordFields.DEGRADED, true);
        }
    }

    /** "field NAME: ", the category of a problem with one field. */
    static String field(String name) {
        return "field " + name + ": ";
    }

    /** Empty, too large or not UTF-8: rejected before any parsing. */
    static void requireSizeAndUtf8(byte[] bytes) throws RecordFormatException {
        if (bytes.length == 0) {
            throw new RecordFormatException("empty record: 0 bytes");
        }
        if (bytes.length > MAX_RECORD_BYTES) {
            throw new RecordFormatException(
                    "record too large: " + bytes.length + " bytes, the limit is " + MAX_RECORD_BYTES);
        }
        requireUtf8(bytes);
    }

    static JsonNode tree(byte[] bytes) throws RecordFormatException {
        requireSizeAndUtf8(bytes);
        try {
            JsonNode root = MAPPER.readTree(bytes);
            if (root == null || root.isMissingNode()) {
                throw new RecordFormatException("not valid JSON: no content");
            }
            if (!root.isObject()) {
                throw new RecordFormatException(
                        "not a JSON object: " + root.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
            }
            return root;
        } catch (StreamConstraintsException e) {
            String message = e.getOriginalMessage();
            if (message.contains("nesting depth")) {
                throw new RecordFormatException(
                        "JSON nested too deep: more than " + MAX_NESTING_DEPTH + " levels of objects and arrays");
            }
            throw new RecordFormatException("JSON limit exceeded: " + message);
        } catch (JsonEOFException e) {
            throw new RecordFormatException("truncated JSON: " + e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            String message = withoutLocation(e.getOriginalMessage());
            if (message.startsWith("Unexpected end-of-input")) {
                throw new RecordFormatException("truncated JSON: " + message);
            }
            if (message.startsWith("Duplicate field ")) {
                throw new RecordFormatException("duplicate field: " + message.substring("Duplicate field ".length()));
            }
            if (message.startsWith("Non-standard token") || message.contains("ALLOW_NON_NUMERIC_NUMBERS")) {
                throw new RecordFormatException("non-finite number: " + message);
            }
            throw new RecordFormatException("not valid JSON: " + message);
        } catch (IOException e) {
            throw new RecordFormatException("not valid JSON: " + e.getMessage());
        }
    }

    /** Jackson's message without the parser's location notes, which say nothing about the record. */
    private static String withoutLocation(String message) {
        return message.replaceAll("\\s*\\(start marker at \\[Source: [^]]*][^)]*\\)", "")
                .replaceAll("\\s*at \\[Source: [^]]*]", "");
    }

    /**
     * D2 records are UTF-8. Checked on the whole value before parsing, because Jackson checks the
     * encoding only inside strings it decodes; a name or value it skips could hide bad bytes.
     */
    private static void requireUtf8(byte[] bytes) throws RecordFormatException {
        if (isAscii(bytes)) {
            // ASCII is UTF-8; the producers write nothing else, so the decoder (and the buffer
            // of the whole record's characters it decodes into) is left to records that need it.
            return;
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            decoder.decode(in);
        } catch (CharacterCodingException e) {
            throw new RecordFormatException("not UTF-8: malformed byte sequence at byte " + in.position());
        }
    }

    private static boolean isAscii(byte[] bytes) {
        for (byte b : bytes) {
            if (b < 0) {
                return false;
            }
        }
        return true;
    }

    static void version(JsonNode root) throws RecordFormatException {
        JsonNode v = root.get(RecordFields.VERSION);
        if (v == null) {
            throw new RecordFormatException(field(RecordFields.VERSION) + "missing (the record version)");
        }
        if (!v.isIntegralNumber() || v.asInt() != ReadingRecord.VERSION || !v.canConvertToInt()) {
            throw new RecordFormatException(
                    field(RecordFields.VERSION) + "unsupported version " + v + ", expected " + ReadingRecord.VERSION);
        }
    }

    static String text(JsonNode root, String field) throws RecordFormatException {
        JsonNode node = root.get(field);
        if (node == null) {
            throw new RecordFormatException(field(field) + "missing");
        }
        if (!node.isTextual()) {
            throw new RecordFormatException(field(field) + "not a string: " + abbreviate(node));
        }
        return node.asText();
    }

    static long anyLong(JsonNode root, String field) throws RecordFormatException {
        JsonNode node = root.get(field);
        if (node == null) {
            throw new RecordFormatException(field(field) + "missing");
        }
        if (!node.isIntegralNumber()) {
            throw new RecordFormatException(field(field) + "not an integer: " + abbreviate(node));
        }
        if (!node.canConvertToLong()) {
            throw new RecordFormatException(field(field) + "out of the 64-bit range: " + abbreviate(node));
        }
        return node.asLong();
    }

    static long nonNegativeLong(JsonNode root, String field) throws RecordFormatException {
        long value = anyLong(root, field);
        if (value < 0) {
            throw new RecordFormatException(field(field) + "negative: " + value);
        }
        return value;
    }

    static long positiveLong(JsonNode root, String field) throws RecordFormatException {
        long value = anyLong(root, field);
        if (value <= 0) {
            throw new RecordFormatException(field(field) + "must be positive: " + value);
        }
        return value;
    }

    private static double[] vector(JsonNode root, String field, boolean nullable, double max)
            throws RecordFormatException {
        JsonNode node = root.get(field);
        if (node == null) {
            throw new RecordFormatException(field(field) + "missing (an array of " + ReadingRecord.WINDOW + ")");
        }
        if (!node.isArray()) {
            throw new RecordFormatException(
                    field(field) + "not an array of " + ReadingRecord.WINDOW + ": " + abbreviate(node));
        }
        if (node.size() != ReadingRecord.WINDOW) {
            throw new RecordFormatException(
                    field(field) + "has " + node.size() + " values, expected " + ReadingRecord.WINDOW);
        }
        double[] values = new double[ReadingRecord.WINDOW];
        for (int i = 0; i < values.length; i++) {
            JsonNode element = node.get(i);
            if (element.isNull() && nullable) {
                values[i] = Double.NaN;
                continue;
            }
            if (!element.isNumber()) {
                throw new RecordFormatException(field(field) + "[" + i + "] is not a number: " + abbreviate(element));
            }
            double value = element.asDouble();
            if (!(value >= 0) || value > max) {
                throw new RecordFormatException(
                        field(field) + "[" + i + "] out of range 0.." + (long) max + ": " + element.asText());
            }
            values[i] = value;
        }
        return values;
    }

    /** A value for a message: at most 100 characters of its JSON, so a reason stays short. */
    static String abbreviate(JsonNode node) {
        String text = node.toString();
        return text.length() <= 100 ? text : text.substring(0, 100) + "... (" + text.length() + " characters)";
    }

    private static void writeArray(JsonGenerator g, String field, double[] values) throws IOException {
        g.writeArrayFieldStart(field);
        for (double value : values) {
            if (Double.isNaN(value)) {
                g.writeNull();
            } else if (value == Math.rint(value) && Math.abs(value) < 1e15) {
                g.writeNumber((long) value);
            } else {
                g.writeNumber(value);
            }
        }
        g.writeEndArray();
    }
}
