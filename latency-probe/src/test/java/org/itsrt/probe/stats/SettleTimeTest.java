package org.itsrt.probe.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The window at which latency counts as settled, on windowed p95 series with a limit of 4 ms. */
class SettleTimeTest {

    private static final long MS = 1_000_000L;
    private static final double LIMIT = 4 * MS;

    /** Consecutive windows from index 0 with these p95s, in ms. */
    private static List<WindowedSlo.Window> windows(long... p95Ms) {
        List<WindowedSlo.Window> windows = new ArrayList<>();
        for (int i = 0; i < p95Ms.length; i++) {
            windows.add(new WindowedSlo.Window(i, 60, p95Ms[i] * MS, p95Ms[i] * MS, 0, 0));
        }
        return windows;
    }

    private static long[] repeat(long p95Ms, int times) {
        long[] out = new long[times];
        java.util.Arrays.fill(out, p95Ms);
        return out;
    }

    private static long[] concat(long[]... parts) {
        return java.util.Arrays.stream(parts)
                .flatMapToLong(java.util.Arrays::stream)
                .toArray();
    }

    @Test
    void aRunCalmFromItsFirstWindowSettledAtZero() {
        assertThat(RunStats.settledAfterWindow(windows(repeat(2, 40)), LIMIT)).isZero();
    }

    @Test
    void theStartUpEndsWithTheLastHighWindowOfIt() {
        assertThat(RunStats.settledAfterWindow(windows(concat(new long[] {40, 30, 10}, repeat(2, 40))), LIMIT))
                .isEqualTo(3);
    }

    @Test
    void aSingleLateSpikeDoesNotMoveTheSettleTimeToTheEndOfTheRun() {
        long[] run = concat(new long[] {40, 10}, repeat(2, 300), new long[] {9}, repeat(2, 30));
        assertThat(RunStats.settledAfterWindow(windows(run), LIMIT)).isEqualTo(2);
    }

    @Test
    void aShortCalmStretchInsideTheStartUpIsNotSettled() {
        long[] run = concat(new long[] {40}, repeat(2, 5), new long[] {30, 20}, repeat(2, 40));
        assertThat(RunStats.settledAfterWindow(windows(run), LIMIT)).isEqualTo(8);
    }

    @Test
    void spikesCloserThanTheCalmRunKeepTheRunUnsettledUntilTheyStop() {
        // One high window in every five until window 50: no ten calm windows in a row before it.
        long[] run = new long[90];
        for (int i = 0; i < run.length; i++) {
            run[i] = i < 50 && i % 5 == 4 ? 9 : 2;
        }
        assertThat(RunStats.settledAfterWindow(windows(run), LIMIT)).isEqualTo(50);
    }

    @Test
    void spreadOutSpikesAreToleratedOnlyUpToTheirShareOfTheWindowsThatFollow() {
        // A high window every 12th (11, 23, ..., 95), then 40 calm: 136 windows. From window 0
        // 8 of 136 are high (5.9 %), from 12 7 of 124, from 24 6 of 112 (all over 5 %); from 36,
        // 5 of 100: within the share, and 36 starts eleven calm windows.
        long[] run = new long[136];
        for (int i = 0; i < run.length; i++) {
            run[i] = i < 96 && i % 12 == 11 ? 9 : 2;
        }
        assertThat(RunStats.settledAfterWindow(windows(run), LIMIT)).isEqualTo(36);
    }

    @Test
    void aRunStillHighAtItsEndNeverSettledBeforeItEnded() {
        assertThat(RunStats.settledAfterWindow(windows(concat(repeat(2, 20), repeat(40, 5))), LIMIT))
                .isEqualTo(25);
    }

    @Test
    void windowsWithoutArrivalsAreSkippedAndTheIndexIsTheWindowsOwn() {
        List<WindowedSlo.Window> gappy = List.of(
                new WindowedSlo.Window(0, 10, 40 * MS, 40 * MS, 0, 0),
                new WindowedSlo.Window(3, 10, 2 * MS, 2 * MS, 0, 0),
                new WindowedSlo.Window(7, 10, 2 * MS, 2 * MS, 0, 0));
        assertThat(RunStats.settledAfterWindow(gappy, LIMIT)).isEqualTo(3);
        assertThat(RunStats.settledAfterWindow(List.of(), LIMIT)).isZero();
    }
}
