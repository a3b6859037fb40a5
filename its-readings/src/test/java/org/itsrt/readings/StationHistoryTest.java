package org.itsrt.readings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class StationHistoryTest {

    private static final Instant T0 = Instant.parse("2018-03-11T08:00:00Z");

    private static Reading reading(int step, double flow, Double speed) {
        return new Reading(
                764598, T0.plus(Reading.INTERVAL.multipliedBy(step)), flow, speed, 100.0, 5, Reading.SOURCE_REPORT);
    }

    @Test
    void offersTheLastWindowOldestFirstOnceFull() {
        StationHistory history = new StationHistory(3);
        history.add(reading(0, 10, 60.0));
        history.add(reading(1, 11, 61.0));
        assertThat(history.isFull()).isFalse();
        history.add(reading(2, 12, null));
        history.add(reading(3, 13, 63.0));
        assertThat(history.isFull()).isTrue();
        assertThat(history.flows()).containsExactly(11, 12, 13);
        assertThat(history.speeds()).containsExactly(61.0, Double.NaN, 63.0);
        assertThat(history.newest()).isEqualTo(T0.plus(Reading.INTERVAL.multipliedBy(3)));
    }

    @Test
    void aGapStartsTheWindowOver() {
        StationHistory history = new StationHistory(2);
        history.add(reading(0, 1, 60.0));
        history.add(reading(1, 2, 60.0));
        history.add(reading(3, 4, 60.0));
        assertThat(history.isFull()).isFalse();
        assertThat(history.restarts()).isEqualTo(1);
        assertThatThrownBy(history::flows)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("1 of 2");
        history.add(reading(4, 5, 60.0));
        assertThat(history.flows()).containsExactly(4, 5);
    }

    @Test
    void refusesReadingsOutOfOrder() {
        StationHistory history = new StationHistory(2);
        history.add(reading(1, 1, 60.0));
        assertThatThrownBy(() -> history.add(reading(1, 1, 60.0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not after");
    }
}
