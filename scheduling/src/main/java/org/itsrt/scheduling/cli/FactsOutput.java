package org.itsrt.scheduling.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/** What a budget applied set and measured, printed as JSON or as one line per fact. */
final class FactsOutput {

    private FactsOutput() {}

    static void print(PrintWriter out, Map<String, Object> facts, boolean json) throws JsonProcessingException {
        if (json) {
            out.println(new ObjectMapper()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(facts));
        } else {
            flatten(out, "", facts);
        }
        out.flush();
    }

    /** One {@code key.sub: value} line per fact, lists by index. */
    private static void flatten(PrintWriter out, String prefix, Object value) {
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> flatten(out, prefix.isEmpty() ? k.toString() : prefix + "." + k, v));
        } else if (value instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof Map) {
            for (int i = 0; i < list.size(); i++) {
                flatten(out, prefix + "[" + i + "]", list.get(i));
            }
        } else {
            out.println(prefix + ": " + value);
        }
    }
}
