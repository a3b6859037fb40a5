package org.itsrt.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RecordJsonTest {

    private static ReadingRecord sample() {
        double[] flow = new double[12];
        double[] speed = new double[12];
        for (int i = 0; i < 12; i++) {
            flow[i] = 300 + i;
            speed[i] = i == 3 ? Double.NaN : 61.5 + i;
        }
        return new ReadingRecord(
                764598, Instant.parse("2018-03-01T08:55:00Z"), flow, speed, 17, 123_456_789L, 123_000_000L);
    }

    @Test
    void readingRoundTripsWithUnknownSpeedAsNull() throws Exception {
        ReadingRecord original = sample();
        byte[] json = RecordJson.write(original);

        assertThat(new String(json, StandardCharsets.UTF_8))
                .startsWith("{\"v\":1,\"detector\":764598,")
                .contains("\"speed\":[61.5,62.5,63.5,null,");
        ReadingRecord read = RecordJson.readReading(json);
        assertThat(read.detector()).isEqualTo(764598);
        assertThat(read.ts()).isEqualTo(original.ts());
        assertThat(read.flow()).containsExactly(original.flow());
        assertThat(Arrays.toString(read.speed())).isEqualTo(Arrays.toString(original.speed()));
        assertThat(read.seq()).isEqualTo(17);
        assertThat(read.sentNs()).isEqualTo(123_456_789L);
        assertThat(read.intendedNs()).isEqualTo(123_000_000L);
    }

    @Test
    void adviceRoundTrips() throws Exception {
        AdviceRecord advice = new AdviceRecord(
                764598,
                3,
                10,
                9,
                312.25,
                "lstm-flow/kernel",
                List.of(764598L, 717731L, 774445L),
                699.5,
                1_000,
                150_000,
                5_000);
        assertThat(RecordJson.readAdvice(RecordJson.write(advice))).isEqualTo(advice);
    }

    @Test
    void theWarmupFlagRoundTripsAndIsWrittenOnlyWhenTrue() throws Exception {
        ReadingRecord measured = sample();
        ReadingRecord warmup = measured.withWarmup(true);

        assertThat(new String(RecordJson.write(measured), StandardCharsets.UTF_8))
                .doesNotContain("warmup");
        assertThat(new String(RecordJson.write(warmup), StandardCharsets.UTF_8))
                .endsWith(",\"intended_ns\":123000000,\"warmup\":true}");
        assertThat(RecordJson.readReading(RecordJson.write(warmup)).warmup()).isTrue();
        assertThat(RecordJson.readReading(RecordJson.write(measured)).warmup()).isFalse();
        assertThat(RecordJson.readReading(RecordJson.write(warmup.stamped(5, 4)))
                        .warmup())
                .as("stamping keeps the flag")
                .isTrue();

        AdviceRecord advice = new AdviceRecord(
                764598, 3, 10, 9, 312.25, "lstm-flow/kernel", List.of(764598L), 0.0, 1, 2, 3, true, false);
        assertThat(new String(RecordJson.write(advice), StandardCharsets.UTF_8)).endsWith(",\"warmup\":true}");
        assertThat(RecordJson.readAdvice(RecordJson.write(advice))).isEqualTo(advice);
    }

    @Test
    void anExplicitFalseFlagIsAMeasuredRecord() throws Exception {
        String json = VALID.replace("\"seq\":3", "\"seq\":3,\"warmup\":false");
        assertThat(RecordJson.readReading(json.getBytes(StandardCharsets.UTF_8)).warmup())
                .isFalse();
    }

    @ParameterizedTest(name = "warmup {0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "\"true\" | field warmup: not a boolean: \"true\"",
                "1 | field warmup: not a boolean: 1",
                "null | field warmup: not a boolean: null",
                "[true] | field warmup: not a boolean: [true]",
            })
    void aWarmupFlagThatIsNotABooleanIsRejected(String value, String reason) {
        String reading = VALID.replace("\"seq\":3", "\"seq\":3,\"warmup\":" + value);
        assertThatThrownBy(() -> RecordJson.readReading(reading.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(RecordFormatException.class)
                .hasMessage(reason);
        String advice = new String(
                        RecordJson.write(new AdviceRecord(5, 3, 10, 9, 1.0, "m", List.of(5L), 0.0, 1, 2, 3)),
                        StandardCharsets.UTF_8)
                .replace("}", ",\"warmup\":" + value + "}");
        assertThatThrownBy(() -> RecordJson.readAdvice(advice.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(RecordFormatException.class)
                .hasMessage(reason);
    }

    private static final String VALID = "{\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\","
            + "\"flow\":[1,2,3,4,5,6,7,8,9,10,11,12],\"speed\":[1,2,3,4,5,6,7,8,9,10,11,12],"
            + "\"seq\":3,\"sent_ns\":10,\"intended_ns\":9}";

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not json | {\"v\":1,x | not valid JSON: ",
                "truncated | {\"v\":1, | truncated JSON: ",
                "trailing content | {\"v\":1} {} | not valid JSON: ",
                "array | [1,2] | not a JSON object: array",
                "no version | {\"detector\":1} | field v: missing",
                "wrong version | {\"v\":2} | field v: unsupported version 2, expected 1",
                "text version | {\"v\":\"1\"} | field v: unsupported version \"1\"",
                "no detector | {\"v\":1,\"ts\":\"2018-03-01T08:55:00Z\"} | field detector: missing",
                "text detector | {\"v\":1,\"detector\":\"5\"} | field detector: not an integer: \"5\"",
                "huge detector | {\"v\":1,\"detector\":99999999999999999999999} | field detector: out of the 64-bit range",
                "negative detector | {\"v\":1,\"detector\":-5} | field detector: must be positive: -5",
                "bad ts | {\"v\":1,\"detector\":5,\"ts\":\"yesterday\"} | field ts: not an ISO-8601",
                "number ts | {\"v\":1,\"detector\":5,\"ts\":17} | field ts: not a string: 17",
                "flow not an array | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":{}} | field flow: not an array of 12",
                "short flow | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2]} | field flow: has 2 values, expected 12",
                "null flow | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2,3,4,5,6,7,8,9,10,11,null]} | field flow: [11] is not a number: null",
                "text flow | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2,3,4,5,6,7,8,9,10,11,\"3\"]} | field flow: [11] is not a number: \"3\"",
                "negative flow | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2,3,4,5,6,7,8,9,10,11,-1]} | field flow: [11] out of range 0..2000: -1",
                "1e308 flow | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2,3,4,5,6,7,8,9,10,11,1e308]} | field flow: [11] out of range 0..2000: 1.0E308",
                "1e999 flow | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2,3,4,5,6,7,8,9,10,11,1e999]} | field flow: [11] out of range 0..2000",
                "NaN flow | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2,3,4,5,6,7,8,9,10,11,NaN]} | non-finite number: ",
                "Infinity speed | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2,3,4,5,6,7,8,9,10,11,12],\"speed\":[1,2,3,4,5,6,7,8,9,10,11,Infinity]} | non-finite number: ",
                "-Infinity speed | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2,3,4,5,6,7,8,9,10,11,12],\"speed\":[1,2,3,4,5,6,7,8,9,10,11,-Infinity]} | non-finite number: ",
                "absurd speed | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2,3,4,5,6,7,8,9,10,11,12],\"speed\":[1,2,3,4,5,6,7,8,9,10,11,500]} | field speed: [11] out of range 0..120: 500",
                "no seq | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2,3,4,5,6,7,8,9,10,11,12],\"speed\":[1,2,3,4,5,6,7,8,9,10,11,12]} | field seq: missing",
                "fractional seq | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2,3,4,5,6,7,8,9,10,11,12],\"speed\":[1,2,3,4,5,6,7,8,9,10,11,12],\"seq\":1.5} | field seq: not an integer: 1.5",
                "duplicate key | {\"v\":1,\"detector\":5,\"detector\":6} | duplicate field: 'detector'",
            })
    void badRecordsNameTheirProblem(String name, String json, String reason) {
        assertThatThrownBy(() -> RecordJson.readReading(json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(RecordFormatException.class)
                .hasMessageStartingWith(reason);
    }

    @Test
    void theValidRecordOfTheseTestsIsValid() throws Exception {
        assertThat(RecordJson.readReading(VALID.getBytes(StandardCharsets.UTF_8))
                        .seq())
                .isEqualTo(3);
    }

    @Test
    void extraFieldsAreIgnored() throws Exception {
        String json = VALID.replace("\"seq\":3", "\"seq\":3,\"lane_count\":4,\"meta\":{\"src\":[1,2,{\"x\":null}]}");
        ReadingRecord read = RecordJson.readReading(json.getBytes(StandardCharsets.UTF_8));
        assertThat(read.seq()).isEqualTo(3);
        assertThat(read.flow()).hasSize(12);
    }

    @Test
    void aDuplicateKeyIsRejectedEvenWithTheSameValue() {
        String json = VALID.replace("\"seq\":3", "\"seq\":3,\"seq\":3");
        assertThatThrownBy(() -> RecordJson.readReading(json.getBytes(StandardCharsets.UTF_8)))
                .hasMessage("duplicate field: 'seq'");
    }

    @Test
    void aReasonCarriesNoParserLocationNotes() {
        assertThatThrownBy(() -> RecordJson.readReading("{\"v\":[1,".getBytes(StandardCharsets.UTF_8)))
                .hasMessageStartingWith("truncated JSON: Unexpected end-of-input")
                .hasMessageNotContaining("Source");
    }

    @Test
    void anEmptyRecordIsRejected() {
        assertThatThrownBy(() -> RecordJson.readReading(new byte[0])).hasMessage("empty record: 0 bytes");
        assertThatThrownBy(() -> RecordJson.readReading(" ".getBytes(StandardCharsets.UTF_8)))
                .hasMessageStartingWith("not valid JSON: ");
    }

    @Test
    void aRecordAboveTheSizeLimitIsRejectedBeforeParsing() {
        byte[] big = (VALID.replace("}", ",\"pad\":\"" + "x".repeat(RecordJson.MAX_RECORD_BYTES) + "\"}"))
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> RecordJson.readReading(big))
                .hasMessage("record too large: " + big.length + " bytes, the limit is " + RecordJson.MAX_RECORD_BYTES);
    }

    @Test
    void aLongArrayBelowTheSizeLimitIsRejectedByItsLength() {
        String flow = "[" + "1,".repeat(99_999) + "1]";
        String json = VALID.replace("\"flow\":[1,2,3,4,5,6,7,8,9,10,11,12]", "\"flow\":" + flow);
        assertThatThrownBy(() -> RecordJson.readReading(json.getBytes(StandardCharsets.UTF_8)))
                .hasMessage("field flow: has 100000 values, expected 12");
    }

    @Test
    void deepNestingIsRejectedByTheDepthLimit() {
        String json = "{\"v\":1,\"x\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";
        assertThatThrownBy(() -> RecordJson.readReading(json.getBytes(StandardCharsets.UTF_8)))
                .hasMessage("JSON nested too deep: more than " + RecordJson.MAX_NESTING_DEPTH
                        + " levels of objects and arrays");
        String shallow = VALID.replace("}", ",\"x\":" + "[".repeat(14) + "]".repeat(14) + "}");
        assertThat(shallow).isNotNull();
        assertThatCode(() -> RecordJson.readReading(shallow.getBytes(StandardCharsets.UTF_8)))
                .doesNotThrowAnyException();
    }

    @Test
    void invalidUtf8IsRejectedEvenInAFieldNobodyReads() {
        byte[] valid = VALID.replace("}", ",\"note\":\"ab\"}").getBytes(StandardCharsets.UTF_8);
        int at = new String(valid, StandardCharsets.UTF_8).indexOf("ab\"}");
        valid[at] = (byte) 0xC3;
        valid[at + 1] = (byte) 0x28;
        assertThatThrownBy(() -> RecordJson.readReading(valid))
                .hasMessage("not UTF-8: malformed byte sequence at byte " + at);
    }

    @Test
    void binaryGarbageIsRejected() {
        byte[] garbage = new byte[64];
        new java.util.Random(7).nextBytes(garbage);
        assertThatThrownBy(() -> RecordJson.readReading(garbage)).isInstanceOf(RecordFormatException.class);
        byte[] controls = {0, 1, 2, 3, 4};
        assertThatThrownBy(() -> RecordJson.readReading(controls)).hasMessageStartingWith("not valid JSON: ");
    }

    @Test
    void theCategoryIsThePartBeforeTheFirstColon() {
        assertThat(DeadLetterHeaders.category("field flow: [3] is not a number: null"))
                .isEqualTo("field flow");
        assertThat(DeadLetterHeaders.category("record has no value")).isEqualTo("record has no value");
    }
}
