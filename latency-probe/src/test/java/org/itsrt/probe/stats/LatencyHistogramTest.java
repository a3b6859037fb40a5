package org.itsrt.probe.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void percentilesAreNearestRankAndExactWhereTheHistogramHasUnitBuckets() {
        // Below 2048 ns a 3-digit HdrHistogram has one bucket per nanosecond: no rounding at all.
        LatencyHistogram h = new LatencyHistogram();
        for (long v = 1000; v >= 1; v--) {
            h.record(v);
        }

        LatencySummary s = h.summary();

        assertThat(s.count()).isEqualTo(1000);
        assertThat(s.minNs()).isEqualTo(1);
        assertThat(s.meanNs()).isEqualTo(500.5);
        assertThat(s.p50Ns()).isEqualTo(500);
        assertThat(s.p90Ns()).isEqualTo(900);
        assertThat(s.p95Ns()).isEqualTo(950);
        assertThat(s.p99Ns()).isEqualTo(990);
        assertThat(s.p999Ns()).isEqualTo(999);
        assertThat(s.p9999Ns()).isEqualTo(1000);
        assertThat(s.maxNs()).isEqualTo(1000);
    }

    @Test
    void aSmallSampleGivesTheNearestRankNotAnInterpolation() {
        LatencyHistogram h = new LatencyHistogram();
        for (long v : new long[] {10, 20, 30, 40}) {
            h.record(v);
        }

        assertThat(h.percentileNs(50)).isEqualTo(20);
        assertThat(h.percentileNs(51)).isEqualTo(30);
        assertThat(h.percentileNs(75)).isEqualTo(30);
        assertThat(h.percentileNs(99)).isEqualTo(40);
    }

    @Test
    void millisecondValuesAreWithinATenthOfAPercentAboveTheTruth() {
        LatencyHistogram h = new LatencyHistogram();
        for (long ms = 1; ms <= 1000; ms++) {
            h.record(ms * 1_000_000 + 123_457);
        }

        LatencySummary s = h.summary();

        double p50 = 500_123_457;
        assertThat((double) s.p50Ns()).isBetween(p50, p50 * 1.001);
        double p99 = 990_123_457;
        assertThat((double) s.p99Ns()).isBetween(p99, p99 * 1.001);
        // Exact, not binned:
        assertThat(s.minNs()).isEqualTo(1_123_457);
        assertThat(s.maxNs()).isEqualTo(1_000_123_457);
        assertThat(s.meanNs()).isCloseTo(500_623_457, within(1e-3));
    }

    @Test
    void negativeLatenciesAreCountedApartAndNothingElse() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(-5);
        h.record(7);

        assertThat(h.negative()).isEqualTo(1);
        assertThat(h.count()).isEqualTo(1);
        assertThat(h.summary().minNs()).isEqualTo(7);
    }

    @Test
    void anEmptyHistogramSummarisesAsEmpty() {
        assertThat(new LatencyHistogram().summary().isEmpty()).isTrue();
    }

    @Test
    void veryLargeValuesAreNotClipped() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(3_600_000_000_000L);
        assertThat(h.summary().maxNs()).isEqualTo(3_600_000_000_000L);
        assertThat((double) h.percentileNs(50)).isBetween(3.6e12, 3.6e12 * 1.001);
    }
}
