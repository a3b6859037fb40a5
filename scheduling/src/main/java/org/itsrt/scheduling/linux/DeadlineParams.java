package org.itsrt.scheduling.linux;

import org.itsrt.scheduling.budget.LinuxLimits;
import org.itsrt.scheduling.budget.Reservation;

/**
 * A SCHED_DEADLINE reservation for one thread: up to {@code runtimeNs} of CPU in every
 * {@code periodNs}, delivered within {@code deadlineNs} of each period's start (EDF with a constant
 * bandwidth server).
 */
public record DeadlineParams(long runtimeNs, long deadlineNs, long periodNs) {

    public DeadlineParams {
        // The kernel's own period limits are checked when applying, against its sysctls.
        if (runtimeNs < LinuxLimits.DL_MIN_RUNTIME_NS || runtimeNs > deadlineNs || deadlineNs > periodNs) {
            throw new IllegalArgumentException("SCHED_DEADLINE needs " + LinuxLimits.DL_MIN_RUNTIME_NS
                    + " ns <= runtime <= deadline <= period, got " + runtimeNs + " / " + deadlineNs + " / "
                    + periodNs + " ns");
        }
    }

    /** The RTDS-like reservation: budget every period, with the deadline at the period's end. */
    public static DeadlineParams of(Reservation r) {
        return new DeadlineParams(r.budgetUs() * 1000, r.periodUs() * 1000, r.periodUs() * 1000);
    }

    /** The share of one CPU the kernel's admission control counts: runtime / period. */
    public double utilization() {
        return (double) runtimeNs / periodNs;
    }

    @Override
    public String toString() {
        return runtimeNs + "/" + deadlineNs + "/" + periodNs + " ns (runtime/deadline/period)";
    }
}
