package org.itsrt.records;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * JSON of the D2 records (docs/records.md): the codec of both kinds, whole. Writing streams fields in
 * a fixed order; reading checks everything a consumer relies on and names the first problem, so a
 * bad record can be dead-lettered with a reason instead of failing the reader. Field names come from
 * {@link RecordFields}; a reader that needs only the identity and the stamps, at the rate the probe
 * polls, uses {@link RecordStampsReader} instead.
 */
public final class RecordJson {

    /** Flows above this (veh/5 min over all lanes of one station) are not traffic but a fault. */
    public static final double MAX_FLOW = 2_000;
    /** Speeds above this (mph) are a fault. */
    public static final double MAX_SPEED = 120;

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonFactory FACTORY = MAPPER.getFactory();

    private RecordJson() {}

    public static byte[] write(ReadingRecord r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField(RecordFields.VERSION, ReadingRecord.VERSION);
            g.writeNumberField(RecordFields.DETECTOR, r.detector());
            g.writeStringField(RecordFields.TS, r.ts().toString());
            writeArray(g, RecordFields.FLOW, r.flow());
            writeArray(g, RecordFields.SPEED, r.speed());
            g.writeNumberField(RecordFields.SEQ, r.seq());
            g.writeNumberField(RecordFields.SENT_NS, r.sentNs());
            g.writeNumberField(RecordFields.INTENDED_NS, r.intendedNs());
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public static byte[] write(AdviceRecord a) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
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
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Reads and validates a reading record; the exception's message is the dead-letter reason. */
    public static ReadingRecord readReading(byte[] bytes) throws RecordFormatException {
        JsonNode root = tree(bytes);
        version(root);
        long detector = positiveLong(root, RecordFields.DETECTOR);
        Instant ts;
        try {
            ts = Instant.parse(text(root, RecordFields.TS));
        } catch (DateTimeParseException e) {
            throw new RecordFormatException(
                    "field " + RecordFields.TS + " is not an ISO-8601 UTC instant: " + root.get(RecordFields.TS));
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
                anyLong(root, RecordFields.INTENDED_NS));
    }

    /** Reads an advice record (the probe and tests use it). */
    public static AdviceRecord readAdvice(byte[] bytes) throws RecordFormatException {
        JsonNode root = tree(bytes);
        version(root);
        JsonNode route = root.get(RecordFields.ROUTE);
        if (route == null || !route.isArray()) {
            throw new RecordFormatException("missing field " + RecordFields.ROUTE + " (array of detector ids)");
        }
        List<Long> nodes = new ArrayList<>(route.size());
        route.forEach(n -> nodes.add(n.asLong()));
        JsonNode flow = root.get(RecordFields.PREDICTED_FLOW);
        JsonNode cost = root.get(RecordFields.ROUTE_COST_S);
        if (flow == null || !flow.isNumber() || cost == null || !cost.isNumber()) {
            throw new RecordFormatException(
                    "missing numeric field " + RecordFields.PREDICTED_FLOW + " or " + RecordFields.ROUTE_COST_S);
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
                anyLong(root, RecordFields.ROUTE_NS));
    }

    private static JsonNode tree(byte[] bytes) throws RecordFormatException {
        try {
            JsonNode root = MAPPER.readTree(bytes);
            if (root == null || !root.isObject()) {
                throw new RecordFormatException("not a JSON object");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw new RecordFormatException("not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new RecordFormatException("unreadable: " + e.getMessage());
        }
    }

    private static void version(JsonNode root) throws RecordFormatException {
        JsonNode v = root.get(RecordFields.VERSION);
        if (v == null) {
            throw new RecordFormatException("missing field " + RecordFields.VERSION + " (record version)");
        }
        if (!v.isIntegralNumber() || v.asInt() != ReadingRecord.VERSION) {
            throw new RecordFormatException("unsupported version " + RecordFields.VERSION + "=" + v + " (expected "
                    + ReadingRecord.VERSION + ")");
        }
    }

    private static String text(JsonNode root, String field) throws RecordFormatException {
        JsonNode node = root.get(field);
        if (node == null || !node.isTextual()) {
            throw new RecordFormatException("missing text field " + field);
        }
        return node.asText();
    }

    private static long anyLong(JsonNode root, String field) throws RecordFormatException {
        JsonNode node = root.get(field);
        if (node == null || !node.isIntegralNumber() || !node.canConvertToLong()) {
            throw new RecordFormatException("missing integer field " + field);
        }
        return node.asLong();
    }

    private static long nonNegativeLong(JsonNode root, String field) throws RecordFormatException {
        long value = anyLong(root, field);
        if (value < 0) {
            throw new RecordFormatException("field " + field + " is negative: " + value);
        }
        return value;
    }

    private static long positiveLong(JsonNode root, String field) throws RecordFormatException {
        long value = anyLong(root, field);
        if (value <= 0) {
            throw new RecordFormatException("field " + field + " must be positive: " + value);
        }
        return value;
    }

    private static double[] vector(JsonNode root, String field, boolean nullable, double max)
            throws RecordFormatException {
        JsonNode node = root.get(field);
        if (node == null || !node.isArray()) {
            throw new RecordFormatException("missing field " + field + " (array of " + ReadingRecord.WINDOW + ")");
        }
        if (node.size() != ReadingRecord.WINDOW) {
            throw new RecordFormatException(
                    "field " + field + " has " + node.size() + " values, expected " + ReadingRecord.WINDOW);
        }
        double[] values = new double[ReadingRecord.WINDOW];
        for (int i = 0; i < values.length; i++) {
            JsonNode element = node.get(i);
            if (element.isNull() && nullable) {
                values[i] = Double.NaN;
                continue;
            }
            if (!element.isNumber()) {
                throw new RecordFormatException(field + "[" + i + "] is not a number: " + element);
            }
            double value = element.asDouble();
            if (!(value >= 0) || value > max) {
                throw new RecordFormatException(field + "[" + i + "] out of range 0.." + (long) max + ": " + value);
            }
            values[i] = value;
        }
        return values;
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
