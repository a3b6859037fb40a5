package org.itsrt.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RecordStampsReader#read} reads first without Jackson's duplicate detection and tells
 * duplicates itself; this holds its every answer (stamps, or reason and detail) to the pass with
 * Jackson's detection, on advice records and on many small corruptions of them: duplicated names,
 * unknown names, objects in values and in arrays, wrong types.
 */
class RecordStampsReaderDuplicatesTest {

    private static final String[] NAMES = {
        RecordFields.VERSION, RecordFields.DETECTOR, RecordFields.SEQ, RecordFields.SENT_NS, RecordFields.INTENDED_NS,
        RecordFields.WARMUP, RecordFields.ROUTE, RecordFields.MODEL, RecordFields.PARSE_NS, RecordFields.ROUTE_NS,
        RecordFields.FLOW, "extra", "x"
    };

    private static final String[] VALUES = {
        "1",
        "2",
        "-3",
        "1.5",
        "99999999999999999999",
        "\"s\"",
        "null",
        "true",
        "false",
        "[]",
        "[1,[2,[3]]]",
        "[1,{\"a\":1}]",
        "[{\"a\":1,\"a\":2}]",
        "{}",
        "{\"a\":1,\"a\":2}",
        "{\"a\":{\"b\":1,\"b\":1}}",
        "[1,2"
    };

    @Test
    void readingWithoutJacksonsDuplicateDetectionFirstGivesTheSameAnswers() {
        Random random = new Random(17);
        int valid = 0;
        int malformed = 0;
        for (int i = 0; i < 300; i++) {
            String advice = new String(
                    RecordJson.write(new AdviceRecord(
                            1 + random.nextInt(1_000_000),
                            random.nextInt(1_000_000),
                            random.nextLong(),
                            random.nextLong(),
                            random.nextDouble() * 2_000,
                            "lstm-flow/kernel",
                            List.of(1L + random.nextInt(1_000_000), 2L, 3L),
                            random.nextDouble() * 900,
                            random.nextInt(100_000),
                            random.nextInt(1_000_000),
                            random.nextInt(10_000),
                            random.nextBoolean(),
                            false)),
                    StandardCharsets.UTF_8);
            for (String json : corruptions(advice, random)) {
                if (sameAnswer(json.getBytes(StandardCharsets.UTF_8))) {
                    valid++;
                } else {
                    malformed++;
                }
            }
        }
        assertThat(valid).isGreaterThan(500);
        assertThat(malformed).isGreaterThan(500);
    }

    /** True when both passes read the stamps, false when both reject the record alike. */
    private static boolean sameAnswer(byte[] bytes) {
        String json = new String(bytes, StandardCharsets.UTF_8);
        String expected = answer(() -> RecordStampsReader.readWithDuplicateDetection(bytes));
        assertThat(answer(() -> RecordStampsReader.read(bytes))).as(json).isEqualTo(expected);
        return !expected.startsWith("malformed");
    }

    private interface Read {
        RecordStamps read() throws MalformedRecordException;
    }

    private static String answer(Read read) {
        try {
            return read.read().toString();
        } catch (MalformedRecordException e) {
            return "malformed " + e.reason() + ": " + e.getMessage();
        }
    }

    private static List<String> corruptions(String valid, Random random) {
        List<String> out = new ArrayList<>();
        out.add(valid);
        String body = valid.substring(1, valid.length() - 1);
        for (int k = 0; k < 10; k++) {
            String name = NAMES[random.nextInt(NAMES.length)];
            String value = VALUES[random.nextInt(VALUES.length)];
            String field = "\"" + name + "\":" + value;
            // Added at the end (a duplicate when the name is already there), or at the start.
            out.add("{" + body + "," + field + "}");
            out.add("{" + field + "," + body + "}");
            // Set in place.
            out.add(valid.replaceFirst(
                    "\"" + name + "\":(\\[[^]]*]|[^,}]*)", java.util.regex.Matcher.quoteReplacement(field)));
        }
        out.add("{" + body + "} {\"a\":1,\"a\":1}");
        out.add("{\"route\":[[1],[{\"a\":1,\"a\":1}]]," + body + "}");
        return out;
    }
}
