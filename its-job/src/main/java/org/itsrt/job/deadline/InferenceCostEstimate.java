package org.itsrt.job.deadline;

import org.HdrHistogram.Histogram;

/**
 * What the next LSTM call is expected to cost, learned online: the 99th percentile of the recent
 * calls' durations. Two windows of {@code windowCalls} calls alternate: the estimate is the p99 of
 * the last full window and the one filling now together, so it follows a change of load (a
 * throttled budget, a neighbour taking the core) within one window and never rests on fewer than
 * one window of calls once the first has filled. A window is also full once it has been filling
 * for {@code windowNanos}: when calls are rare (an operator that degrades most readings calls the
 * LSTM only to measure it again, {@link DegradePolicy}) the estimate still forgets a slow phase
 * within two windows of time. Before any call it is the given prior (the warm-up's measurement).
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
    private final long windowNanos;
    private final int refreshCalls;
    private long estimateNanos;
    private long fillingSinceNanos;
    private Histogram filling;
    private Histogram last;
    private final Histogram both;

    /**
     * Windows of calls only, however long they take to fill.
     *
     * @param windowCalls calls per window, at least 1
     * @param priorNanos  the estimate before any call is recorded
     */
    public InferenceCostEstimate(int windowCalls, long priorNanos) {
        this(windowCalls, Long.MAX_VALUE, priorNanos);
    }

    /**
     * @param windowCalls calls per window, at least 1
     * @param windowNanos the longest a window fills before it counts as full, at least 1
     * @param priorNanos  the estimate before any call is recorded
     */
    public InferenceCostEstimate(int windowCalls, long windowNanos, long priorNanos) {
        if (windowCalls < 1) {
            throw new IllegalArgumentException("window of " + windowCalls + " calls: expected at least 1");
        }
        if (windowNanos < 1) {
            throw new IllegalArgumentException("window of " + windowNanos + " ns: expected at least 1");
        }
        this.windowCalls = windowCalls;
        this.windowNanos = windowNanos;
        this.refreshCalls = Math.max(1, windowCalls / 8);
        this.estimateNanos = priorNanos;
        this.filling = new Histogram(HIGHEST_NANOS, 2);
        this.last = new Histogram(HIGHEST_NANOS, 2);
        this.both = new Histogram(HIGHEST_NANOS, 2);
    }

    /** Records one call's duration, for windows of calls only. */
    public void record(long nanos) {
        record(nanos, 0);
    }

    /**
     * Records one call's duration.
     *
     * @param nowNanos when the call ended, {@link System#nanoTime()}: a window filling for longer
     *     than the window's time is full
     */
    public void record(long nanos, long nowNanos) {
        if (filling.getTotalCount() == 0) {
            fillingSinceNanos = nowNanos;
        }
        filling.recordValue(Math.max(0, Math.min(nanos, HIGHEST_NANOS)));
        long calls = filling.getTotalCount();
        boolean full = calls >= windowCalls || nowNanos - fillingSinceNanos >= windowNanos;
        if (calls % refreshCalls == 0 || full) {
            both.reset();
            both.add(last);
            both.add(filling);
            estimateNanos = both.getValueAtPercentile(99);
        }
        if (full) {
            Histogram filled = filling;
            filling = last;
            filling.reset();
            last = filled;
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
