package org.itsrt.probe.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SequenceTrackerTest {

    @Test
    void findsLostDuplicatedAndReorderedRecordsPerDetector() {
        SequenceTracker t = new SequenceTracker();
        // Detector 1: 0 1 3 2 2 5 -> lost 4, dup 2, reordered 2.
        long[] seqs = {0, 1, 3, 2, 2, 5};
        SequenceTracker.Outcome[] expected = {
            SequenceTracker.Outcome.IN_ORDER, SequenceTracker.Outcome.IN_ORDER, SequenceTracker.Outcome.IN_ORDER,
            SequenceTracker.Outcome.REORDERED, SequenceTracker.Outcome.DUPLICATE, SequenceTracker.Outcome.IN_ORDER
        };
        for (int i = 0; i < seqs.length; i++) {
            assertThat(t.record(1, seqs[i])).isEqualTo(expected[i]);
        }
        // Detector 2: 1 1 1 -> seq 0 lost, two duplicates.
        t.record(2, 1);
        t.record(2, 1);
        t.record(2, 1);
        // Detector 3: perfect.
        for (int s = 0; s < 4; s++) {
            t.record(3, s);
        }

        assertThat(t.perDetector())
                .containsExactly(
                        new SequenceTracker.DetectorCounts(1, 6, 5, 5, 1, 1, 1),
                        new SequenceTracker.DetectorCounts(2, 3, 1, 1, 1, 2, 0),
                        new SequenceTracker.DetectorCounts(3, 4, 4, 3, 0, 0, 0));
        assertThat(t.total()).isEqualTo(new SequenceTracker.DetectorCounts(-1, 13, 10, 5, 2, 3, 1));
    }

    @Test
    void aDuplicateOfAnOldSeqIsADuplicateNotAReorder() {
        SequenceTracker t = new SequenceTracker();
        t.record(7, 0);
        t.record(7, 1);
        assertThat(t.record(7, 0)).isEqualTo(SequenceTracker.Outcome.DUPLICATE);
        assertThat(t.total().reordered()).isZero();
    }

    @Test
    void shortfallComparesWithWhatTheProducersSent() {
        SequenceTracker t = new SequenceTracker();
        for (int s = 0; s < 10; s++) {
            t.record(1, s);
            t.record(1, s);
        }
        // Lost at the end is invisible to seqs alone: only the announced count shows it.
        assertThat(t.total().lost()).isZero();
        assertThat(t.shortfall(12)).isEqualTo(2);
        assertThat(t.shortfall(5)).isZero();
    }

    @Test
    void aSeqIsLostOnlyBelowTheHighestOfItsDetectorAndNeverReceived() {
        SequenceTracker tracker = new SequenceTracker();
        tracker.record(7, 0);
        tracker.record(7, 2);
        assertThat(tracker.isLost(7, 1)).isTrue();
        assertThat(tracker.isLost(7, 0)).isFalse();
        assertThat(tracker.isLost(7, 2)).isFalse();
        assertThat(tracker.isLost(7, 3))
                .as("above the highest: not sent yet, for all it tells")
                .isFalse();
        assertThat(tracker.isLost(8, 0)).as("a detector that never delivered").isFalse();
    }
}
