package org.itsrt.records;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * JSON of the D2 records (docs/records.md). Writing streams fields in a fixed order; reading
 * checks everything a consumer relies on and names the first problem, so a bad record can be
 * dead-lettered with a reason instead of failing the reader.
 */
public final class RecordJson {

    /** Flows above this (veh/5 min over all lanes of one station) are not traffic but a fault. */
    public static final double MAX_FLOW = 2_000;
    /** Speeds above this (mph) are a fault. */
    public static final double MAX_SPEED = 120;

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonFactory FACTORY = MAPPER.getFactory();

    private RecordJson() {
    }

    public static byte[] write(ReadingRecord r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("v", ReadingRecord.VERSION);
            g.writeNumberField("detector", r.detector());
            g.writeStringField("ts", r.ts().toString());
            writeArray(g, "flow", r.flow());
            writeArray(g, "speed", r.speed());
            g.writeNumberField("seq", r.seq());
            g.writeNumberField("sent_ns", r.sentNs());
            g.writeNumberField("intended_ns", r.intendedNs());
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
            g.writeNumberField("v", ReadingRecord.VERSION);
            g.writeNumberField("detector", a.detector());
            g.writeNumberField("seq", a.seq());
            g.writeNumberField("sent_ns", a.sentNs());
            g.writeNumberField("intended_ns", a.intendedNs());
            g.writeNumberField("predicted_flow", a.predictedFlow());
            g.writeStringField("model", a.model());
            g.writeArrayFieldStart("route");
            for (long node : a.route()) {
                g.writeNumber(node);
            }
            g.writeEndArray();
            g.writeNumberField("route_cost_s", a.routeCostS());
            g.writeNumberField("parse_ns", a.parseNs());
            g.writeNumberField("infer_ns", a.inferNs());
            g.writeNumberField("route_ns", a.routeNs());
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
        long detector = positiveLong(root, "detector");
        Instant ts;
        try {
            ts = Instant.parse(text(root, "ts"));
        } catch (DateTimeParseException e) {
            throw new RecordFormatException("field ts is not an ISO-8601 UTC instant: " + root.get("ts"));
        }
        double[] flow = vector(root, "flow", false, MAX_FLOW);
        double[] speed = vector(root, "speed", true, MAX_SPEED);
        long seq = nonNegativeLong(root, "seq");
        return new ReadingRecord(detector, ts, flow, speed, seq, anyLong(root, "sent_ns"), anyLong(root, "intended_ns"));
    }

    /** Reads an advice record (the probe and tests use it). */
    public static AdviceRecord readAdvice(byte[] bytes) throws RecordFormatException {
        JsonNode root = tree(bytes);
        version(root);
        JsonNode route = root.get("route");
        if (route == null || !route.isArray()) {
            throw new RecordFormatException("missing field route (array of detector ids)");
        }
        List<Long> nodes = new ArrayList<>(route.size());
        route.forEach(n -> nodes.add(n.asLong()));
        JsonNode flow = root.get("predicted_flow");
        JsonNode cost = root.get("route_cost_s");
        if (flow == null || !flow.isNumber() || cost == null || !cost.isNumber()) {
            throw new RecordFormatException("missing numeric field predicted_flow or route_cost_s");
        }
        return new AdviceRecord(positiveLong(root, "detector"), nonNegativeLong(root, "seq"),
                anyLong(root, "sent_ns"), anyLong(root, "intended_ns"), flow.asDouble(), text(root, "model"),
                nodes, cost.asDouble(), anyLong(root, "parse_ns"), anyLong(root, "infer_ns"),
                anyLong(root, "route_ns"));
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
        JsonNode v = root.get("v");
        if (v == null) {
            throw new RecordFormatException("missing field v (record version)");
        }
        if (!v.isIntegralNumber() || v.asInt() != ReadingRecord.VERSION) {
            throw new RecordFormatException("unsupported version v=" + v + " (expected " + ReadingRecord.VERSION + ")");
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
            throw new RecordFormatException("field " + field + " has " + node.size() + " values, expected "
                    + ReadingRecord.WINDOW);
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
