package org.itsrt.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Corruptions of a valid record for the tests that hold a streaming pass to the tree reader it
 * stands in for (RecordJsonStreamingTest, RouteRequestStreamingTest): each type and edge case the
 * rules distinguish, put where a field's value was.
 */
final class RecordCorruptions {

    /** Values put in place of a field's value: each type and edge the rules distinguish. */
    static final String[] VALUES = {
        "1",
        "0",
        "-1",
        "-0",
        "2",
        "1.0",
        "1.5",
        "1e2",
        "1e308",
        "1e999",
        "-1e-3",
        "2000",
        "2000.0",
        "2000.5",
        "120",
        "120.01",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "99999999999999999999",
        "\"1\"",
        "\"x\"",
        "\"2018-03-01T08:55:00Z\"",
        "\"2018-03-01\"",
        "null",
        "true",
        "false",
        "[]",
        "{}",
        "[1,2,3,4,5,6,7,8,9,10,11,12]",
        "[1,2,3,4,5,6,7,8,9,10,11]",
        "[1,2,3,4,5,6,7,8,9,10,11,12,13]",
        "[1,2,3,4,5,6,7,8,9,10,11,null]",
        "[null,2,3,4,5,6,7,8,9,10,11,12]",
        "[1,2,3,4,5,6,7,8,9,10,11,\"3\"]",
        "[1,2,3,4,5,6,7,8,9,10,11,[12]]",
        "[1,2,3,4,5,6,7,8,9,10,11,{}]",
        "{\"a\":{\"b\":[1]}}",
        "NaN",
        "Infinity"
    };

    /** Instants in and just outside the form the streaming pass converts itself. */
    static final String[] INSTANTS = {
        "2018-03-01T08:55:00Z",
        "2018-02-28T23:59:59Z",
        "2018-02-29T00:00:00Z",
        "2016-02-29T00:00:00Z",
        "2018-02-30T00:00:00Z",
        "2018-04-31T00:00:00Z",
        "2018-13-01T00:00:00Z",
        "2018-00-10T00:00:00Z",
        "2018-03-00T00:00:00Z",
        "2018-03-32T00:00:00Z",
        "2018-02-28T24:00:00Z",
        "2016-12-31T23:59:60Z",
        "2018-03-01T08:60:00Z",
        "2018-03-01T08:55:61Z",
        "2018-03-01t08:55:00z",
        "2018-03-01T08:55:00.5Z",
        "2018-03-01T08:55Z",
        "0000-01-01T00:00:00Z",
        "9999-12-31T23:59:59Z",
        "1969-12-31T23:59:59Z",
        "+2018-03-01T08:55:00Z",
        "2018-03-01T08:55:00+01:00",
        "2018-3-01T08:55:00Z",
        "2018-03-01 08:55:00Z",
        "2018-03-01T08:55:0xZ",
        "2018-03-01T08:55:00ZZ",
        "\u0662018-03-01T08:55:00Z",
        "",
        "2018-03-01T08:55:00.Z",
        "2018-03-01T08:55:00.123456789Z",
        "2018-03-01T08:55:00.1234567890Z",
        "2018-03-01T08:55:00.000000000Z",
        "2018-03-01T08:55:00,5Z",
        "2018-03-01T08:55:00.-5Z",
        "2018-03-01T08:55:00.5x",
        "2018-03-01T08:55:00.5 Z",
        "2016-12-31T23:59:60.999Z",
        "2018-02-30T00:00:00.25Z"
    };

    /**
     * Holds a streaming pass and its tree reader to each other on 300 valid records and the
     * corruptions of each ({@link #of}).
     *
     * @param agree true when both readers accept the record, false when both reject it; fails
     *              otherwise
     */
    static void holdToEachOther(
            Function<Random, String> validRecord, String[] fields, Predicate<String> agree, Random random) {
        int accepted = 0;
        int rejected = 0;
        for (int i = 0; i < 300; i++) {
            for (String json : of(validRecord.apply(random), fields, random)) {
                if (agree.test(json)) {
                    accepted++;
                } else {
                    rejected++;
                }
            }
        }
        // Both sides of the comparison were exercised, not only one.
        assertThat(accepted).isGreaterThan(1_000);
        assertThat(rejected).isGreaterThan(1_000);
    }

    /**
     * The valid record itself and a set of one-step corruptions of it: one of {@code fields} set to
     * another value (or added), given twice or removed; content after it, the record inside another;
     * cut off, a character put in or taken out.
     */
    static List<String> of(String valid, String[] fields, Random random) {
        List<String> out = new ArrayList<>();
        out.add(valid);
        String body = valid.substring(1, valid.length() - 1);
        for (int k = 0; k < 8; k++) {
            String field = fields[random.nextInt(fields.length)];
            String value = random.nextInt(4) == 0
                    ? "\"" + INSTANTS[random.nextInt(INSTANTS.length)] + "\""
                    : VALUES[random.nextInt(VALUES.length)];
            // Set (or add) the field to another value.
            out.add(withField(valid, field, value));
            // The field twice.
            out.add("{" + body + ",\"" + field + "\":" + value + "}");
            // The field removed.
            out.add(valid.replaceAll(",?\"" + field + "\":(\\[[^]]*]|[^,}]*)", "")
                    .replace("{,", "{"));
        }
        out.add(valid + " ");
        out.add(valid + " {}");
        out.add(valid + "x");
        out.add("[" + valid + "]");
        out.add("{\"x\":" + valid + "}");
        for (int k = 0; k < 4; k++) {
            out.add(valid.substring(0, random.nextInt(valid.length())));
            int at = random.nextInt(valid.length());
            out.add(valid.substring(0, at) + "\",:{}[]1 x".charAt(random.nextInt(10)) + valid.substring(at));
            at = random.nextInt(valid.length());
            out.add(valid.substring(0, at) + valid.substring(at + 1));
        }
        return out;
    }

    private static String withField(String valid, String field, String value) {
        String pattern = "\"" + field + "\":(\\[[^]]*]|[^,}]*)";
        String replaced =
                valid.replaceFirst(pattern, java.util.regex.Matcher.quoteReplacement("\"" + field + "\":" + value));
        return replaced.equals(valid) && !valid.contains("\"" + field + "\":" + value)
                ? valid.substring(0, valid.length() - 1) + ",\"" + field + "\":" + value + "}"
                : replaced;
    }

    private RecordCorruptions() {}
}
