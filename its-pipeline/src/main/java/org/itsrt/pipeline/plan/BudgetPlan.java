package org.itsrt.pipeline.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import java.util.Arrays;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.itsrt.scheduling.budget.LinuxLimits;

/**
 * The CPU budget of the process that runs the job's tasks, applied once the job is live and
 * restored after the last measured record (docs/scheduling.md): none, cgroup CPU bandwidth or
 * SCHED_DEADLINE on this host, or one of the study's Xen rows set where the job runs by a
 * command. The kernel's own limits are checked here, so a budget that exists can be applied.
 *
 * @param backend    which mechanism applies it
 * @param vcpus      the real-time side's CPUs: a budget is per CPU, as in Xen's per-vCPU RTDS
 *                   (linux-cgroup gives the group vcpus x budget_us every period_us)
 * @param budgetUs   CPU time per period: per CPU (linux-cgroup) or per selected thread (linux-deadline)
 * @param periodUs   the period (linux-deadline: also the deadline)
 * @param cpus       linux-cgroup: a cpuset for the group, e.g. {@code 1} or {@code 0-1}; null for none
 * @param threads    linux-deadline: a regular expression over the thread names of the job's process
 * @param xenRow     xen-*: a row of xen-configs/study-rows.tsv
 * @param rowCommand xen-*: the command that applies a row where the job runs, called as
 *                   {@code COMMAND ROW} and {@code COMMAND --restore}
 */
