package org.itsrt.probe.stats;

import org.HdrHistogram.Histogram;

/**
 * Durations in nanoseconds: an HdrHistogram at 3 significant digits (auto-resizing, so no value is
 * ever clipped) plus the exact count, sum, min and max. A negative duration means the two stamps
 * did not come from the same clock; it cannot be binned, so it is only counted.
 */
public final class LatencyHistogram {

    /** Decimal digits HdrHistogram keeps: values are binned to within 0.1%. */
    public static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram histogram = newHistogram();
    private long sum;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;
    private long negative;

    /** An empty auto-resizing nanosecond histogram with the probe's precision. */
    public static Histogram newHistogram() {
        Histogram histogram = new Histogram(SIGNIFICANT_DIGITS);
        histogram.setAutoResize(true);
        return histogram;
    }

    public void record(long ns) {
        if (ns < 0) {
            negative++;
            return;
        }
        histogram.recordValue(ns);
        sum += ns;
        min = Math.min(min, ns);
        max = Math.max(max, ns);
    }

    public long count() {
        return histogram.getTotalCount();
    }

    /** Durations that were negative and so left out of everything else. */
    public long negative() {
        return negative;
    }

    /** The histogram itself (read-only use: plots, logs). */
    public Histogram histogram() {
        return histogram;
    }

    /**
     * Nearest-rank percentile as HdrHistogram reports it (the highest value of its bucket), but
     * never above the exact max: the recorded value it stands for is at most the max, and a p99
     * printed above the max beside it reads as an error. 0 when empty.
     */
    public long percentileNs(double percentile) {
        long bucketTop = histogram.getValueAtPercentile(percentile);
        return count() == 0 ? bucketTop : Math.min(bucketTop, max);
    }

    public LatencySummary summary() {
        long count = count();
        if (count == 0) {
            return LatencySummary.empty();
        }
        double[] p = LatencySummary.PERCENTILES;
        return new LatencySummary(
                count,
                min,
                (double) sum / count,
                percentileNs(p[0]),
                percentileNs(p[1]),
                percentileNs(p[2]),
                percentileNs(p[3]),
                percentileNs(p[4]),
                percentileNs(p[5]),
                max);
    }
}
