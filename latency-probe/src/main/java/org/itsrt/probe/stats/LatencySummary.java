package org.itsrt.probe.stats;

/**
 * What a report says about one set of durations, in nanoseconds.
 *
 * <p>{@code count}, {@code min}, {@code mean} and {@code max} are exact. The percentiles are
 * HdrHistogram's at 3 significant digits: the smallest recorded value with at least p% of the
 * records at or below it (nearest rank), reported as the highest value of its histogram bucket, so
 * each lies within 0.1% above the recorded value it stands for; none is reported above the exact
 * max, which bounds every recorded value.
 */
public record LatencySummary(
        long count,
        long minNs,
        double meanNs,
        long p50Ns,
        long p90Ns,
        long p95Ns,
        long p99Ns,
        long p999Ns,
        long p9999Ns,
        long maxNs) {

    /** The percentiles every summary reports, in the order of the record's fields. */
    public static final double[] PERCENTILES = {50, 90, 95, 99, 99.9, 99.99};

    /** Column names of {@link #PERCENTILES} in reports. */
    public static final String[] PERCENTILE_NAMES = {"p50", "p90", "p95", "p99", "p99.9", "p99.99"};

    public static LatencySummary empty() {
        return new LatencySummary(0, 0, Double.NaN, 0, 0, 0, 0, 0, 0, 0);
    }

    public boolean isEmpty() {
        return count == 0;
    }

    /** The value of {@link #PERCENTILES}{@code [i]}. */
    public long percentileNs(int i) {
        return switch (i) {
            case 0 -> p50Ns;
            case 1 -> p90Ns;
            case 2 -> p95Ns;
            case 3 -> p99Ns;
            case 4 -> p999Ns;
            case 5 -> p9999Ns;
            default -> throw new IndexOutOfBoundsException(i);
        };
    }
}