@JsonDeserialize(builder = BudgetPlan.Builder.class)
@JsonPropertyOrder({"backend", "vcpus", "budget_us", "period_us", "cpus", "threads", "xen_row", "row_command"})
public record BudgetPlan(
        Backend backend,
        int vcpus,
        Long budgetUs,
        Long periodUs,
        String cpus,
        String threads,
        String xenRow,
        String rowCommand) {

    public static final PlanField BACKEND = new PlanField("budget.backend", null);
    public static final PlanField VCPUS = new PlanField("budget.vcpus", null);
    public static final PlanField BUDGET = new PlanField("budget.budget_us", null);
    public static final PlanField PERIOD = new PlanField("budget.period_us", null);
    public static final PlanField CPUS = new PlanField("budget.cpus", null);
    public static final PlanField THREADS = new PlanField("budget.threads", null);
    public static final PlanField XEN_ROW = new PlanField("budget.xen_row", null);
    public static final PlanField ROW_COMMAND = new PlanField("budget.row_command", "--row-command");

    /** The real-time side of the study: a 2-vCPU VM. */
    public static final int DEFAULT_VCPUS = 2;

    /** Where a budget is applied; docs/scheduling.md. */
    public enum Backend {
        NONE("none"),
        LINUX_CGROUP("linux-cgroup"),
        LINUX_DEADLINE("linux-deadline"),
        XEN_RTDS("xen-rtds"),
        XEN_CREDIT("xen-credit"),
        XEN_CREDIT2("xen-credit2");

        public final String yamlName;

        Backend(String yamlName) {
            this.yamlName = yamlName;
        }

        @JsonValue
        public String yamlName() {
            return yamlName;
        }

        @JsonCreator
        public static Backend of(String name) {
            return Arrays.stream(values())
                    .filter(b -> b.yamlName.equals(name))
                    .findFirst()
                    .orElseThrow(() -> BACKEND.refused(": one of "
                            + Arrays.stream(values()).map(Backend::yamlName).toList() + " is required, got " + name));
        }

        /** Set where the job runs by a command (in Xen's dom0, or on the Docker Compose stack). */
        public boolean isXen() {
            return yamlName.startsWith("xen-");
        }

        /** Applied by this host's kernel to the process that runs the job's tasks. */
        public boolean isLinux() {
            return this == LINUX_CGROUP || this == LINUX_DEADLINE;
        }
    }

    public BudgetPlan {
        BACKEND.require(
                backend != null,
                ": one of "
                        + Arrays.stream(Backend.values()).map(Backend::yamlName).toList());
        VCPUS.require(vcpus >= 1, ": must be >= 1, got " + vcpus);
        switch (backend) {
            case NONE ->
                BACKEND.require(
                        budgetUs == null && periodUs == null && xenRow == null,
                        ": none takes no budget_us, period_us or xen_row");
            case LINUX_CGROUP, LINUX_DEADLINE -> {
                boolean cgroup = backend == Backend.LINUX_CGROUP;
                // The kernel's own limits, as the backends check them.
                long minPeriod = cgroup ? LinuxLimits.CFS_MIN_PERIOD_US : LinuxLimits.DL_DEFAULT_PERIOD_MIN_US;
                long maxPeriod = cgroup ? LinuxLimits.CFS_MAX_PERIOD_US : LinuxLimits.DL_DEFAULT_PERIOD_MAX_US;
                long minBudget = cgroup ? LinuxLimits.CFS_MIN_QUOTA_US : 1;
                PERIOD.require(
                        periodUs != null && periodUs >= minPeriod && periodUs <= maxPeriod,
                        ": " + minPeriod + ".." + maxPeriod + " us is required for " + backend.yamlName + ", got "
                                + periodUs);
                BUDGET.require(
                        budgetUs != null && budgetUs >= minBudget && budgetUs <= periodUs,
                        ": " + minBudget + " us..period_us is required (per CPU" + (cgroup ? "" : " thread") + "), got "
                                + budgetUs);
                if (!cgroup) {
                    String problem = LinuxLimits.deadlineProblem(budgetUs * 1000, periodUs * 1000, periodUs * 1000);
                    BUDGET.require(problem == null, ": " + problem);
                }
                XEN_ROW.require(xenRow == null, ": only xen-* backends take xen_row");
                CPUS.require(cgroup || cpus == null, ": only linux-cgroup budgets pin to cpus");
                THREADS.require(!cgroup || threads == null, ": only linux-deadline budgets select threads");
            }
            default ->
                XEN_ROW.require(
                        xenRow != null && budgetUs == null && periodUs == null,
                        ": a row name of xen-configs/study-rows.tsv (and no budget_us or period_us) is required for "
                                + backend.yamlName);
        }
        ROW_COMMAND.require(rowCommand == null || backend.isXen(), "applies xen-* rows, not " + backend.yamlName);
        if (threads != null) {
            try {
                Pattern.compile(threads);
            } catch (PatternSyntaxException e) {
                throw THREADS.refused(": not a regular expression: " + e.getDescription());
            }
        }
        CPUS.require(
                cpus == null || cpus.matches("\\d+(-\\d+)?(,\\d+(-\\d+)?)*"),
                ": a CPU list like 1 or 0-1 or 0,2, got " + cpus);
    }

    /** No budget. */
    public static BudgetPlan none() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder()
                .backend(backend)
                .vcpus(vcpus)
                .budgetUs(budgetUs)
                .periodUs(periodUs)
                .cpus(cpus)
                .threads(threads)
                .xenRow(xenRow)
                .rowCommand(rowCommand);
    }

    /** Share of one CPU per CPU of the real-time side, where the budget sets one. */
    public double utilization() {
        return budgetUs != null && periodUs != null ? (double) budgetUs / periodUs : Double.NaN;
    }

    /** No budget, two CPUs. */
    @JsonPOJOBuilder(withPrefix = "")
    public static final class Builder {
        private Backend backend = Backend.NONE;
        private int vcpus = DEFAULT_VCPUS;
        private Long budgetUs;
        private Long periodUs;
        private String cpus;
        private String threads;
        private String xenRow;
        private String rowCommand;

        public Builder backend(Backend mechanism) {
            this.backend = mechanism;
            return this;
        }

        public Builder vcpus(int count) {
            this.vcpus = count;
            return this;
        }

        public Builder budgetUs(Long us) {
            this.budgetUs = us;
            return this;
        }

        public Builder periodUs(Long us) {
            this.periodUs = us;
            return this;
        }

        public Builder cpus(String list) {
            this.cpus = list;
            return this;
        }

        public Builder threads(String regex) {
            this.threads = regex;
            return this;
        }

        public Builder xenRow(String row) {
            this.xenRow = row;
            return this;
        }

        public Builder rowCommand(String command) {
            this.rowCommand = command;
            return this;
        }

        public BudgetPlan build() {
            return new BudgetPlan(backend, vcpus, budgetUs, periodUs, cpus, threads, xenRow, rowCommand);
        }
    }
}
