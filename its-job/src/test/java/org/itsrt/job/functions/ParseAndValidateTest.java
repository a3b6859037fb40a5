package org.itsrt.job.functions;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.ValidReading;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordJson;
import org.junit.jupiter.api.Test;

class ParseAndValidateTest {

    private static final long[] STUDY = {716847, 717731, 718155, 764598, 774445, 774614};

    private static ReadingRecord reading(long detector) {
        double[] flow = new double[12];
        double[] speed = new double[12];
        Arrays.fill(flow, 300);
        Arrays.fill(speed, Double.NaN);
        return new ReadingRecord(detector, Instant.parse("2018-03-05T17:00:00Z"), flow, speed, 3, 100, 90);
    }

    @Test
    void passesValidReadingsAndDeadLettersTheRestWithoutThrowing() throws Exception {
        OneInputStreamOperatorTestHarness<RawReading, ValidReading> harness =
                ProcessFunctionTestHarnesses.forProcessFunction(new ParseAndValidate(STUDY));
        try {
            harness.processElement(new RawReading("in", 0, 10, RecordJson.write(reading(764598))), 0);
            harness.processElement(new RawReading("in", 0, 11, RecordJson.write(reading(42))), 0);
            harness.processElement(new RawReading("in", 1, 12, "{".getBytes(StandardCharsets.UTF_8)), 0);
            harness.processElement(new RawReading("in", 1, 13, null), 0);

            List<ValidReading> valid = harness.extractOutputValues();
            assertThat(valid).hasSize(1);
            ValidReading r = valid.get(0);
            assertThat(r.detector).isEqualTo(764598);
            assertThat(r.seq).isEqualTo(3);
            assertThat(r.sentNs).isEqualTo(100);
            assertThat(r.intendedNs).isEqualTo(90);
            assertThat(r.lastFlow()).isEqualTo(300);
            assertThat(r.lastSpeed()).isNaN();
            assertThat(r.parseNs).isPositive();
            assertThat(r.source.offset)
                    .as("the original record, for the sequence check")
                    .isEqualTo(10);

            List<DeadLetter> dead = harness.getSideOutput(ParseAndValidate.DEAD_LETTERS).stream()
                    .map(StreamRecord::getValue)
                    .toList();
            assertThat(dead).hasSize(3);
            assertThat(dead.get(0).reason).isEqualTo("unknown detector: 42 is not in the routing graph");
            assertThat(dead.get(1).reason).startsWith("truncated JSON: ");
            assertThat(dead.get(2).reason).isEqualTo("record has no value");
            assertThat(dead).extracting(d -> d.sourcePartition).containsExactly(0, 1, 1);
            assertThat(dead).extracting(d -> d.sourceOffset).containsExactly(11L, 12L, 13L);
            assertThat(dead.get(1).value).isEqualTo("{".getBytes(StandardCharsets.UTF_8));
        } finally {
            harness.close();
        }
    }

    /** Each hostile input -> the category its reason must start with; none may throw. */
    @Test
    void everyKindOfHostileInputIsADeadLetterNamingItsProblem() throws Exception {
        String valid = new String(RecordJson.write(reading(764598)), StandardCharsets.UTF_8);
        byte[] invalidUtf8 = valid.getBytes(StandardCharsets.UTF_8);
        invalidUtf8[valid.indexOf("2018")] = (byte) 0xFF;
        byte[] garbage = new byte[512];
        new java.util.Random(3).nextBytes(garbage);
        garbage[0] = (byte) 0xFE;
        java.util.Map<String, byte[]> cases = new java.util.LinkedHashMap<>();
        cases.put("empty record: ", new byte[0]);
        cases.put("record too large: ", utf8(valid.replace("}", ",\"pad\":\"" + "x".repeat(900_000) + "\"}")));
        cases.put("truncated JSON: ", utf8(valid.substring(0, valid.length() / 2)));
        cases.put("JSON nested too deep: ", utf8("{\"v\":1,\"x\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}"));
        cases.put(
                "field flow: has 100000 values",
                utf8(valid.replaceFirst("\"flow\":\\[[^]]*]", "\"flow\":[" + "1,".repeat(99_999) + "1]")));
        cases.put("duplicate field: 'seq'", utf8(valid.replace("\"seq\":3", "\"seq\":3,\"seq\":2")));
        cases.put("non-finite number: ", utf8(valid.replaceFirst("\"flow\":\\[300", "\"flow\":[NaN")));
        cases.put("field flow: [0] out of range", utf8(valid.replaceFirst("\"flow\":\\[300", "\"flow\":[1e308")));
        cases.put("field detector: not an integer", utf8(valid.replace("764598", "\"764598\"")));
        cases.put("field v: unsupported version", utf8(valid.replace("\"v\":1", "\"v\":99")));
        cases.put(
                "unknown detector: 9223372036854775807", utf8(valid.replace("764598", Long.toString(Long.MAX_VALUE))));
        OneInputStreamOperatorTestHarness<RawReading, ValidReading> harness =
                ProcessFunctionTestHarnesses.forProcessFunction(new ParseAndValidate(STUDY));
        try {
            int offset = 0;
            for (byte[] value : cases.values()) {
                harness.processElement(new RawReading("in", 0, offset++, value), 0);
            }
            harness.processElement(new RawReading("in", 0, offset, invalidUtf8), 0);
            harness.processElement(new RawReading("in", 0, offset + 1, garbage), 0);
            assertThat(harness.extractOutputValues()).isEmpty();
            List<DeadLetter> dead = harness.getSideOutput(ParseAndValidate.DEAD_LETTERS).stream()
                    .map(StreamRecord::getValue)
                    .toList();
            List<String> expected = new java.util.ArrayList<>(cases.keySet());
            expected.add("not UTF-8: ");
            expected.add("not UTF-8: ");
            assertThat(dead).hasSize(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                assertThat(dead.get(i).reason).as("record %d", i).startsWith(expected.get(i));
                assertThat(dead.get(i).sourceOffset).isEqualTo(i);
            }
        } finally {
            harness.close();
        }
    }

    @Test
    void aDeadLetterTooLargeForTheSinkIsTruncatedAndSaysSo() {
        byte[] huge = new byte[DeadLetter.MAX_VALUE_BYTES + 5_000];
        DeadLetter letter = new DeadLetter(new RawReading("in", 0, 1, huge), "record too large: x");
        assertThat(letter.value).hasSize(DeadLetter.MAX_VALUE_BYTES);
        assertThat(letter.reason)
                .isEqualTo("record too large: x (dead letter truncated to its first " + DeadLetter.MAX_VALUE_BYTES
                        + " of " + huge.length + " bytes)");
        byte[] fits = new byte[900 * 1024];
        assertThat(new DeadLetter(new RawReading("in", 0, 1, fits), "r").value).isSameAs(fits);
        assertThat(new DeadLetter(new RawReading("in", 0, 1, fits), "r".repeat(5_000)).reason)
                .hasSize(DeadLetter.MAX_REASON_CHARS + 3);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
