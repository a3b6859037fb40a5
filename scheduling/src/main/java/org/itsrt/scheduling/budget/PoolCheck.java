package org.itsrt.scheduling.budget;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a cpupool can hold rt-vm's reservation beside the others in it. RTDS runs global EDF over the
 * pool's pCPUs, and two conditions are necessary for any scheduler: each vCPU asks at most one pCPU
 * (a vCPU runs on one pCPU at a time) and all reservations together ask at most the pool's pCPUs.
 * Failing either is a refusal. They are not sufficient for global EDF; the Goossens-Funk-Baruah bound
 * (sum <= m - (m - 1) max U) is, and the result says whether it holds, as information only.
 *
 * <p>Dom0 counts by default because in a single-pool set-up its vCPUs share the pool: one vCPU at Xen's
 * RTDS default reservation (budget 4000 us every 10000 us, utilization 0.4), which a domain keeps until
 * someone changes it. Give Dom0's real vCPU count, or 0 when rt-vm's pool holds no Dom0 vCPU.
 */
public final class PoolCheck {

    public static final int DEFAULT_DOM0_VCPUS = 1;
    public static final BigDecimal DEFAULT_DOM0_UTILIZATION = new BigDecimal("0.4");

    private PoolCheck() {}

    /** The pool: its pCPUs, other single-vCPU reservations, and Dom0's vCPUs in it. */
    public record Pool(int cpus, List<BigDecimal> others, int dom0Vcpus, BigDecimal dom0Utilization) {
        public Pool {
            others = List.copyOf(others);
        }
    }

    /** One group of equal vCPUs in the pool. */
    public record Entry(String name, int vcpus, BigDecimal utilizationPerVcpu) {
        public BigDecimal total() {
            return utilizationPerVcpu.multiply(BigDecimal.valueOf(vcpus));
        }
    }

    /** An accepted pool, with its sums. */
    public record Result(
            int cpus,
            List<Entry> entries,
            BigDecimal total,
            BigDecimal spare,
            BigDecimal globalEdfBound,
            boolean globalEdfBoundHolds) {}

    public static Result check(String domain, Reservation reservation, int vcpus, Pool pool) throws BudgetRefusal {
        if (pool.cpus() < 1) {
            throw new IllegalArgumentException("a pool needs at least one CPU, got " + pool.cpus());
        }
        if (vcpus < 1) {
            throw new IllegalArgumentException("vcpus must be >= 1, got " + vcpus);
        }
        if (pool.dom0Vcpus() < 0) {
            throw new IllegalArgumentException("Dom0 vCPUs must be >= 0, got " + pool.dom0Vcpus());
        }
        List<Entry> entries = new ArrayList<>();
        entries.add(new Entry(domain, vcpus, reservation.utilization()));
        if (pool.dom0Vcpus() > 0) {
            entries.add(new Entry("Dom0", pool.dom0Vcpus(), pool.dom0Utilization()));
        }
        for (int i = 0; i < pool.others().size(); i++) {
            entries.add(new Entry("other #" + (i + 1), 1, pool.others().get(i)));
        }
        BigDecimal max = BigDecimal.ZERO;
        BigDecimal total = BigDecimal.ZERO;
        for (Entry e : entries) {
            BigDecimal u = e.utilizationPerVcpu();
            if (u.signum() < 0) {
                throw new BudgetRefusal(
                        "vcpu-utilization",
                        e.name() + " asks utilization " + plain(u) + " per vCPU: a reservation cannot be negative");
            }
            if (u.compareTo(BigDecimal.ONE) > 0) {
                throw new BudgetRefusal(
                        "vcpu-utilization",
                        e.name() + " asks utilization " + plain(u)
                                + " per vCPU, over the 1.0 a vCPU can use (it runs on one pCPU at a time) by "
                                + plain(u.subtract(BigDecimal.ONE)));
            }
            max = max.max(u);
            total = total.add(e.total());
        }
        BigDecimal cpus = BigDecimal.valueOf(pool.cpus());
        if (total.compareTo(cpus) > 0) {
            BigDecimal over = total.subtract(cpus);
            StringBuilder parts = new StringBuilder();
            for (Entry e : entries) {
                parts.append(parts.isEmpty() ? "" : ", ")
                        .append(e.name())
                        .append(' ')
                        .append(e.vcpus())
                        .append(" x ")
                        .append(plain(e.utilizationPerVcpu()))
                        .append(" = ")
                        .append(plain(e.total()));
            }
            throw new BudgetRefusal(
                    "pool-sum",
                    "the pool's reservations sum to " + plain(total) + " CPUs ("
                            + parts + ") but --pool-cpus is " + pool.cpus() + ": over by " + plain(over)
                            + " CPUs; lower a utilization, move a domain out of the pool, or give the pool "
                            + over.setScale(0, RoundingMode.CEILING).toPlainString() + " more CPU(s)");
        }
        BigDecimal bound = cpus.subtract(cpus.subtract(BigDecimal.ONE).multiply(max));
        return new Result(
                pool.cpus(), List.copyOf(entries), total, cpus.subtract(total), bound, total.compareTo(bound) <= 0);
    }

    static String plain(BigDecimal value) {
        BigDecimal v = value.stripTrailingZeros();
        return (v.scale() > 6 ? v.setScale(6, RoundingMode.HALF_UP).stripTrailingZeros() : v).toPlainString();
    }
}
