package org.itsrt.scheduling.linux;

import java.util.List;
import org.itsrt.scheduling.budget.Reservation;

/**
 * The Linux budget backends by the names experiment files use. One reservation (budget every period,
 * per vCPU as the budget generator gives it) means the same thing to each:
 * <ul>
 *   <li>{@code none}: nothing;</li>
 *   <li>{@code linux-cgroup}: the whole process tree gets {@code vcpus x budget} every period,
 *       optionally pinned to CPUs;</li>
 *   <li>{@code linux-deadline}: each selected thread gets {@code budget} every period with an implicit
 *       deadline (the period).</li>
 * </ul>
 */
public final class LinuxBackends {

    public static final List<String> NAMES = List.of(NoneBackend.NAME, CgroupBackend.NAME, DeadlineBackend.NAME);

    private LinuxBackends() {}

    public static CpuBudgetBackend none() {
        return new NoneBackend();
    }

    /** On this system's cgroups (v1 or v2, detected), under the hierarchy root. */
    public static CgroupBackend cgroup(Reservation perVcpu, int vcpus, String cpus) {
        CgroupBandwidth bw = CgroupBandwidth.of(perVcpu, vcpus);
        return new CgroupBackend(cpus == null ? bw : bw.pinnedTo(cpus));
    }

    public static DeadlineBackend deadline(Reservation perThread, String threadRegex) {
        return new DeadlineBackend(
                DeadlineParams.of(perThread),
                threadRegex == null ? ThreadSelector.all() : ThreadSelector.matching(threadRegex));
    }

    /**
     * @param cpus CPU list for linux-cgroup pinning, or null
     * @param threadRegex thread name pattern for linux-deadline, or null for all threads
     */
    public static CpuBudgetBackend byName(
            String name, Reservation reservation, int vcpus, String cpus, String threadRegex) {
        return switch (name) {
            case NoneBackend.NAME -> none();
            case CgroupBackend.NAME -> cgroup(reservation, vcpus, cpus);
            case DeadlineBackend.NAME -> deadline(reservation, threadRegex);
            default ->
                throw new IllegalArgumentException("unknown Linux budget backend '" + name + "'; expected one of "
                        + NAMES + " (the xen-* backends are set with xl on a Xen host)");
        };
    }
}
