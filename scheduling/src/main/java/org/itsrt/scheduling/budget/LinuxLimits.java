package org.itsrt.scheduling.budget;

/**
 * What the Linux kernel accepts for the two budget interfaces (kernel/sched/core.c and deadline.c).
 * CFS bandwidth: period 1 ms .. 1 s, quota at least 1 ms (or unlimited). SCHED_DEADLINE: runtime at least
 * 1024 ns, runtime <= deadline <= period, and a period within kernel.sched_deadline_period_min_us ..
 * kernel.sched_deadline_period_max_us (100 us .. 4,194,304 us unless changed).
 */
public final class LinuxLimits {

    public static final long CFS_MIN_PERIOD_US = 1_000;
    public static final long CFS_MAX_PERIOD_US = 1_000_000;
    public static final long CFS_MIN_QUOTA_US = 1_000;

    public static final long DL_MIN_RUNTIME_NS = 1_024;
    public static final long DL_DEFAULT_PERIOD_MIN_US = 100;
    public static final long DL_DEFAULT_PERIOD_MAX_US = 4_194_304;

    private LinuxLimits() {}

    /** Why the kernel would refuse this CFS bandwidth, or null. */
    public static String cfsProblem(long quotaUs, long periodUs) {
        if (periodUs < CFS_MIN_PERIOD_US || periodUs > CFS_MAX_PERIOD_US) {
            return "cgroup CPU bandwidth needs a period of " + CFS_MIN_PERIOD_US + ".." + CFS_MAX_PERIOD_US
                    + " us, got " + periodUs + " us";
        }
        if (quotaUs < CFS_MIN_QUOTA_US) {
            return "cgroup CPU bandwidth needs a quota of at least " + CFS_MIN_QUOTA_US + " us, got " + quotaUs + " us";
        }
        return null;
    }

    /** Why the kernel would refuse these SCHED_DEADLINE parameters under the default period limits, or null. */
    public static String deadlineProblem(long runtimeNs, long deadlineNs, long periodNs) {
        return deadlineProblem(runtimeNs, deadlineNs, periodNs, DL_DEFAULT_PERIOD_MIN_US, DL_DEFAULT_PERIOD_MAX_US);
    }

    public static String deadlineProblem(
            long runtimeNs, long deadlineNs, long periodNs, long periodMinUs, long periodMaxUs) {
        if (runtimeNs < DL_MIN_RUNTIME_NS) {
            return "SCHED_DEADLINE needs a runtime of at least " + DL_MIN_RUNTIME_NS + " ns, got " + runtimeNs + " ns";
        }
        if (runtimeNs > deadlineNs || deadlineNs > periodNs) {
            return "SCHED_DEADLINE needs runtime <= deadline <= period, got " + runtimeNs + " / " + deadlineNs + " / "
                    + periodNs + " ns";
        }
        if (periodNs < periodMinUs * 1000 || periodNs > periodMaxUs * 1000) {
            return "SCHED_DEADLINE needs a period of " + periodMinUs + ".." + periodMaxUs
                    + " us (kernel.sched_deadline_period_min_us/max_us), got " + periodNs / 1000.0 + " us";
        }
        return null;
    }
}
