package org.itsrt.job.deadline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeadlinesTest {

    @Test
    void aDeadlineIsTheCreateTimePlusTheSloInMicroseconds() {
        assertThat(Deadlines.deadlineMicros(1_700_000_000_000L, 50)).isEqualTo(1_700_000_000_050_000L);
    }

    @Test
    void aRecordWithoutTimestampOrARunWithoutDeadlinesHasNone() {
        assertThat(Deadlines.deadlineMicros(-1, 50)).isEqualTo(Deadlines.NONE);
        assertThat(Deadlines.deadlineMicros(1_700_000_000_000L, 0)).isEqualTo(Deadlines.NONE);
        assertThat(Deadlines.slackNanos(Deadlines.NONE, 5)).isEqualTo(Long.MAX_VALUE);
        assertThat(Deadlines.expired(Deadlines.NONE, Long.MAX_VALUE - 1)).isFalse();
    }

    @Test
    void slackIsNanosecondsLeftAndNegativeOncePast() {
        long deadline = 1_000_000L;
        assertThat(Deadlines.slackNanos(deadline, 999_900L)).isEqualTo(100_000L);
        assertThat(Deadlines.slackNanos(deadline, deadline)).isZero();
        assertThat(Deadlines.slackNanos(deadline, 1_000_250L)).isEqualTo(-250_000L);
        assertThat(Deadlines.expired(deadline, deadline)).isFalse();
        assertThat(Deadlines.expired(deadline, deadline + 1)).isTrue();
    }

    @Test
    void theWallClockIsInEpochMicroseconds() {
        long before = System.currentTimeMillis() * 1_000;
        long now = Deadlines.nowMicros();
        long after = (System.currentTimeMillis() + 1) * 1_000;
        assertThat(now).isBetween(before, after);
    }
}
