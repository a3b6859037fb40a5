package org.itsrt.readings.pems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class PacificTimeResolverTest {

    @Test
    void ordinaryTimesTakeTheOffsetInForce() throws RowProblem {
        PacificTimeResolver times = new PacificTimeResolver();
        assertThat(times.toInstant(LocalDateTime.parse("2018-03-01T00:00"), "t"))
                .isEqualTo(Instant.parse("2018-03-01T08:00:00Z"));
        assertThat(times.toInstant(LocalDateTime.parse("2018-07-01T00:00"), "t"))
                .isEqualTo(Instant.parse("2018-07-01T07:00:00Z"));
    }

    @Test
    void theSpringGapDoesNotExist() throws RowProblem {
        PacificTimeResolver times = new PacificTimeResolver();
        assertThat(times.toInstant(LocalDateTime.parse("2018-03-11T01:55"), "t"))
                .isEqualTo(Instant.parse("2018-03-11T09:55:00Z"));
        assertThatThrownBy(() -> times.toInstant(LocalDateTime.parse("2018-03-11T02:00"), "'5 Minutes' (A7)"))
                .isInstanceOfSatisfying(RowProblem.class, problem -> {
                    assertThat(problem.isMalformed()).isTrue();
                    assertThat(problem.column()).isEqualTo("'5 Minutes' (A7)");
                    assertThat(problem.reason()).isEqualTo("time in the DST gap");
                    assertThat(problem.detail()).contains("2018-03-11T02:00", "does not exist");
                });
        assertThat(times.toInstant(LocalDateTime.parse("2018-03-11T03:00"), "t"))
                .isEqualTo(Instant.parse("2018-03-11T10:00:00Z"));
    }

    @Test
    void inTheAutumnOverlapTheFirstOccurrenceIsDaylightTimeAndARepeatStandardTime() throws RowProblem {
        PacificTimeResolver times = new PacificTimeResolver();
        LocalDateTime oneThirty = LocalDateTime.parse("2018-11-04T01:30");
        assertThat(times.toInstant(oneThirty, "t")).isEqualTo(Instant.parse("2018-11-04T08:30:00Z"));
        assertThat(times.toInstant(oneThirty, "t")).isEqualTo(Instant.parse("2018-11-04T09:30:00Z"));
        assertThat(times.toInstant(oneThirty, "t")).isEqualTo(Instant.parse("2018-11-04T09:30:00Z"));

        PacificTimeResolver anotherFile = new PacificTimeResolver();
        assertThat(anotherFile.toInstant(oneThirty, "t")).isEqualTo(Instant.parse("2018-11-04T08:30:00Z"));
    }
}
