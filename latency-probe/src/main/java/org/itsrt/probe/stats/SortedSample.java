package org.itsrt.probe.stats;

import java.util.Arrays;

/**
 * A whole sample of latencies kept and sorted, for exact percentiles where every value is at hand
 * (the study's raw files, a run's latencies.csv).
 *
 * <p>Percentiles interpolate linearly between the two nearest ranks: with the values sorted as
 * {@code x[0..n-1]}, percentile {@code p} is {@code x[h]} at the fractional index
 * {@code h = (n - 1) p / 100} (Hyndman and Fan's definition 7, the default of numpy and R). This is
 * the definition that reproduces the study's table in docs/study.md, section 2 from its raw files: the
 * nearest-rank value (and HdrHistogram, which follows nearest rank) differs at p99.9 there, e.g.
 * Credit2 606.22 ms instead of 601.35 ms.
 */
public final class SortedSample {

    private final double[] sorted;

    private SortedSample(double[] sorted) {
        this.sorted = sorted;
    }

    /** A sample of {@code values} (copied; any order). */
    public static SortedSample of(double[] values) {
        double[] copy = Arrays.copyOf(values, values.length);
        Arrays.sort(copy);
        return new SortedSample(copy);
    }

    public int count() {
        return sorted.length;
    }

    public boolean isEmpty() {
        return sorted.length == 0;
    }

    public double min() {
        return sorted.length == 0 ? Double.NaN : sorted[0];
    }

    public double max() {
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1];
    }

    public double mean() {
        double sum = 0;
        for (double v : sorted) {
            sum += v;
        }
        return sorted.length == 0 ? Double.NaN : sum / sorted.length;
    }

    /** Linear-interpolation percentile (definition 7) for {@code percentile} in [0, 100]. */
    public double percentile(double percentile) {
        if (percentile < 0 || percentile > 100) {
            throw new IllegalArgumentException("percentile must be in [0, 100], got " + percentile);
        }
        int n = sorted.length;
        if (n == 0) {
            return Double.NaN;
        }
        double h = (n - 1) * percentile / 100.0;
        double nearest = Math.rint(h);
        if (Math.abs(h - nearest) < 1e-9) {
            // (n - 1) p / 100 that is a whole number in exact arithmetic lands on the rank itself.
            return sorted[(int) nearest];
        }
        int lo = (int) Math.floor(h);
        double fraction = h - lo;
        return sorted[lo] + fraction * (sorted[lo + 1] - sorted[lo]);
    }

    /** The sorted values (a view: do not modify). */
    public double[] sortedValues() {
        return sorted;
    }
}
