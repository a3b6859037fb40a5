package org.itsrt.producers.send;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The schedule of many sources over a few threads: exact times, each thread in order, every send once. */
class OpenLoopScheduleTest {

    private static final long START = 1_000_000_000_000L;

    /** One send of a slice, as the slice gave it. */
    private record Send(int thread, int source, long k, long intendedNs) {}

    private static List<Send> walk(OpenLoopSchedule schedule, int thread, int threads, long[] counts) {
        OpenLoopSchedule.Slice slice = schedule.slice(thread, threads, counts);
        List<Send> sends = new ArrayList<>();
        while (slice.advance()) {
            sends.add(new Send(thread, slice.source(), slice.k(), slice.intendedNs()));
        }
        return sends;
    }

    /** start + period * i / n + k * period, in exact integer arithmetic. */
    private static long expected(long period, int source, int sources, long k) {
        BigInteger offset =
                BigInteger.valueOf(period).multiply(BigInteger.valueOf(source)).divide(BigInteger.valueOf(sources));
        return BigInteger.valueOf(START)
                .add(offset)
                .add(BigInteger.valueOf(period).multiply(BigInteger.valueOf(k)))
                .longValueExact();
    }

    @ParameterizedTest(name = "{0} sources, {1} threads, {2} periods at {3} records/s each")
    @CsvSource({
        "6, 6, 5, 10", // the study: a thread per detector
        "7, 4, 4, 10",
        "500, 4, 3, 10",
        "4800, 4, 3, 10", // a district at 3,000x
        "4800, 3, 2, 0.0033333333333333335", // the real 5-minute cadence
        "5, 1, 3, 7", // one thread for all, a period that 5 does not divide
    })
    void everySendIsDueOnTimeInItsThreadsOrderAndOncePerPeriod(int n, int threads, int periods, double rate) {
        OpenLoopSchedule schedule = OpenLoopSchedule.of(START, rate, n);
        long period = Math.round(1e9 / rate);
        assertThat(schedule.periodNs()).isEqualTo(period);
        long[] counts = new long[n];
        java.util.Arrays.fill(counts, periods);

        Set<Long> seen = new HashSet<>();
        List<List<Send>> byThread = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<Send> sends = walk(schedule, t, threads, counts);
            byThread.add(sends);
            for (int j = 0; j < sends.size(); j++) {
                Send send = sends.get(j);
                assertThat(send.intendedNs())
                        .as("record %d of source %d", send.k(), send.source())
                        .isEqualTo(expected(period, send.source(), n, send.k()));
                assertThat(send.source() % threads)
                        .as("thread %d owns its slice", t)
                        .isEqualTo(t);
                if (j > 0) {
                    assertThat(send.intendedNs())
                            .as("thread %d's sends in the order of their intended times", t)
                            .isGreaterThanOrEqualTo(sends.get(j - 1).intendedNs());
                }
                assertThat(seen.add(send.source() * 1_000_000L + send.k()))
                        .as("source %d record %d sent once", send.source(), send.k())
                        .isTrue();
            }
        }
        assertThat(seen).as("every source's every record").hasSize(n * periods);
        // The threads share the sources evenly: their counts differ by one source at most.
        assertThat(byThread.stream().mapToInt(List::size).max().getAsInt()
                        - byThread.stream().mapToInt(List::size).min().getAsInt())
                .isLessThanOrEqualTo(periods);

        // Every period holds each source exactly once, spread evenly: in source order, and
        // neighbours apart by period / n, rounded down or up.
        for (int k = 0; k < periods; k++) {
            long from = START + k * period;
            List<Send> inPeriod = new ArrayList<>();
            for (List<Send> sends : byThread) {
                for (Send send : sends) {
                    if (send.intendedNs() >= from && send.intendedNs() < from + period) {
                        inPeriod.add(send);
                    }
                }
            }
            inPeriod.sort(java.util.Comparator.comparingLong(Send::intendedNs).thenComparingInt(Send::source));
            assertThat(inPeriod).extracting(Send::source).as("period %d", k).doesNotHaveDuplicates();
            assertThat(inPeriod).hasSize(n);
            for (int i = 0; i < n; i++) {
                assertThat(inPeriod.get(i).source()).isEqualTo(i);
                assertThat(inPeriod.get(i).k()).isEqualTo(k);
                long gap = (i + 1 < n ? inPeriod.get(i + 1).intendedNs() : from + period)
                        - inPeriod.get(i).intendedNs();
                assertThat(gap).isBetween(period / n, period / n + 1);
            }
        }
    }

    @Test
    void aSourceWhoseCountIsReachedIsSkippedAndTheOthersGoOn() {
        OpenLoopSchedule schedule = new OpenLoopSchedule(START, 1000, 4);
        List<Send> sends = walk(schedule, 0, 2, new long[] {3, 0, 1, 5});
        assertThat(sends).extracting(s -> s.source() + ":" + s.k()).containsExactly("0:0", "2:0", "0:1", "0:2");
        assertThat(walk(schedule, 1, 2, new long[] {3, 0, 1, 5}))
                .extracting(s -> s.source() + ":" + s.k())
                .containsExactly("3:0", "3:1", "3:2", "3:3", "3:4");
        assertThat(walk(schedule, 0, 1, new long[4])).isEmpty();
    }

    @Test
    void aVeryLongPeriodDoesNotOverflowTheOffsets() {
        // A rate of one record in ~30 years: period * source would overflow a long.
        OpenLoopSchedule schedule = new OpenLoopSchedule(0, 1_000_000_000_000_000_000L, 4800);
        assertThat(schedule.offsetNs(4799))
                .isEqualTo(BigInteger.valueOf(1_000_000_000_000_000_000L)
                        .multiply(BigInteger.valueOf(4799))
                        .divide(BigInteger.valueOf(4800))
                        .longValueExact());
    }

    @Test
    void aSliceOutsideTheThreadsOrAMismatchedCountIsRefused() {
        OpenLoopSchedule schedule = new OpenLoopSchedule(START, 1000, 3);
        assertThatThrownBy(() -> schedule.slice(2, 2, new long[3])).hasMessage("thread 2 of 2");
        assertThatThrownBy(() -> schedule.slice(0, 1, new long[2])).hasMessage("2 counts for 3 sources");
        assertThatThrownBy(() -> new OpenLoopSchedule(START, 0, 3)).hasMessageContaining("period must be positive");
    }
}
