package org.itsrt.job.deadline;

import org.HdrHistogram.Histogram;

/**
 * What the next LSTM call is expected to cost, learned online: the 99th percentile of the recent
 * calls' durations. Two windows of {@code windowCalls} calls alternate: the estimate is the p99 of
 * the last full window and the one filling now together, so it follows a change of load (a
 * throttled budget, a neighbour taking the core) within one window and never rests on fewer than
 * one window of calls once the first has filled. Before any call it is the given prior (the
 * warm-up's measurement).
 *
 * <p>Why a high percentile and not the mean: degrading is decided before the call, and a record
 * whose slack is just the mean cost would miss its deadline on every slower-than-average call.
 * The percentile is recomputed every eighth of a window (merging two histograms costs a few
 * microseconds, too much per record) and read from a field in between. Recording and estimating
 * allocate nothing. Not thread-safe: one per operator instance.
 */
public final class InferenceCostEstimate {

    /** Calls longer than this are recorded as this (one second: far past any deadline here). */
    private static final long HIGHEST_NANOS = 1_000_000_000L;

    private final int windowCalls;
    private final int refreshCalls;
    private long estimateNanos;
    private Histogram filling;
    private Histogram last;
    private final Histogram both;

    /**
     * @param windowCalls calls per window, at least 1
     * @param priorNanos  the estimate before any call is recorded
     */
    public InferenceCostEstimate(int windowCalls, long priorNanos) {
        if (windowCalls < 1) {
            throw new IllegalArgumentException("window of " + windowCalls + " calls: expected at least 1");
        }
        this.windowCalls = windowCalls;
        this.refreshCalls = Math.max(1, windowCalls / 8);
        this.estimateNanos = priorNanos;
        this.filling = new Histogram(HIGHEST_NANOS, 2);
        this.last = new Histogram(HIGHEST_NANOS, 2);
        this.both = new Histogram(HIGHEST_NANOS, 2);
    }

    /** Records one call's duration. */
    public void record(long nanos) {
        filling.recordValue(Math.max(0, Math.min(nanos, HIGHEST_NANOS)));
        long filled = filling.getTotalCount();
        if (filled % refreshCalls == 0) {
            both.reset();
            both.add(last);
            both.add(filling);
            estimateNanos = both.getValueAtPercentile(99);
        }
        if (filled >= windowCalls) {
            Histogram full = filling;
            filling = last;
            filling.reset();
            last = full;
        }
    }

    /**
     * The p99 of the recent calls, in nanoseconds, as of the last refresh; the prior until the
     * first refresh.
     */
    public long expectedNanos() {
        return estimateNanos;
    }
}
