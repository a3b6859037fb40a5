package org.itsrt.experiment.backend;

import java.util.OptionalLong;
import org.itsrt.experiment.spec.ExperimentSpec;
import org.itsrt.experiment.spec.ExperimentSpec.Row;
import org.itsrt.sched.budget.EquivalentSettings;
import org.itsrt.sched.budget.Reservation;
import org.itsrt.sched.linux.AppliedBudget;
import org.itsrt.sched.linux.CpuBudgetBackend;
import org.itsrt.sched.linux.LinuxBackends;

/** Turns an experiment's row into the backend that applies it to the job's process. */
public final class RowBackend {

    private RowBackend() {}

    /** Applies a row once the job is live; closing what it returns restores what it changed. */
    @FunctionalInterface
    public interface RowApplier {
        AppliedBudget apply(OptionalLong clusterPid);
    }

    /**
     * How a row is applied. Linux rows go on the process that runs the job's tasks (a child
     * cluster's, or {@code --cluster-pid}); the study's rows are set where the job runs, by
     * {@code rowCommand} ({@link XenRowCommand}): in dom0 on the domain, or on the Docker Compose
     * stack's TaskManager containers.
     *
     * @param rowCommand for xen-* backends: the command that applies a row of study-rows.tsv
     */
    public static RowApplier applier(ExperimentSpec spec, Row row, String rowCommand) {
        if (spec.backend().yamlName.startsWith("xen-")) {
            if (rowCommand == null) {
                throw new IllegalArgumentException(
                        spec.backend().yamlName + " rows are set where the job runs: give --row-command (on Xen, "
                                + "e.g. \"ssh root@dom0 /opt/its-rt/xen-configs/apply-row.sh\"; on the Docker "
                                + "Compose stack, docker/apply-row.sh)");
            }
            return pid -> XenRowCommand.apply(spec.backend().yamlName, rowCommand, row.xenRow());
        }
        CpuBudgetBackend backend = of(spec, row);
        return pid -> backend.apply(pid.orElseThrow(() -> new IllegalStateException("the job's tasks run in no "
                + "process known to this host (the cluster runs in this JVM, or at --flink-rest without "
                + "--cluster-pid): nothing to apply a " + spec.backend().yamlName + " row to")));
    }

    /** The Linux backend for a row on this host. */
    static CpuBudgetBackend of(ExperimentSpec spec, Row row) {
        return switch (spec.backend()) {
            case NONE -> LinuxBackends.none();
            case LINUX_CGROUP, LINUX_DEADLINE ->
                LinuxBackends.byName(
                        spec.backend().yamlName,
                        new Reservation(row.budgetUs(), row.periodUs()),
                        spec.vcpus(),
                        row.cpus(),
                        row.threads());
            case XEN_RTDS, XEN_CREDIT, XEN_CREDIT2 ->
                throw new IllegalArgumentException(
                        spec.backend().yamlName + " rows are applied by a command in dom0 (applier)");
        };
    }

    /** A cgroup row in every scheduler's terms, as ./its budget renders it (cgroup budgets are >= 1 ms, within Xen's limits). */
    private static EquivalentSettings settings(ExperimentSpec spec, Row row) {
        return EquivalentSettings.of("rt-vm", spec.vcpus(), new Reservation(row.budgetUs(), row.periodUs()), false);
    }

    /** The row's {@link #plan}, then the job it runs and the job options it runs with. */
    public static String planAndJob(ExperimentSpec spec, Row row) {
        java.util.Map<String, String> options = row.jobOptions(spec.job());
        return plan(spec, row)
                + (row.cpuLatencyUs() == null
                        ? ""
                        : "; this host's CPU latency request held at " + row.cpuLatencyUs() + " us"
                                + (row.cpuLatencyUs() == 0 ? " (idle CPUs poll)" : ""))
                + (row.identity() ? "; the identity job" : "; the job")
                + (options.isEmpty() ? "" : " with " + options);
    }

    /** What applying the row does, in words and commands, without doing it. */
    public static String plan(ExperimentSpec spec, Row row) {
        return switch (spec.backend()) {
            case NONE -> "nothing (baseline)";
            case LINUX_CGROUP -> {
                EquivalentSettings e = settings(spec, row);
                yield String.format(
                        java.util.Locale.ROOT,
                        "the job's process tree in a new cgroup: cpu.max \"%s\" (v2) / "
                                + "cfs_quota_us %d, cfs_period_us %d (v1) = %d x %d us every %d us%s",
                        e.cgroupV2CpuMax(),
                        e.cgroupQuotaUs(),
                        e.cgroupPeriodUs(),
                        spec.vcpus(),
                        row.budgetUs(),
                        row.periodUs(),
                        row.cpus() == null ? "" : ", cpuset " + row.cpus());
            }
            case LINUX_DEADLINE ->
                String.format(
                        java.util.Locale.ROOT,
                        "SCHED_DEADLINE runtime %d us, deadline = period %d us for each thread of the job's process%s "
                                + "(chrt -d -T %d -D %d -P %d -p 0 TID)",
                        row.budgetUs(),
                        row.periodUs(),
                        row.threads() == null ? "" : " named like /" + row.threads() + "/",
                        row.budgetUs() * 1000,
                        row.periodUs() * 1000,
                        row.periodUs() * 1000);
            case XEN_RTDS, XEN_CREDIT, XEN_CREDIT2 ->
                "xen-configs/apply-row.sh " + row.xenRow() + " (in dom0; restore: xen-configs/apply-row.sh --restore), "
                        + "or docker/apply-row.sh " + row.xenRow() + " on the Docker Compose stack";
        };
    }
}
