package org.itsrt.scheduling.linux;

import java.util.HashMap;
import java.util.Map;

/**
 * A cgroup's CPU bandwidth counters from its cpu.stat: bandwidth periods that elapsed while it had work,
 * periods in which it ran out of quota and was throttled, and the total time it spent throttled. v1 gives
 * {@code throttled_time} in ns, v2 {@code throttled_usec}; v2 also gives {@code usage_usec}, v1 only when
 * cpuacct shares the hierarchy ({@code cpuacct.usage}).
 *
 * @param usageNs CPU time used by the group, or -1 when the hierarchy does not count it
 */
public record CpuStat(long nrPeriods, long nrThrottled, long throttledNs, long usageNs) {

    public static final CpuStat ZERO = new CpuStat(0, 0, 0, 0);

    /** Parses cpu.stat ({@code key value} per line); usageNs from elsewhere when the file has none. */
    public static CpuStat parse(String cpuStat, long usageNsElsewhere) {
        Map<String, Long> values = new HashMap<>();
        for (String line : cpuStat.split("\n")) {
            String[] kv = line.trim().split("\\s+");
            if (kv.length == 2) {
                try {
                    values.put(kv[0], Long.parseLong(kv[1]));
                } catch (NumberFormatException ignored) {
                    // not a counter: newer kernels may add other lines
                }
            }
        }
        long throttled = values.containsKey("throttled_time")
                ? values.get("throttled_time")
                : values.getOrDefault("throttled_usec", 0L) * 1000;
        long usage = values.containsKey("usage_usec") ? values.get("usage_usec") * 1000 : usageNsElsewhere;
        return new CpuStat(
                values.getOrDefault("nr_periods", 0L), values.getOrDefault("nr_throttled", 0L), throttled, usage);
    }

    /** The counters since {@code earlier}. */
    public CpuStat minus(CpuStat earlier) {
        return new CpuStat(
                nrPeriods - earlier.nrPeriods,
                nrThrottled - earlier.nrThrottled,
                throttledNs - earlier.throttledNs,
                usageNs < 0 || earlier.usageNs < 0 ? -1 : usageNs - earlier.usageNs);
    }

    /** Share of the periods in which the group was throttled; 0 when no period elapsed. */
    public double throttledShare() {
        return nrPeriods == 0 ? 0 : (double) nrThrottled / nrPeriods;
    }
}
