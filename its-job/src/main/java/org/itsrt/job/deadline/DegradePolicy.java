package org.itsrt.job.deadline;

/**
 * When to predict with the cheap engine instead of the LSTM: when a reading's slack is below what
 * the LSTM is expected to cost now, the p99 of its recent calls ({@link InferenceCostEstimate}).
 * The LSTM's calls are what it learns from; the cheap engine's are not counted, so a run of
 * degraded readings does not make the LSTM look cheaper than it is.
 *
 * <p>Nor can it make the LSTM look dearer for good: while the operator degrades, the LSTM is not
 * called, and an estimate above every reading's slack (one call that spanned a throttled period
 * of a tight budget can take longer than the whole deadline) would degrade every reading after it.
 * So when the LSTM has not run for {@link #REMEASURE_NANOS}, the next degraded reading is
 * predicted by the LSTM once more after its degraded output is out, the result discarded, to
 * measure what a call costs now ({@link #remeasureDue}); with windows of at most
 * {@link #WINDOW_NANOS}, a slow phase is forgotten within two windows once calls are fast again.
 * Not thread-safe: one per operator instance.
 */
public final class DegradePolicy {

    /** Calls per window of the estimate: about half a second of a reading a millisecond. */
    public static final int WINDOW_CALLS = 512;

    /** The longest a window of the estimate fills: half a second, whatever the rate of calls. */
    public static final long WINDOW_NANOS = 500_000_000L;

    /**
     * How long the LSTM may go uncalled while the operator degrades before a degraded reading is
     * measured by it again: ten calls a second at most, about a millisecond and a half of CPU.
     */
    public static final long REMEASURE_NANOS = 100_000_000L;

    private final InferenceCostEstimate lstmCost;
    private long lastLstmCallNanos;
    private boolean called;

    public DegradePolicy(InferenceCostEstimate lstmCost) {
        this.lstmCost = lstmCost;
    }

    /** A policy that starts with no estimate: only readings already late are degraded until the LSTM has run. */
    public static DegradePolicy learning() {
        return new DegradePolicy(new InferenceCostEstimate(WINDOW_CALLS, WINDOW_NANOS, 0));
    }

    /** True when a call with this much slack left should go to the cheap engine. */
    public boolean degrade(long slackNanos) {
        return slackNanos < lstmCost.expectedNanos();
    }

    /**
     * Learns from one call of the LSTM (for a batch: the whole call).
     *
     * @param nowNanos when the call ended, {@link System#nanoTime()}
     */
    public void lstmCalled(long nanos, long nowNanos) {
        lstmCost.record(nanos, nowNanos);
        lastLstmCallNanos = nowNanos;
        called = true;
    }

    /**
     * True when the LSTM has not run for {@link #REMEASURE_NANOS} (or never): a degraded reading
     * should then be predicted by it once more, to measure what it costs now.
     */
    public boolean remeasureDue(long nowNanos) {
        return !called || nowNanos - lastLstmCallNanos >= REMEASURE_NANOS;
    }

    /** The LSTM's expected cost now, in nanoseconds: what {@link #degrade} compares the slack with. */
    public long expectedLstmNanos() {
        return lstmCost.expectedNanos();
    }
}
