package org.itsrt.probe.report;

import java.util.Arrays;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The points of an empirical CDF: latency (ms) against the fraction of records at or below it,
 * thinned to a few thousand points so that plots of long runs stay small. The top tail is kept
 * point by point, since that is where runs and schedulers differ.
 *
 * @param name      series name in the legend
 * @param xMs       latencies in ms, non-decreasing
 * @param fraction  fraction of records at or below each latency
 */
public record Ecdf(String name, double[] xMs, double[] fraction) {

    /** Points a series is thinned to (about). */
    public static final int MAX_POINTS = 2000;

    /** Largest values always kept one by one. */
    static final int TAIL_POINTS = 300;

    /** From raw values in ms, sorted ascending. */
    public static Ecdf ofSorted(String name, double[] sortedMs) {
        int n = sortedMs.length;
        if (n <= MAX_POINTS) {
            double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                y[i] = (i + 1) / (double) n;
            }
            return new Ecdf(name, Arrays.copyOf(sortedMs, n), y);
        }
        int[] ranks = ranks(n, MAX_POINTS - TAIL_POINTS, TAIL_POINTS);
        double[] x = new double[ranks.length];
        double[] y = new double[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            x[i] = sortedMs[ranks[i]];
            y[i] = (ranks[i] + 1) / (double) n;
        }
        return new Ecdf(name, x, y);
    }

    /**
     * From a nanosecond histogram: one point per bucket with records, at the bucket's highest value,
     * as HdrHistogram reports percentiles.
     */
    public static Ecdf ofHistogram(String name, Histogram histogram) {
        long total = histogram.getTotalCount();
        int buckets = 0;
        for (HistogramIterationValue ignored : histogram.recordedValues()) {
            buckets++;
        }
        double[] x = new double[buckets];
        double[] y = new double[buckets];
        int i = 0;
        for (HistogramIterationValue v : histogram.recordedValues()) {
            x[i] = v.getValueIteratedTo() / 1e6;
            y[i] = v.getTotalCountToThisValue() / (double) total;
            i++;
        }
        if (buckets <= MAX_POINTS) {
            return new Ecdf(name, x, y);
        }
        int[] keep = ranks(buckets, MAX_POINTS - TAIL_POINTS, TAIL_POINTS);
        double[] tx = new double[keep.length];
        double[] ty = new double[keep.length];
        for (int k = 0; k < keep.length; k++) {
            tx[k] = x[keep[k]];
            ty[k] = y[keep[k]];
        }
        return new Ecdf(name, tx, ty);
    }

    /** Evenly spread indexes of {@code 0..n-1}, plus the last {@code tail} ones, ascending, distinct. */
    private static int[] ranks(int n, int spread, int tail) {
        int[] out = new int[spread + 1 + tail];
        int size = 0;
        int tailStart = n - tail;
        for (int i = 0; i <= spread; i++) {
            int rank = (int) Math.round(i * (tailStart - 1) / (double) spread);
            if (size == 0 || rank > out[size - 1]) {
                out[size++] = rank;
            }
        }
        for (int rank = tailStart; rank < n; rank++) {
            if (size == 0 || rank > out[size - 1]) {
                out[size++] = rank;
            }
        }
        return Arrays.copyOf(out, size);
    }

    /** The points with latency above zero, for logarithmic axes. */
    public Ecdf positive() {
        int first = 0;
        while (first < xMs.length && xMs[first] <= 0) {
            first++;
        }
        return first == 0
                ? this
                : new Ecdf(
                        name,
                        Arrays.copyOfRange(xMs, first, xMs.length),
                        Arrays.copyOfRange(fraction, first, fraction.length));
    }

    public boolean isEmpty() {
        return xMs.length == 0;
    }
}
