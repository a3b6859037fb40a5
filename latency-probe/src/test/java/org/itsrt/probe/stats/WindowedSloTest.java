package org.itsrt.probe.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WindowedSloTest {

    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    @Test
    void p95RankIsTheCeilingOf95PercentInIntegers() {
        assertThat(WindowedSlo.p95Rank(1)).isEqualTo(1);
        assertThat(WindowedSlo.p95Rank(19)).isEqualTo(19);
        assertThat(WindowedSlo.p95Rank(20)).isEqualTo(19);
        assertThat(WindowedSlo.p95Rank(21)).isEqualTo(20);
        assertThat(WindowedSlo.p95Rank(60)).isEqualTo(57);
        assertThat(WindowedSlo.p95Rank(100)).isEqualTo(95);
        assertThat(WindowedSlo.p95Rank(101)).isEqualTo(96);
    }

    /**
     * Five 1 s windows, SLO 20 ms:
     * 0: 20 records, one at 50 ms -> p95 = 19th smallest = 1 ms: fine;
     * 1: 20 records, two at 50 ms -> p95 = 50 ms: violation;
     * 2: empty (counts, never violates);
     * 3: 20 records, one at 30 ms and the 19th smallest exactly 20 ms: fine (only above the SLO violates);
     * 4: one record at 21 ms, the run's last arrival: violation.
     */
    private static WindowedSlo constructed() {
        WindowedSlo slo = new WindowedSlo(S, 20 * MS);
        for (int i = 0; i < 20; i++) {
            slo.record(i * 10 * MS, i == 7 ? 50 * MS : 1 * MS);
        }
        for (int i = 0; i < 20; i++) {
            slo.record(S + i * 10 * MS, i < 2 ? 50 * MS : 2 * MS);
        }
        for (int i = 0; i < 20; i++) {
            slo.record(3 * S + i * 10 * MS, i < 1 ? 30 * MS : i < 5 ? 20 * MS : 20 * MS - 1);
        }
        slo.record(4 * S + 500 * MS, 21 * MS);
        return slo;
    }

    @Test
    void ratioIsViolatingWindowsOverAllWindowsOfTheActiveSpan() {
        WindowedSlo.Report r = constructed().report(0, 4 * S + 500 * MS);

        assertThat(r.windows()).isEqualTo(5);
        assertThat(r.empty()).isEqualTo(1);
        assertThat(r.violating()).isEqualTo(2);
        assertThat(r.ratio()).isEqualTo(0.4);
        assertThat(r.records()).isEqualTo(61);
        assertThat(r.overSlo()).isEqualTo(1 + 2 + 1 + 1);
        assertThat(r.nonEmpty()).extracting(WindowedSlo.Window::index).containsExactly(0L, 1L, 3L, 4L);
        assertThat(r.nonEmpty())
                .extracting(WindowedSlo.Window::p95Ns)
                .containsExactly(1 * MS, 50 * MS, 20 * MS, 21 * MS);
        assertThat(r.nonEmpty().get(0).maxNs()).isEqualTo(50 * MS);
    }

    @Test
    void steadyStateTakesTheWindowsThatStartAfterTheWarmup() {
        WindowedSlo slo = constructed();

        WindowedSlo.Report fromTwo = slo.report(2 * S, 4 * S + 500 * MS);
        assertThat(fromTwo.windows()).isEqualTo(3);
        assertThat(fromTwo.violating()).isEqualTo(1);
        assertThat(fromTwo.ratio()).isEqualTo(1.0 / 3);

        // A warm-up inside window 1 starts the steady windows at window 2.
        assertThat(slo.report(1500 * MS, 4 * S + 500 * MS).fromOffsetNs()).isEqualTo(2 * S);

        WindowedSlo.Report none = slo.report(10 * S, 4 * S + 500 * MS);
        assertThat(none.windows()).isZero();
        assertThat(none.ratio()).isNaN();
    }

    @Test
    void degradedRecordsAreCountedPerWindowAndOverTheSpan() {
        WindowedSlo slo = new WindowedSlo(S, 20 * MS);
        slo.record(0, MS, true);
        slo.record(S / 2, MS, false);
        slo.record(S + 1, MS, true);
        slo.record(S + 2, MS, true);
        slo.record(2 * S, MS);

        WindowedSlo.Report r = slo.report(0, 2 * S);
        assertThat(r.nonEmpty()).extracting(WindowedSlo.Window::degraded).containsExactly(1, 2, 0);
        assertThat(r.nonEmpty().get(0).degradedShare()).isEqualTo(0.5);
        assertThat(r.degraded()).isEqualTo(3);
        assertThat(slo.report(S, 2 * S).degraded()).as("from the second window").isEqualTo(2);
    }

    @Test
    void aSingleRecordIsOneWindow() {
        WindowedSlo slo = new WindowedSlo(S, 20 * MS);
        slo.record(0, 25 * MS);
        WindowedSlo.Report r = slo.report(0, 0);
        assertThat(r.windows()).isEqualTo(1);
        assertThat(r.ratio()).isEqualTo(1.0);
    }

    @Test
    void nothingRecordedHasNoWindows() {
        WindowedSlo.Report r = new WindowedSlo(S, MS).report(0, -1);
        assertThat(r.windows()).isZero();
        assertThat(r.ratio()).isNaN();
    }

    @Test
    void rejectsAnEmptyWindow() {
        assertThatThrownBy(() -> new WindowedSlo(0, MS)).hasMessageContaining("window");
    }
}
