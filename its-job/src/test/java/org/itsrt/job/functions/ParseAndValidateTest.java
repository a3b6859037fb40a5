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

            List<DeadLetter> dead = harness.getSideOutput(ParseAndValidate.DEAD_LETTERS).stream()
                    .map(StreamRecord::getValue)
                    .toList();
            assertThat(dead).hasSize(3);
            assertThat(dead.get(0).reason).isEqualTo("unknown detector 42: not in the routing graph");
            assertThat(dead.get(1).reason).startsWith("not valid JSON");
            assertThat(dead.get(2).reason).isEqualTo("record has no value");
            assertThat(dead).extracting(d -> d.sourcePartition).containsExactly(0, 1, 1);
            assertThat(dead).extracting(d -> d.sourceOffset).containsExactly(11L, 12L, 13L);
            assertThat(dead.get(1).value).isEqualTo("{".getBytes(StandardCharsets.UTF_8));
        } finally {
            harness.close();
        }
    }
}
