package org.itsrt.scheduling.linux;

import org.itsrt.scheduling.budget.LinuxLimits;
import org.itsrt.scheduling.budget.Reservation;

/**
 * What a cgroup gets: a CPU bandwidth quota every period for the whole group (all its processes and
 * threads together), and optionally the CPUs (and memory nodes) it may run on.
 *
 * @param quotaUs CPU time per period for the group, or {@link #UNLIMITED}
 * @param periodUs the bandwidth period
 * @param cpus a CPU list to pin the group to ({@code 0-1,3}), or null for no pinning
 * @param mems memory nodes for a pinned group, or null for the parent's
 */
public record CgroupBandwidth(long quotaUs, long periodUs, String cpus, String mems) {

    public static final long UNLIMITED = -1;
    public static final long DEFAULT_PERIOD_US = 100_000;

    public CgroupBandwidth {
        if (quotaUs != UNLIMITED) {
            String problem = LinuxLimits.cfsProblem(quotaUs, periodUs);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
        } else if (periodUs < LinuxLimits.CFS_MIN_PERIOD_US || periodUs > LinuxLimits.CFS_MAX_PERIOD_US) {
            throw new IllegalArgumentException(LinuxLimits.cfsProblem(LinuxLimits.CFS_MIN_QUOTA_US, periodUs));
        }
        if (cpus != null) {
            if (CpuList.parse(cpus).isEmpty()) {
                throw new IllegalArgumentException("the CPU list to pin to is empty");
            }
            cpus = CpuList.format(CpuList.parse(cpus));
        }
        if (mems != null) {
            if (cpus == null) {
                throw new IllegalArgumentException(
                        "memory nodes (" + mems + ") are set with a cpuset, so give CPUs too");
            }
            mems = CpuList.format(CpuList.parse(mems));
        }
    }

    /** A domain of {@code vcpus} vCPUs with this reservation each: one quota of vcpus x budget per period. */
    public static CgroupBandwidth of(Reservation perVcpu, int vcpus) {
        if (vcpus < 1) {
            throw new IllegalArgumentException("vcpus must be >= 1, got " + vcpus);
        }
        return new CgroupBandwidth(perVcpu.budgetUs() * vcpus, perVcpu.periodUs(), null, null);
    }

    /** No bandwidth limit: a group for pinning or for accounting only. */
    public static CgroupBandwidth unlimited() {
        return new CgroupBandwidth(UNLIMITED, DEFAULT_PERIOD_US, null, null);
    }

    public CgroupBandwidth pinnedTo(String cpuList) {
        return new CgroupBandwidth(quotaUs, periodUs, cpuList, mems);
    }

    public CgroupBandwidth withMems(String memList) {
        return new CgroupBandwidth(quotaUs, periodUs, cpus, memList);
    }

    public boolean limited() {
        return quotaUs != UNLIMITED;
    }

    public boolean pinned() {
        return cpus != null;
    }

    /** The CPUs' worth the quota allows, e.g. 1.535 for 153500 us every 100000 us. */
    public double cpuShare() {
        return limited() ? (double) quotaUs / periodUs : Double.POSITIVE_INFINITY;
    }
}
