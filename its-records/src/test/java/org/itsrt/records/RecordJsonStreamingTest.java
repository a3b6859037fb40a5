package org.itsrt.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RecordJson#readReading} reads a valid reading in one streaming pass and leaves every
 * other record to the tree reader. That is only sound when the streaming pass accepts exactly the
 * records the tree reader accepts, with the same values: this holds the two against each other on
 * valid readings and on many small corruptions of them.
 */
class RecordJsonStreamingTest {

    /** Values put in place of a field's value: each type and edge the rules distinguish. */
    private static final String[] VALUES = {
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
    private static final String[] INSTANTS = {
        "2018-03-01T08:55:00Z", "2018-02-28T23:59:59Z", "2018-02-29T00:00:00Z", "2016-02-29T00:00:00Z",
        "2018-02-30T00:00:00Z", "2018-04-31T00:00:00Z", "2018-13-01T00:00:00Z", "2018-00-10T00:00:00Z",
        "2018-03-00T00:00:00Z", "2018-03-32T00:00:00Z", "2018-02-28T24:00:00Z", "2016-12-31T23:59:60Z",
        "2018-03-01T08:60:00Z", "2018-03-01T08:55:61Z", "2018-03-01t08:55:00z", "2018-03-01T08:55:00.5Z",
        "2018-03-01T08:55Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1969-12-31T23:59:59Z",
        "+2018-03-01T08:55:00Z", "2018-03-01T08:55:00+01:00", "2018-3-01T08:55:00Z", "2018-03-01 08:55:00Z",
        "2018-03-01T08:55:0xZ", "2018-03-01T08:55:00ZZ", "\u0662018-03-01T08:55:00Z", ""
    };

    @Test
    void theInstantShortcutReadsWhatInstantParseReads() {
        List<String> texts = new ArrayList<>(Arrays.asList(INSTANTS));
        Random random = new Random(5);
        for (int i = 0; i < 5_000; i++) {
            texts.add(Instant.ofEpochSecond(Math.floorMod(random.nextLong(), 253_402_300_800L))
                    .toString());
        }
        for (String text : texts) {
            String expected;
            try {
                expected = Instant.parse(text).toString();
            } catch (java.time.format.DateTimeParseException e) {
                expected = "rejected";
            }
            String actual;
            try {
                actual = RecordJson.parseInstant(text).toString();
            } catch (java.time.format.DateTimeParseException e) {
                actual = "rejected";
            }
            assertThat(actual).as(text).isEqualTo(expected);
        }
    }

    private static final String[] FIELDS = {
        RecordFields.VERSION,
        RecordFields.DETECTOR,
        RecordFields.TS,
        RecordFields.FLOW,
        RecordFields.SPEED,
        RecordFields.SEQ,
        RecordFields.SENT_NS,
        RecordFields.INTENDED_NS,
        RecordFields.WARMUP,
        "lane_count",
        "meta"
    };

    @Test
    void bothReadersAgreeOnValidReadingsAndTheirCorruptions() {
        Random random = new Random(20180301L);
        int accepted = 0;
        int rejected = 0;
        for (int i = 0; i < 300; i++) {
            String valid = new String(RecordJson.write(randomReading(random)), StandardCharsets.UTF_8);
            for (String json : corruptions(valid, random)) {
                if (agree(json.getBytes(StandardCharsets.UTF_8))) {
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

    @Test
    void randomBytesAreNeverAcceptedByEitherReader() {
        Random random = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            byte[] garbage = new byte[1 + random.nextInt(300)];
            random.nextBytes(garbage);
            if (i % 2 == 0) {
                garbage[0] = '{';
            }
            assertThat(agree(garbage)).isFalse();
        }
    }

    /** True when both accept (with the same reading), false when both reject; fails otherwise. */
    private static boolean agree(byte[] bytes) {
        ReadingRecord byTree;
        try {
            byTree = RecordJson.readReadingByTree(bytes);
        } catch (RecordFormatException e) {
            byTree = null;
        }
        ReadingRecord streamed = bytes.length == 0 || bytes.length > RecordJson.MAX_RECORD_BYTES || !utf8(bytes)
                ? null
                : RecordJson.streamValidReading(bytes);
        String json = new String(bytes, StandardCharsets.UTF_8);
        if (byTree == null) {
            assertThat(streamed).as("accepted by the stream only: %s", json).isNull();
            return false;
        }
        assertThat(streamed).as("accepted by the tree only: %s", json).isNotNull();
        assertThat(describe(streamed)).as(json).isEqualTo(describe(byTree));
        return true;
    }

    private static boolean utf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes));
            return true;
        } catch (java.nio.charset.CharacterCodingException e) {
            return false;
        }
    }

    /** The record with its arrays by value (a record's equals compares arrays by reference). */
    private static String describe(ReadingRecord r) {
        return r.detector() + " " + r.ts() + " " + Arrays.toString(r.flow()) + " " + Arrays.toString(r.speed()) + " "
                + r.seq() + " " + r.sentNs() + " " + r.intendedNs() + " " + r.warmup();
    }

    private static ReadingRecord randomReading(Random random) {
        double[] flow = new double[ReadingRecord.WINDOW];
        double[] speed = new double[ReadingRecord.WINDOW];
        for (int k = 0; k < ReadingRecord.WINDOW; k++) {
            flow[k] = random.nextInt(5) == 0 ? random.nextDouble() * RecordJson.MAX_FLOW : random.nextInt(2_001);
            speed[k] = random.nextInt(6) == 0 ? Double.NaN : random.nextDouble() * RecordJson.MAX_SPEED;
        }
        return new ReadingRecord(
                1 + random.nextInt(1_000_000),
                Instant.parse("2018-03-01T08:55:00Z").plusSeconds(300L * random.nextInt(10_000)),
                flow,
                speed,
                random.nextInt(1_000_000),
                random.nextLong(),
                random.nextLong(),
                random.nextBoolean());
    }

    /** The valid record itself and a set of one-step corruptions of it. */
    private static List<String> corruptions(String valid, Random random) {
        List<String> out = new ArrayList<>();
        out.add(valid);
        String body = valid.substring(1, valid.length() - 1);
        for (int k = 0; k < 8; k++) {
            String field = FIELDS[random.nextInt(FIELDS.length)];
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
}
