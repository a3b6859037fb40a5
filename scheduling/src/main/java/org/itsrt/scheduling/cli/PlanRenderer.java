package org.itsrt.scheduling.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.itsrt.scheduling.budget.ComposeCpu;
import org.itsrt.scheduling.budget.DomainBudget;
import org.itsrt.scheduling.budget.EquivalentSettings;
import org.itsrt.scheduling.budget.PoolCheck;
import org.itsrt.scheduling.budget.Reservation;
import org.itsrt.scheduling.budget.StudyRow;
import org.itsrt.scheduling.budget.TableauRule;

/**
 * A budget plan as text for people or as JSON for scripts (same facts in both), or as the Docker
 * Compose override file that gives it to the stack's TaskManager container.
 */
final class PlanRenderer {

    private static final int COMMENT_WIDTH = 100;

    private PlanRenderer() {}

    static String text(Rendering rendering) {
        StringBuilder out = new StringBuilder();
        StudyRow row = rendering.row();
        if (row != null) {
            out.append(rowText(rendering));
        }
        if (rendering.plan() == null) {
            out.append('\n');
            out.append(String.format(
                    "%-17s%s   (in cpupool %s)%n", row.sched().title, row.xl(rendering.domain()), pool(row)));
            out.append("cgroup v1/v2     no limit: cpu.max \"max\", cpu.cfs_quota_us -1\n");
            out.append(composeLine(rendering));
            out.append("SCHED_DEADLINE   none: the row reserves no CPU\n");
            return out.toString();
        }
        DomainBudget plan = rendering.plan();
        Reservation r = plan.reservation();
        EquivalentSettings s = plan.settings();
        out.append(String.format(
                "%s: %d vCPU(s), each a budget of %d us every %d us (utilization %s)%n",
                plan.domain(), plan.vcpus(), r.budgetUs(), r.periodUs(), plain(r.utilization())));
        TableauRule.Choice c = plan.choice();
        if (c != null) {
            out.append(String.format(
                    "  Tableau rule: the largest period T among %s with 2(1-U)T <= L:%n", c.candidates()));
            out.append(String.format(
                    "  2 x (1 - %s) x %d = %s us <= %d us%n",
                    c.requestedUtilization().toPlainString(), r.periodUs(), plain(c.delayBoundUs()), c.maxLatencyUs()));
        } else {
            out.append(row == null ? "  budget and period as given\n" : "  budget and period from the row\n");
        }
        out.append(String.format("  worst-case scheduling delay 2(T-C) = %d us%n", r.worstCaseDelayUs()));
        for (String note : plan.notes()) {
            out.append("  note: ").append(note).append('\n');
        }
        PoolCheck.Result pool = plan.pool();
        if (pool == null) {
            out.append("pool: not checked (give --pool-cpus)\n");
        } else {
            List<String> parts = new ArrayList<>();
            for (PoolCheck.Entry e : pool.entries()) {
                parts.add(
                        e.name() + " " + e.vcpus() + " x " + plain(e.utilizationPerVcpu()) + " = " + plain(e.total()));
            }
            out.append(String.format(
                    "pool: %d CPUs; %s; total %s, spare %s: schedulable (each vCPU <= 1, total <= %d)%n",
                    pool.cpus(), String.join(", ", parts), plain(pool.total()), plain(pool.spare()), pool.cpus()));
            out.append(String.format(
                    "  global EDF sufficient bound (Goossens-Funk-Baruah) total <= m - (m-1) max U = %s: %s%n",
                    plain(pool.globalEdfBound()),
                    pool.globalEdfBoundHolds()
                            ? "holds"
                            : "does not hold (utilization fits, but global EDF may still miss a budget)"));
        }
        out.append('\n');
        out.append("Xen RTDS         ").append(s.xlRtds()).append('\n');
        out.append("Xen Credit       ").append(s.xlCredit()).append('\n');
        if (s.cgroupProblem() == null) {
            out.append(String.format(
                    "cgroup v2        cpu.max \"%s\"   (echo \"%s\" > /sys/fs/cgroup/GROUP/cpu.max)%n",
                    s.cgroupV2CpuMax(), s.cgroupV2CpuMax()));
            out.append(String.format(
                    "cgroup v1        cpu.cfs_quota_us %d, cpu.cfs_period_us %d   (whole group: %d vCPU(s) x %d us)%n",
                    s.cgroupQuotaUs(), s.cgroupPeriodUs(), plan.vcpus(), r.budgetUs()));
        } else {
            out.append("cgroup v1/v2     not expressible: ")
                    .append(s.cgroupProblem())
                    .append('\n');
        }
        out.append(composeLine(rendering));
        if (s.deadlineProblem() == null) {
            out.append(String.format(
                    "SCHED_DEADLINE   %s   (per thread, one per vCPU: %d thread(s))%n", s.chrt(), plan.vcpus()));
        } else {
            out.append("SCHED_DEADLINE   not expressible: ")
                    .append(s.deadlineProblem())
                    .append('\n');
        }
        return out.toString();
    }

