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

    @Test
    void theInstantShortcutReadsWhatInstantParseReads() {
        List<String> texts = new ArrayList<>(Arrays.asList(RecordCorruptions.INSTANTS));
        Random random = new Random(5);
        for (int i = 0; i < 5_000; i++) {
            Instant instant = Instant.ofEpochSecond(Math.floorMod(random.nextLong(), 253_402_300_800L));
            texts.add(instant.toString());
            // With a fraction of each length Instant.toString writes (3, 6 or 9 digits) and others.
            texts.add(instant.plusNanos(random.nextInt(1_000_000_000)).toString());
            texts.add(instant.plusMillis(random.nextInt(1_000)).toString());
            texts.add(instant.plusNanos(1_000L * random.nextInt(1_000_000)).toString());
            texts.add(instant.toString().replace("Z", "." + random.nextInt(100_000) + "Z"));
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
        RecordCorruptions.holdToEachOther(
                random -> new String(RecordJson.write(randomReading(random)), StandardCharsets.UTF_8),
                FIELDS,
                json -> agree(json.getBytes(StandardCharsets.UTF_8)),
                new Random(20180301L));
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
}
