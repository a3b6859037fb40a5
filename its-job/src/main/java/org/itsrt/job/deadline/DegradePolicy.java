package org.itsrt.job.deadline;

/**
 * When to predict with the cheap engine instead of the LSTM: when a reading's slack is below what
 * the LSTM is expected to cost now, the p99 of its recent calls ({@link InferenceCostEstimate}).
 * The LSTM's calls are what it learns from; the cheap engine's are not counted, so a run of
 * degraded readings does not make the LSTM look cheaper than it is. Not thread-safe: one per
 * operator instance.
 */
public final class DegradePolicy {

    /** Calls per window of the estimate: about half a second of a reading a millisecond. */
    public static final int WINDOW_CALLS = 512;

    private final InferenceCostEstimate lstmCost;

    public DegradePolicy(InferenceCostEstimate lstmCost) {
        this.lstmCost = lstmCost;
    }

    /** A policy that starts with no estimate: only readings already late are degraded until the LSTM has run. */
    public static DegradePolicy learning() {
        return new DegradePolicy(new InferenceCostEstimate(WINDOW_CALLS, 0));
    }

    /** True when a call with this much slack left should go to the cheap engine. */
    public boolean degrade(long slackNanos) {
        return slackNanos < lstmCost.expectedNanos();
    }

    /** Learns from one call of the LSTM (for a batch: the whole call). */
    public void lstmCalled(long nanos) {
        lstmCost.record(nanos);
    }

    /** The LSTM's expected cost now, in nanoseconds: what {@link #degrade} compares the slack with. */
    public long expectedLstmNanos() {
        return lstmCost.expectedNanos();
    }
}
