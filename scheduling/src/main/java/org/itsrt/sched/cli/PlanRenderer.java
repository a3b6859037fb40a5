package org.itsrt.sched.cli;

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
import org.itsrt.sched.budget.BudgetPlan;
import org.itsrt.sched.budget.EquivalentSettings;
import org.itsrt.sched.budget.PoolCheck;
import org.itsrt.sched.budget.Reservation;
import org.itsrt.sched.budget.TableauRule;

/** A budget plan as text for people or as JSON for scripts (same facts in both). */
final class PlanRenderer {

    private PlanRenderer() {}

    static String text(BudgetPlan plan) {
        Reservation r = plan.reservation();
        EquivalentSettings s = plan.settings();
        StringBuilder out = new StringBuilder();
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
            out.append("  budget and period as given\n");
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

    static String json(BudgetPlan plan) {
        try {
            return new ObjectMapper()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
                    .writeValueAsString(tree(plan));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, Object> tree(BudgetPlan plan) {
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
