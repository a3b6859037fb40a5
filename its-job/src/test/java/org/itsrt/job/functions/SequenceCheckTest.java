package org.itsrt.job.functions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.ValidReading;
import org.junit.jupiter.api.Test;

class SequenceCheckTest {

    private static ValidReading reading(long detector, long seq, long offset) {
        ValidReading r = new ValidReading();
        r.detector = detector;
        r.seq = seq;
        r.source = new RawReading("in", 0, offset, ("record at " + offset).getBytes());
        return r;
    }

    private static KeyedOneInputStreamOperatorTestHarness<Long, ValidReading, ValidReading> harness() throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new SequenceCheck()), r -> r.detector, Types.LONG);
    }

    @Test
    void passesIncreasingSeqsPerDetectorAndDeadLettersTheRestWithTheirOriginalBytes() throws Exception {
        try (var harness = harness()) {
            harness.open();
            long offset = 0;
            for (long[] input : new long[][] {{1, 0}, {2, 5}, {1, 1}, {1, 1}, {2, 3}, {1, 7}, {1, 2}, {2, 6}}) {
                harness.processElement(reading(input[0], input[1], offset++), 0);
            }
            assertThat(harness.extractOutputValues())
                    .extracting(r -> r.detector + "/" + r.seq)
                    .containsExactly("1/0", "2/5", "1/1", "1/7", "2/6");
            assertThat(harness.extractOutputValues())
                    .allSatisfy(r -> assertThat(r.source).isNull());
            List<DeadLetter> dead = harness.getSideOutput(ParseAndValidate.DEAD_LETTERS).stream()
                    .map(StreamRecord::getValue)
                    .toList();
            assertThat(dead)
                    .extracting(d -> d.reason)
                    .containsExactly(
                            "seq not increasing: 1 is not after 1, the last accepted seq of detector 1",
                            "seq not increasing: 3 is not after 5, the last accepted seq of detector 2",
                            "seq not increasing: 2 is not after 7, the last accepted seq of detector 1");
            assertThat(dead).extracting(d -> d.sourceOffset).containsExactly(3L, 4L, 6L);
            assertThat(dead.get(0).value).isEqualTo("record at 3".getBytes());
        }
    }

    @Test
    void theLastAcceptedSeqIsRestoredFromASnapshot() throws Exception {
        OperatorSubtaskState snapshot;
        try (var harness = harness()) {
            harness.open();
            harness.processElement(reading(1, 10, 0), 0);
            harness.processElement(reading(1, 4, 1), 0);
            snapshot = harness.snapshot(1, 1);
        }
        try (var restored = harness()) {
            restored.setup();
            restored.initializeState(snapshot);
            restored.open();
            restored.processElement(reading(1, 9, 2), 0);
            restored.processElement(reading(1, 11, 3), 0);
            assertThat(restored.extractOutputValues()).extracting(r -> r.seq).containsExactly(11L);
            assertThat(restored.getSideOutput(ParseAndValidate.DEAD_LETTERS)).hasSize(1);
        }
    }
}
