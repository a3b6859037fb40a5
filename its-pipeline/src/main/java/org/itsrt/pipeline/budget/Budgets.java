package org.itsrt.pipeline.budget;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import org.itsrt.pipeline.BudgetHook;
import org.itsrt.pipeline.plan.BudgetPlan;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.scheduling.budget.EquivalentSettings;
import org.itsrt.scheduling.budget.Reservation;
import org.itsrt.scheduling.linux.AppliedBudget;
import org.itsrt.scheduling.linux.CpuBudgetBackend;
import org.itsrt.scheduling.linux.LinuxBackends;

/** A plan's CPU budget put on the job's process, and in words. */
public final class Budgets {

    private Budgets() {}

    /**
     * A hook that applies {@code budget} once the job is live and restores it after the last
     * measured record; {@code facts} holds what the backend set and measured (throttling), also
     * after the restore. Linux budgets go on the process that runs the job's tasks; the study's
     * rows are set where the job runs, by the budget's row command ({@link XenRowCommand}).
     *
     * @throws IllegalArgumentException for a xen-* budget without a row command
     */
    public static BudgetHook hook(BudgetPlan budget, AtomicReference<Map<String, Object>> facts, PrintStream log) {
        if (budget.backend() == BudgetPlan.Backend.NONE) {
            return BudgetHook.NONE;
        }
        Applier applier = applier(budget);
        return pid -> {
            AppliedBudget applied = applier.apply(pid);
            log.println("budget: applied " + applied.description());
            return () -> {
                // Facts first: after close the group is gone.
                Map<String, Object> during = new LinkedHashMap<>(applied.facts());
                facts.set(during);
                applied.close();
                during.putAll(applied.restoreFacts());
                facts.set(during);
            };
        };
    }

    /** Applies a budget once the job is live; closing what it returns restores what it changed. */
    @FunctionalInterface
    interface Applier {
        AppliedBudget apply(OptionalLong clusterPid);
    }

    private static Applier applier(BudgetPlan budget) {
        String backend = budget.backend().yamlName;
        if (budget.backend().isXen()) {
            BudgetPlan.ROW_COMMAND.require(
                    budget.rowCommand() != null,
                    "is required: " + backend + " rows are set where the job runs (on Xen, e.g. \"ssh root@dom0 "
                            + "/opt/its-rt/xen-configs/apply-row.sh\"; on the Docker Compose stack, docker/apply-row.sh)");
            return pid -> XenRowCommand.apply(backend, budget.rowCommand(), budget.xenRow());
        }
        Reservation reservation = new Reservation(budget.budgetUs(), budget.periodUs());
        CpuBudgetBackend linux = budget.backend() == BudgetPlan.Backend.LINUX_CGROUP
                ? LinuxBackends.cgroup(reservation, budget.vcpus(), budget.cpus())
                : LinuxBackends.deadline(reservation, budget.threads());
        return pid -> linux.apply(pid.orElseThrow(() -> new IllegalStateException("the job's tasks run in no "
                + "process known to this host (the cluster runs in this JVM, or at --flink-rest without "
                + "--cluster-pid): nothing to apply a " + backend + " budget to")));
    }

    /** What applying the budget does, in words and commands, without doing it. */
    public static String describe(BudgetPlan budget) {
        return switch (budget.backend()) {
            case NONE -> "nothing (baseline)";
            case LINUX_CGROUP -> {
                EquivalentSettings e = EquivalentSettings.of(
                        "rt-vm", budget.vcpus(), new Reservation(budget.budgetUs(), budget.periodUs()), false);
                yield String.format(
                        Locale.ROOT,
                        "the job's process tree in a new cgroup: cpu.max \"%s\" (v2) / "
                                + "cfs_quota_us %d, cfs_period_us %d (v1) = %d x %d us every %d us%s",
                        e.cgroupV2CpuMax(),
                        e.cgroupQuotaUs(),
                        e.cgroupPeriodUs(),
                        budget.vcpus(),
                        budget.budgetUs(),
                        budget.periodUs(),
                        budget.cpus() == null ? "" : ", cpuset " + budget.cpus());
            }
            case LINUX_DEADLINE ->
                String.format(
                        Locale.ROOT,
                        "SCHED_DEADLINE runtime %d us, deadline = period %d us for each thread of the job's process%s "
                                + "(chrt -d -T %d -D %d -P %d -p 0 TID)",
                        budget.budgetUs(),
                        budget.periodUs(),
                        budget.threads() == null ? "" : " named like /" + budget.threads() + "/",
                        budget.budgetUs() * 1000,
                        budget.periodUs() * 1000,
                        budget.periodUs() * 1000);
            case XEN_RTDS, XEN_CREDIT, XEN_CREDIT2 ->
                "xen-configs/apply-row.sh " + budget.xenRow() + " (in dom0; restore: xen-configs/apply-row.sh "
                        + "--restore), or docker/apply-row.sh " + budget.xenRow() + " on the Docker Compose stack";
        };
    }

    /** The plan's {@link #describe budget}, then the host lever, the job it runs and its options. */
    public static String describeWithJob(RunPlan plan) {
        Map<String, String> options = plan.job().options();
        Integer latency = plan.stack().cpuLatencyUs();
        return describe(plan.budget())
                + (latency == null
                        ? ""
                        : "; this host's CPU latency request held at " + latency + " us"
                                + (latency == 0 ? " (idle CPUs poll)" : ""))
                + (plan.job().identity() ? "; the identity job" : "; the job")
                + (options.isEmpty() ? "" : " with " + options);
    }
}
