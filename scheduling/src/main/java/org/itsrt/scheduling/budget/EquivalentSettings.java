package org.itsrt.scheduling.budget;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * One reservation (budget C every period T, per vCPU, for a domain of N vCPUs) in every scheduler's
 * terms: Xen RTDS (per vCPU, as is), Xen Credit (a cap in % of one pCPU for the whole domain, no period
 * of its own), cgroup CPU bandwidth (one quota for the whole group: N x C every T) and SCHED_DEADLINE
 * (one reservation per thread, so N threads of C every T, with an implicit deadline D = T), and the
 * cgroup bandwidth as the Docker Compose stack's TaskManager container takes it ({@link #compose()}). A
 * setting a backend cannot express is given with a note instead of a command that would fail.
 */
public record EquivalentSettings(
        String domain,
        int vcpus,
        Reservation reservation,
        boolean extratime,
        String xlRtds,
        int creditCap,
        String xlCredit,
        long cgroupQuotaUs,
        long cgroupPeriodUs,
        String cgroupV2CpuMax,
        String cgroupProblem,
        long deadlineRuntimeNs,
        long deadlineDeadlineNs,
        long deadlinePeriodNs,
        String chrt,
        String deadlineProblem,
        List<String> notes) {

    public static EquivalentSettings of(String domain, int vcpus, Reservation r, boolean extratime) {
        if (vcpus < 1) {
            throw new IllegalArgumentException("vcpus must be >= 1, got " + vcpus);
        }
        String xenProblem = XenLimits.problem(r.budgetUs(), r.periodUs());
        if (xenProblem != null) {
            throw new IllegalArgumentException(xenProblem);
        }
        List<String> notes = new ArrayList<>();
        String rtds = "xl sched-rtds -d " + domain + " -v all -p " + r.periodUs() + " -b " + r.budgetUs() + " -e "
                + (extratime ? 1 : 0);

        // Credit has no period: the nearest it gets is a cap on the domain's share, in % of one pCPU.
        BigDecimal exactCap = r.utilization().multiply(BigDecimal.valueOf(100L * vcpus));
        int cap = exactCap.setScale(0, RoundingMode.HALF_UP).intValueExact();
        if (cap < 1) {
            // 0 means "no cap" to Credit, the opposite of a tiny share.
            cap = 1;
        }
        String credit = "xl sched-credit -d " + domain + " -c " + cap;
        notes.add("Credit cap " + cap + " = round(" + vcpus + " vCPUs x " + PoolCheck.plain(r.utilization())
                + " x 100) % of one pCPU: a long-run share with no period and no delay bound");

        long quota = r.budgetUs() * vcpus;
        String cgroupProblem = LinuxLimits.cfsProblem(quota, r.periodUs());

        long runtimeNs = r.budgetUs() * 1000;
        long periodNs = r.periodUs() * 1000;
        String dlProblem = LinuxLimits.deadlineProblem(runtimeNs, periodNs, periodNs);
        String chrt = "chrt -d -T " + runtimeNs + " -P " + periodNs + " -D " + periodNs + " -p 0 TID";
        return new EquivalentSettings(
                domain,
                vcpus,
                r,
                extratime,
                rtds,
                cap,
                credit,
                quota,
                r.periodUs(),
                quota + " " + r.periodUs(),
                cgroupProblem,
                runtimeNs,
                periodNs,
                periodNs,
                chrt,
                dlProblem,
                List.copyOf(notes));
    }

    /** The cgroup bandwidth as the TaskManager container's {@code cpu_period}/{@code cpu_quota}. */
    public ComposeCpu compose() {
        return ComposeCpu.of(this);
    }
}
