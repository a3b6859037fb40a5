package org.itsrt.probe.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.itsrt.probe.ManualClock;
import org.junit.jupiter.api.Test;

/** Marks on the latency clock: read directly, or placed through the wall clock for a faults file. */
class FaultMarksTest {

    private static final long START = 7_000_000_000_000L;

    @Test
    void aMarkNowReadsTheLatencyClock() {
        ManualClock clock = new ManualClock(START);
        FaultMarks marks = new FaultMarks(clock);
        clock.set(START + 12_345);

        FaultMark mark = marks.mark("  kill -9 jobmanager ");

        assertThat(mark.clockNs()).isEqualTo(START + 12_345);
        assertThat(mark.label()).isEqualTo("kill -9 jobmanager");
        assertThat(marks.all()).containsExactly(mark);
    }

    @Test
    void aWallClockTimeIsPlacedOnTheLatencyClockByTheAnchor() {
        ManualClock clock = new ManualClock(START);
        Instant before = Instant.now();
        FaultMarks marks = new FaultMarks(clock);
        Instant after = Instant.now();

        FaultMark mark = marks.at(before.plusSeconds(30), "stop broker 1");

        // The anchor was read between before and after: the mark is 30 s later on the latency clock,
        // less the time the anchor was taken after 'before'.
        long slack = java.time.Duration.between(before, after).toNanos();
        assertThat(mark.clockNs()).isBetween(START + 30_000_000_000L - slack, START + 30_000_000_000L);
        assertThat(mark.at()).isEqualTo(before.plusSeconds(30));
    }

    @Test
    void marksFromManyThreadsAreAllKeptInTimeOrder() throws Exception {
        ManualClock clock = new ManualClock(START, 1);
        FaultMarks marks = new FaultMarks(clock);
        int threads = 8;
        int each = 200;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < each; i++) {
                    marks.mark("thread " + id + " fault " + i);
                }
            });
            thread.start();
            started.add(thread);
        }
        go.countDown();
        for (Thread thread : started) {
            thread.join();
        }

        List<FaultMark> all = marks.all();
        assertThat(all).hasSize(threads * each);
        assertThat(all).isSortedAccordingTo(java.util.Comparator.comparingLong(FaultMark::clockNs));
        assertThat(all.stream().mapToLong(FaultMark::clockNs).distinct().count())
                .isEqualTo(threads * each);
        assertThat(all.get(0).clockNs()).isCloseTo(START, within((long) threads * each + 1));
    }

    @Test
    void aFaultThatLastsGetsItsEndOnTheLatencyClockInPlaceOfItsMark() {
        ManualClock clock = new ManualClock(START);
        FaultMarks marks = new FaultMarks(clock);
        clock.set(START + 1_000);
        FaultMark stop = marks.mark("stop broker 1");
        clock.set(START + 2_000);
        FaultMark other = marks.mark("kill -9 taskmanager-1");
        clock.set(START + 21_000);

        FaultMark ended = marks.end(stop);

        assertThat(ended.end().clockNs()).isEqualTo(START + 21_000);
        assertThat(ended.lengthNs()).isEqualTo(20_000);
        assertThat(ended.label()).isEqualTo(stop.label());
        assertThat(marks.all()).containsExactly(ended, other);
    }

    @Test
    void aFaultEndsOnceAndOnlyAMarkOfTheRunCanEnd() {
        ManualClock clock = new ManualClock(START);
        FaultMarks marks = new FaultMarks(clock);
        FaultMark stop = marks.mark("stop broker 1");
        marks.end(stop);

        assertThatThrownBy(() -> marks.end(stop))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already ended");
        FaultMark foreign = new FaultMark("stop broker 2", Instant.EPOCH, START);
        assertThatThrownBy(() -> marks.end(foreign))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stop broker 2")
                .hasMessageContaining("not a fault marked in this run");
        assertThat(marks.all()).hasSize(1);
    }

    @Test
    void anEndBeforeItsMarkIsRefused() {
        FaultMark stop = new FaultMark("stop broker 1", Instant.EPOCH, START);
        assertThatThrownBy(() -> stop.withEnd(new FaultMark.End(Instant.EPOCH, START - 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ends");
    }

    @Test
    void aMarkNeedsALabel() {
        FaultMarks marks = new FaultMarks(new ManualClock(START));
        assertThatThrownBy(() -> marks.mark(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThat(marks.all()).isEmpty();
    }
}
