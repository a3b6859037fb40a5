package org.itsrt.probe.arrival;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;

import java.io.IOException;

/**
 * Reads the few fields the probe needs out of a D2 record (REFERENCE D2, {@code "v":1}) of either
 * topic: {@code detector}, {@code seq}, {@code sent_ns}, and where present {@code intended_ns},
 * {@code parse_ns}, {@code infer_ns}, {@code route_ns}. Everything else (flows, speeds, route,
 * prediction) is skipped token by token without being built into objects, so parsing costs the
 * probe little between two polls.
 */
public final class RecordParser {

    private static final JsonFactory JSON = new JsonFactory();

    /** Thrown for a record that cannot be measured; {@link #reason()} is a short category. */
    public static final class MalformedException extends Exception {
        private final String reason;

        MalformedException(String reason, String detail) {
            super(detail, null, false, false);
            this.reason = reason;
        }

        public String reason() {
            return reason;
        }
    }

    /**
     * Parses one record value and attaches its arrival stamp.
     *
     * @throws MalformedException when the value is not a version-1 JSON object with integer
     *                            {@code detector}, {@code seq >= 0} and {@code sent_ns}
     */
    public Arrival parse(byte[] value, long arrivalNs) throws MalformedException {
        if (value == null || value.length == 0) {
            throw new MalformedException("empty value", "the record has no value");
        }
        Long detector = null;
        Long seq = null;
        Long sent = null;
        long intended = Arrival.ABSENT;
        long parse = Arrival.ABSENT;
        long infer = Arrival.ABSENT;
        long route = Arrival.ABSENT;
        try (JsonParser json = JSON.createParser(value)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw new MalformedException("not a JSON object", "the value is not a JSON object");
            }
            JsonToken token;
            while ((token = json.nextToken()) == JsonToken.FIELD_NAME) {
                String name = json.currentName();
                JsonToken fieldValue = json.nextToken();
                switch (name) {
                    case "v" -> {
                        if (fieldValue != JsonToken.VALUE_NUMBER_INT || !"1".equals(json.getText())) {
                            throw new MalformedException("unsupported version",
                                    "\"v\" is " + json.getText() + ", expected 1");
                        }
                    }
                    case "detector" -> detector = required(json, fieldValue, "detector");
                    case "seq" -> seq = required(json, fieldValue, "seq");
                    case "sent_ns" -> sent = required(json, fieldValue, "sent_ns");
                    case "intended_ns" -> intended = optional(json, fieldValue, "intended_ns", false);
                    case "parse_ns" -> parse = optional(json, fieldValue, "parse_ns", true);
                    case "infer_ns" -> infer = optional(json, fieldValue, "infer_ns", true);
                    case "route_ns" -> route = optional(json, fieldValue, "route_ns", true);
                    default -> json.skipChildren();
                }
            }
            if (token != JsonToken.END_OBJECT) {
                throw new MalformedException("not JSON", "the object is not closed");
            }
            if (json.nextToken() != null) {
                throw new MalformedException("not JSON", "content after the JSON object");
            }
        } catch (JsonProcessingException e) {
            throw new MalformedException("not JSON", e.getOriginalMessage());
        } catch (IOException e) {
            // Parsing a byte array does no I/O; any other IOException is still a bad record.
            throw new MalformedException("not JSON", String.valueOf(e.getMessage()));
        }
        if (detector == null) {
            throw new MalformedException("missing detector", "no \"detector\" field");
        }
        if (seq == null) {
            throw new MalformedException("missing seq", "no \"seq\" field");
        }
        if (seq < 0 || seq >= Integer.MAX_VALUE) {
            throw new MalformedException("invalid seq", "\"seq\" is " + seq + ", expected 0 .. " + (Integer.MAX_VALUE - 1));
        }
        if (sent == null) {
            throw new MalformedException("missing sent_ns", "no \"sent_ns\" field");
        }
        return new Arrival(detector, seq, sent, intended, parse, infer, route, arrivalNs);
    }

    private static Long required(JsonParser json, JsonToken token, String field) throws IOException, MalformedException {
        if (token != JsonToken.VALUE_NUMBER_INT) {
            json.skipChildren();
            throw new MalformedException("invalid " + field, "\"" + field + "\" is " + describe(json, token) + ", expected an integer");
        }
        return longValue(json, field);
    }

    private static long longValue(JsonParser json, String field) throws IOException, MalformedException {
        try {
            return json.getLongValue();
        } catch (InputCoercionException e) {
            throw new MalformedException("invalid " + field, "\"" + field + "\" is " + json.getText() + ", out of range");
        }
    }

    private static long optional(JsonParser json, JsonToken token, String field, boolean duration)
            throws IOException, MalformedException {
        if (token == JsonToken.VALUE_NULL) {
            return Arrival.ABSENT;
        }
        if (token != JsonToken.VALUE_NUMBER_INT) {
            json.skipChildren();
            throw new MalformedException("invalid " + field, "\"" + field + "\" is " + describe(json, token) + ", expected an integer");
        }
        long value = longValue(json, field);
        if (duration && value < 0) {
            throw new MalformedException("invalid " + field, "\"" + field + "\" is " + value + ", a duration cannot be negative");
        }
        if (value == Arrival.ABSENT) {
            throw new MalformedException("invalid " + field, "\"" + field + "\" is out of range");
        }
        return value;
    }

    private static String describe(JsonParser json, JsonToken token) throws IOException {
        return switch (token) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "the string \"" + json.getText() + "\"";
            default -> json.getText();
        };
    }
}