    /** The row, where it comes from, and how its limit is read. */
    private static String rowText(Rendering rendering) {
        StudyRow row = rendering.row();
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                "row %s (%s): %s, %s in cpupool %s: %s%s%n",
                row.name(),
                rendering.rowsFile(),
                row.origin(),
                row.sched().title,
                pool(row),
                row.parameters(),
                row.studyMaxMs() == null
                        ? ""
                        : "; the study's max latency " + row.studyMaxMs().toPlainString() + " ms"));
        for (String reading : readings(rendering)) {
            out.append("  ").append(reading).append('\n');
        }
        return out.toString();
    }

    /** How a row's scheduler parameters become a CPU limit, where that takes words. */
    private static List<String> readings(Rendering rendering) {
        StudyRow row = rendering.row();
        List<String> readings = new ArrayList<>();
        if (row.rtds() == null && row.cap() > 0) {
            readings.add(String.format(
                    "cap %d as CFS bandwidth: %d%% of one CPU = %d us every %d us for the whole domain, %d us per "
                            + "vCPU; Credit's cap is a long-run share with no period of its own",
                    row.cap(),
                    row.cap(),
                    row.capQuotaUs(),
                    StudyRow.CREDIT_CAP_PERIOD_US,
                    rendering.plan().reservation().budgetUs()));
        }
        if (row.rtds() != null && row.extratime()) {
            readings.add("extratime 1: RTDS gives the domain idle CPU beyond its budget; a CFS quota (cgroup, "
                    + "Docker) has no such slack and holds it to the budget");
        }
        if (!row.limited()) {
            readings.add("no CPU limit: the row sets " + row.sched().title + "'s weight only (" + row.weight()
                    + (row.weight() == 256
                            ? ", the default, as cpu shares " + ComposeCpu.DEFAULT_CPU_SHARES + " are CFS's"
                            : "")
                    + ")");
        }
        return readings;
    }

    private static String pool(StudyRow row) {
        return row.pool().equals("-") ? "(the domain's current one)" : row.pool();
    }

    private static String composeLine(Rendering rendering) {
        ComposeCpu c = rendering.compose();
        if (c.problem() != null) {
            return "Docker Compose   not expressible: " + c.problem() + "\n";
        }
        return String.format(
                "Docker Compose   services.%s: %s   (%son a running stack: %s)%n",
                ComposeCpu.SERVICE,
                c.settings(),
                rendering.composeFile() == null ? "" : rendering.composeFile() + "; ",
                c.dockerUpdate("CONTAINER"));
    }

    static String json(Rendering rendering) {
        try {
            return new ObjectMapper()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
                    .writeValueAsString(tree(rendering));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, Object> tree(Rendering rendering) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("row", rendering.row() == null ? null : rowTree(rendering));
        DomainBudget plan = rendering.plan();
        if (plan == null) {
            root.put("domain", rendering.domain());
            root.put("vcpus", rendering.vcpus());
            root.put("budget_us", null);
            root.put("period_us", null);
            root.put("notes", readings(rendering));
            Map<String, Object> xen = new LinkedHashMap<>();
            xen.put("command", rendering.row().xl(rendering.domain()));
            root.put("xen", xen);
        } else {
            root.putAll(tree(plan));
        }
        root.put("compose", composeTree(rendering));
        return root;
    }

    private static Map<String, Object> rowTree(Rendering rendering) {
        StudyRow row = rendering.row();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", row.name());
        m.put("file", rendering.rowsFile());
        m.put("sched", row.sched().tsvName);
        m.put("pool", row.pool());
        m.put("period_us", row.rtds() == null ? null : row.rtds().periodUs());
        m.put("budget_us", row.rtds() == null ? null : row.rtds().budgetUs());
        m.put("extratime", row.rtds() == null ? null : row.extratime());
        m.put("weight", row.weight());
        m.put("cap", row.cap());
        m.put("source", row.source());
        m.put("study_max_ms", row.studyMaxMs());
        m.put(
                "cpu_limit",
                row.rtds() != null
                        ? "rtds budget per vcpu"
                        : row.cap() > 0
                                ? "credit cap as cfs bandwidth over " + StudyRow.CREDIT_CAP_PERIOD_US + " us"
                                : "none");
        return m;
    }

    private static Map<String, Object> composeTree(Rendering rendering) {
        ComposeCpu c = rendering.compose();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("service", ComposeCpu.SERVICE);
        m.put("cpu_period", c.cpuPeriodUs());
        m.put("cpu_quota", c.cpuQuotaUs());
        m.put("cpu_shares", c.cpuShares());
        m.put("file", rendering.composeFile());
        m.put("docker_update", c.problem() == null ? c.dockerUpdate("CONTAINER") : null);
        m.put("problem", c.problem());
        return m;
    }

    /**
     * The override file that gives the plan to the stack's TaskManager container: a comment header
     * (what it is, where it comes from, how it was rendered) and the service's CPU settings.
     *
     * @throws IllegalStateException when Docker cannot express the limit ({@link ComposeCpu#problem()})
     */
    static String compose(Rendering rendering) {
        ComposeCpu c = rendering.compose();
        StudyRow row = rendering.row();
        DomainBudget plan = rendering.plan();
        StringBuilder out = new StringBuilder();
        if (row != null) {
            comment(out, "Study row " + row.name() + " as a Docker Compose override of the TaskManager container.");
            comment(
                    out,
                    "From: " + row.origin() + " (" + rendering.rowsFile() + "), " + row.sched().title
                            + " in cpupool " + pool(row) + ": " + row.parameters()
                            + (row.studyMaxMs() == null
                                    ? ""
                                    : "; the study's max latency "
                                            + row.studyMaxMs().toPlainString() + " ms")
                            + ".");
        } else {
            Reservation r = plan.reservation();
            comment(out, "A CPU budget as a Docker Compose override of the TaskManager container.");
            TableauRule.Choice choice = plan.choice();
            comment(
                    out,
                    choice == null
                            ? "From: a given budget of " + r.budgetUs() + " us every " + r.periodUs() + " us per vCPU."
                            : "From: Tableau's rule for utilization "
                                    + choice.requestedUtilization().toPlainString()
                                    + " and a max latency of " + choice.maxLatencyUs() + " us: " + r.budgetUs()
                                    + " us every " + r.periodUs() + " us per vCPU.");
        }
        if (c.limited()) {
            Reservation r = plan.reservation();
            if (row != null && row.rtds() == null) {
                comment(
                        out,
                        "Credit's cap is a long-run share with no period of its own; here cap " + row.cap()
                                + " is CFS bandwidth over " + StudyRow.CREDIT_CAP_PERIOD_US + " us, " + row.cap()
                                + "% of one CPU.");
            }
            comment(
                    out,
                    "The TaskManager container's CFS bandwidth = " + plan.vcpus() + " vCPUs x " + r.budgetUs()
                            + " us = "
                            + c.cpuQuotaUs() + " us every " + c.cpuPeriodUs() + " us (cgroup cpu.max \""
                            + plan.settings().cgroupV2CpuMax() + "\").");
            if (plan.settings().extratime()) {
                comment(
                        out,
                        "With extratime RTDS gives the domain idle CPU beyond its budget; a CFS quota has no such "
                                + "slack and holds the container to the budget.");
            }
        } else {
            comment(
                    out,
                    "Docker/CFS has no equivalent of " + row.sched().title + "'s scheduling ("
                            + (row.sched() == StudyRow.Sched.CREDIT
                                    ? "credits handed out by weight among a cpupool's domains, 30 ms time slices, "
                                            + "a boost on wake-up"
                                    : "credit burned at a rate set by the weight, reset together for a runqueue")
                            + "). In the study the rt-vm was alone in its cpupool, where a weight shares nothing "
                            + "out, so this row measures the TaskManager with no CPU limit on its cpuset: "
                            + "cpu_shares " + c.cpuShares() + ", CFS's default weight, as weight 256 is "
                            + row.sched().title + "'s default.");
        }
        comment(out, "Rendered by: " + rendering.command(), false);
        String file = rendering.composeFile() != null ? rendering.composeFile() : "THIS-FILE.yaml";
        comment(out, "Use: docker compose -f " + ComposeCpu.COMPOSE_FILE + " -f " + file + " up", false);
        if (rendering.composeFile() != null) {
            comment(out, "On a running stack: docker/apply-row.sh " + row.name(), false);
        }
        out.append(c.servicesYaml());
        return out.toString();
    }

    private static void comment(StringBuilder out, String text) {
        comment(out, text, true);
    }

    /** A comment, wrapped at {@value #COMMENT_WIDTH} columns unless it is a command to copy whole. */
    private static void comment(StringBuilder out, String text, boolean wrap) {
        if (!wrap) {
            out.append("# ").append(text).append('\n');
            return;
        }
        StringBuilder line = new StringBuilder("#");
        for (String word : text.split(" ")) {
            if (line.length() > 2 && line.length() + 1 + word.length() > COMMENT_WIDTH) {
                out.append(line).append('\n');
                line = new StringBuilder("#  ");
            }
            line.append(' ').append(word);
        }
        out.append(line).append('\n');
    }

    static Map<String, Object> tree(DomainBudget plan) {
        Reservation r = plan.reservation();
        EquivalentSettings s = plan.settings();
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("domain", plan.domain());
        root.put("vcpus", plan.vcpus());
        root.put("budget_us", r.budgetUs());
        root.put("period_us", r.periodUs());
        root.put("utilization", num(r.utilization()));
        root.put("worst_case_delay_us", r.worstCaseDelayUs());
        TableauRule.Choice c = plan.choice();
        if (c != null) {
            Map<String, Object> rule = new LinkedHashMap<>();
            rule.put("requested_utilization", num(c.requestedUtilization()));
            rule.put("max_latency_us", c.maxLatencyUs());
            rule.put("delay_bound_us", num(c.delayBoundUs()));
            rule.put("candidates", c.candidates());
            root.put("rule", rule);
        } else {
            root.put("rule", null);
        }
        root.put("notes", plan.notes());
        PoolCheck.Result pool = plan.pool();
        if (pool != null) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("cpus", pool.cpus());
            List<Map<String, Object>> entries = new ArrayList<>();
            for (PoolCheck.Entry e : pool.entries()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", e.name());
                m.put("vcpus", e.vcpus());
                m.put("utilization_per_vcpu", num(e.utilizationPerVcpu()));
                entries.add(m);
            }
            p.put("entries", entries);
            p.put("total", num(pool.total()));
            p.put("spare", num(pool.spare()));
            p.put("schedulable", true);
            p.put("global_edf_bound", num(pool.globalEdfBound()));
            p.put("global_edf_bound_holds", pool.globalEdfBoundHolds());
            root.put("pool", p);
        } else {
            root.put("pool", null);
        }
        Map<String, Object> xen = new LinkedHashMap<>();
        xen.put("rtds", s.xlRtds());
        xen.put("extratime", s.extratime());
        xen.put("credit_cap", s.creditCap());
        xen.put("credit", s.xlCredit());
        root.put("xen", xen);
        Map<String, Object> linux = new LinkedHashMap<>();
        Map<String, Object> cg = new LinkedHashMap<>();
        cg.put("quota_us", s.cgroupQuotaUs());
        cg.put("period_us", s.cgroupPeriodUs());
        cg.put("v2_cpu_max", s.cgroupV2CpuMax());
        cg.put("v1_cpu_cfs_quota_us", s.cgroupQuotaUs());
        cg.put("v1_cpu_cfs_period_us", s.cgroupPeriodUs());
        cg.put("problem", s.cgroupProblem());
        linux.put("cgroup", cg);
        Map<String, Object> dl = new LinkedHashMap<>();
        dl.put("runtime_ns", s.deadlineRuntimeNs());
        dl.put("deadline_ns", s.deadlineDeadlineNs());
        dl.put("period_ns", s.deadlinePeriodNs());
        dl.put("threads", plan.vcpus());
        dl.put("command", s.chrt());
        dl.put("problem", s.deadlineProblem());
        linux.put("sched_deadline", dl);
        root.put("linux", linux);
        return root;
    }

    private static BigDecimal num(BigDecimal v) {
        BigDecimal s = v.stripTrailingZeros();
        return s.scale() > 12 ? s.setScale(12, RoundingMode.HALF_UP).stripTrailingZeros() : s;
    }

    private static String plain(BigDecimal v) {
        BigDecimal s = v.stripTrailingZeros();
        return (s.scale() > 6 ? s.setScale(6, RoundingMode.HALF_UP).stripTrailingZeros() : s).toPlainString();
    }
}
