package org.itsrt.scheduling.linux;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A process tree inside a bandwidth-limited cgroup, with the group's throttling counters. */
public final class CgroupReservation implements AppliedBudget {

    private final CgroupGroup group;
    private final long pid;
    private final List<Long> moved = new ArrayList<>();

    CgroupReservation(CgroupGroup group, long pid) {
        this.group = group;
        this.pid = pid;
    }

    void attach() {
        moved.addAll(group.attachTree(pid));
    }

    @Override
    public String backend() {
        return CgroupBackend.NAME;
    }

    public long pid() {
        return pid;
    }

    public CgroupGroup group() {
        return group;
    }

    /** The processes moved in at apply time (the root first); later children join by themselves. */
    public List<Long> movedProcesses() {
        return List.copyOf(moved);
    }

    /**
     * Sets the quota of every period to {@code quotaUs} for the whole group (all of its CPUs
     * together), the period and pinning unchanged: recorded in the ledger first, restored with the
     * group ({@link CgroupGroup#changeQuota}).
     */
    public void changeQuota(long quotaUs) {
        group.changeQuota(quotaUs);
    }

    /** Throttling counters since the group was created (it starts at zero); frozen at close. */
    public CpuStat cpuStat() {
        return group.cpuStat();
    }

    @Override
    public String description() {
        CgroupBandwidth bw = group.bandwidth();
        return String.format(
                Locale.ROOT,
                "cgroup %s %s: process %d and its %d descendant(s), %s%s",
                group.version(),
                group.cpuDir(),
                pid,
                Math.max(0, moved.size() - 1),
                bw.limited()
                        ? bw.quotaUs() + " us every " + bw.periodUs() + " us (" + bw.cpuShare() + " CPUs)"
                        : "no bandwidth limit",
                bw.pinned() ? ", pinned to CPUs " + bw.cpus() : "");
    }

    @Override
    public Map<String, Object> facts() {
        CgroupBandwidth bw = group.bandwidth();
        CpuStat stat = group.cpuStat();
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("backend", CgroupBackend.NAME);
        facts.put("cgroup_version", group.version());
        facts.put("cgroup_dirs", group.dirs().stream().map(Object::toString).toList());
        facts.put("pid", pid);
        facts.put("processes_moved", moved.size());
        facts.put("quota_us", bw.limited() ? bw.quotaUs() : null);
        facts.put("period_us", bw.periodUs());
        facts.put("cpu_share", bw.limited() ? bw.cpuShare() : null);
        facts.put("cpus", bw.cpus());
        facts.put("nr_periods", stat.nrPeriods());
        facts.put("nr_throttled", stat.nrThrottled());
        facts.put("throttled_ms", stat.throttledNs() / 1e6);
        facts.put("throttled_share", stat.throttledShare());
        facts.put("usage_ms", stat.usageNs() < 0 ? null : stat.usageNs() / 1e6);
        return facts;
    }

    @Override
    public void close() {
        try {
            group.close();
        } finally {
            ShutdownRestore.unregister(this);
        }
    }

    @Override
    public String toString() {
        return "linux-cgroup reservation " + group.cpuDir();
    }
}
