package org.itsrt.scheduling.budget;

/**
 * What Xen's RTDS scheduler accepts for a vCPU (xen/common/sched/rt.c): budget and period of at least
 * 10 us, because shorter ones would make the scheduler run too often; budget at most the period. The
 * hypervisor bounds the period only by its time type, but xl and libxl carry it as a C {@code int} of
 * microseconds, so {@link #MAX_PERIOD_US} is the largest period {@code xl sched-rtds -p} can set.
 */
public final class XenLimits {

    public static final long MIN_PERIOD_US = 10;
    public static final long MIN_BUDGET_US = 10;
    public static final long MAX_PERIOD_US = Integer.MAX_VALUE;

    private XenLimits() {}

    /** Why Xen would refuse this budget and period, or null when it accepts them. */
    public static String problem(long budgetUs, long periodUs) {
        if (periodUs < MIN_PERIOD_US || periodUs > MAX_PERIOD_US) {
            return "period " + periodUs + " us is outside Xen RTDS's range " + MIN_PERIOD_US + ".." + MAX_PERIOD_US
                    + " us";
        }
        if (budgetUs < MIN_BUDGET_US) {
            return "budget " + budgetUs + " us is below Xen RTDS's minimum of " + MIN_BUDGET_US + " us";
        }
        if (budgetUs > periodUs) {
            return "budget " + budgetUs + " us is longer than the period " + periodUs + " us";
        }
        return null;
    }
}
