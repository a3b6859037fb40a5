package org.itsrt.experiment.backend;

import org.itsrt.experiment.spec.ExperimentSpec;
import org.itsrt.experiment.spec.ExperimentSpec.Row;
import org.itsrt.sched.budget.EquivalentSettings;
import org.itsrt.sched.budget.Reservation;
import org.itsrt.sched.linux.CpuBudgetBackend;
import org.itsrt.sched.linux.LinuxBackends;


/** Turns an experiment's row into the backend that applies it to the job's process. */
public final class RowBackend {

    private RowBackend() {
    }

    /**
     * The backend for a row on this host. The xen-* rows are applied to a domain from Xen's dom0
     * while the pipeline runs in the guests (xen-configs/README.md), which the embedded stack
     * cannot stand for: those experiments are printed as a plan ({@link #plan}) and refused here.
     */
    public static CpuBudgetBackend of(ExperimentSpec spec, Row row) {
        return switch (spec.backend()) {
            case NONE -> LinuxBackends.none();
            case LINUX_CGROUP, LINUX_DEADLINE -> LinuxBackends.byName(spec.backend().yamlName,
                    new Reservation(row.budgetUs(), row.periodUs()), spec.vcpus(), row.cpus(), row.threads());
            case XEN_RTDS, XEN_CREDIT, XEN_CREDIT2 -> throw new UnsupportedOperationException(spec.backend().yamlName
                    + " rows are set with xl in Xen's dom0 on a domain the pipeline runs in, not on a process of "
                    + "this host; --plan prints the commands per row (xen-configs/README.md)");
        };
    }

    /** A cgroup row in every scheduler's terms, as ./its budget renders it (cgroup budgets are >= 1 ms, within Xen's limits). */
    private static EquivalentSettings settings(ExperimentSpec spec, Row row) {
        return EquivalentSettings.of("rt-vm", spec.vcpus(), new Reservation(row.budgetUs(), row.periodUs()), false);
    }

    /** What applying the row does, in words and commands, without doing it. */
    public static String plan(ExperimentSpec spec, Row row) {
        return switch (spec.backend()) {
            case NONE -> "nothing (baseline)";
            case LINUX_CGROUP -> {
                EquivalentSettings e = settings(spec, row);
                yield String.format(java.util.Locale.ROOT, "the job's process tree in a new cgroup: cpu.max \"%s\" (v2) / "
                                + "cfs_quota_us %d, cfs_period_us %d (v1) = %d x %d us every %d us%s", e.cgroupV2CpuMax(),
                        e.cgroupQuotaUs(), e.cgroupPeriodUs(), spec.vcpus(), row.budgetUs(), row.periodUs(),
                        row.cpus() == null ? "" : ", cpuset " + row.cpus());
            }
            case LINUX_DEADLINE -> String.format(java.util.Locale.ROOT,
                    "SCHED_DEADLINE runtime %d us, deadline = period %d us for each thread of the job's process%s "
                            + "(chrt -d -T %d -D %d -P %d -p 0 TID)", row.budgetUs(), row.periodUs(),
                    row.threads() == null ? "" : " named like /" + row.threads() + "/", row.budgetUs() * 1000,
                    row.periodUs() * 1000, row.periodUs() * 1000);
            case XEN_RTDS, XEN_CREDIT, XEN_CREDIT2 -> "xen-configs/apply-row.sh " + row.xenRow()
                    + " (in dom0; restore: xen-configs/apply-row.sh --restore)";
        };
    }
}
