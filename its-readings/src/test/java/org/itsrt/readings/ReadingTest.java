package org.itsrt.readings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.Test;

class ReadingTest {

    private static final Instant TS = Instant.parse("2018-03-11T10:00:00Z");

    @Test
    void localTimeIsPacificWithTheOffsetInForce() {
        Reading reading = new Reading(764598, TS, 137, 71.4, 100.0, 5, Reading.SOURCE_REPORT);
        assertThat(reading.tsLocal()).isEqualTo(OffsetDateTime.parse("2018-03-11T03:00:00-07:00"));
        assertThat(new Reading(764598, TS.minus(Reading.INTERVAL), 1, null, null, 5, Reading.SOURCE_REPORT).tsLocal())
                .isEqualTo(OffsetDateTime.parse("2018-03-11T01:55:00-08:00"));
    }

    @Test
    void knowsTheSourceLabelsOfTheTable() {
        assertThat(Reading.isKnownSource("pems-report")).isTrue();
        assertThat(Reading.isKnownSource("pems-report-flow-only")).isTrue();
        assertThat(Reading.isKnownSource("pems-clearinghouse")).isTrue();
        assertThat(Reading.isKnownSource("synthetic:seed=42")).isTrue();
        assertThat(Reading.isKnownSource("synthetic")).isFalse();
        assertThat(Reading.isKnownSource("PeMS")).isFalse();
        assertThat(new Reading(1, TS, 0, null, null, 1, Reading.syntheticSource(42)).isSynthetic())
                .isTrue();
    }

    @Test
    void refusesValuesTheTableCannotHold() {
        assertThatThrownBy(() -> new Reading(1, TS.plusSeconds(60), 1, null, null, 1, Reading.SOURCE_REPORT))
                .hasMessageContaining("5-minute");
        assertThatThrownBy(() -> new Reading(1, TS, -1, null, null, 1, Reading.SOURCE_REPORT))
                .hasMessageContaining("flow");
        assertThatThrownBy(() -> new Reading(1, TS, Double.NaN, null, null, 1, Reading.SOURCE_REPORT))
                .hasMessageContaining("flow");
        assertThatThrownBy(() -> new Reading(1, TS, 1, -0.5, null, 1, Reading.SOURCE_REPORT))
                .hasMessageContaining("speed");
        assertThatThrownBy(() -> new Reading(1, TS, 1, null, 100.1, 1, Reading.SOURCE_REPORT))
                .hasMessageContaining("pct_observed");
        assertThatThrownBy(() -> new Reading(1, TS, 1, null, null, 0, Reading.SOURCE_REPORT))
                .hasMessageContaining("lanes");
        assertThatThrownBy(() -> new Reading(1, TS, 1, null, null, 1, "somewhere"))
                .hasMessageContaining("source");
    }
}
