package org.itsrt.scheduling.budget;

import java.math.BigDecimal;
import java.util.List;
import java.util.stream.Stream;

/**
 * A domain's CPU budget worked out: the reservation per vCPU (chosen by the Tableau rule or given),
 * the pool check when a pool was described, and the equivalent settings of every scheduler.
 *
 * @param choice how the rule chose the reservation; null when it was given directly
 * @param pool the pool check; null when no pool was described
 */
public record DomainBudget(
        String domain,
        int vcpus,
        Reservation reservation,
        TableauRule.Choice choice,
        PoolCheck.Result pool,
        EquivalentSettings settings) {

    /** Chooses the reservation by the Tableau rule, then checks the pool (when given). */
    public static DomainBudget byRule(
            String domain,
            int vcpus,
            BigDecimal utilization,
            long maxLatencyUs,
            PeriodCandidates candidates,
            PoolCheck.Pool pool,
            boolean extratime)
            throws BudgetRefusal {
        TableauRule.Choice choice = TableauRule.choose(utilization, maxLatencyUs, candidates);
        return complete(domain, vcpus, choice.reservation(), choice, pool, extratime);
    }

    /** A given budget and period, checked against Xen's limits and the pool (when given). */
    public static DomainBudget direct(
            String domain, int vcpus, long budgetUs, long periodUs, PoolCheck.Pool pool, boolean extratime)
            throws BudgetRefusal {
        String problem = XenLimits.problem(budgetUs, periodUs);
        if (problem != null) {
            throw new BudgetRefusal("xen-limits", problem);
        }
        return complete(domain, vcpus, new Reservation(budgetUs, periodUs), null, pool, extratime);
    }

    private static DomainBudget complete(
            String domain, int vcpus, Reservation r, TableauRule.Choice choice, PoolCheck.Pool pool, boolean extratime)
            throws BudgetRefusal {
        if (vcpus < 1) {
            throw new IllegalArgumentException("vcpus must be >= 1, got " + vcpus);
        }
        PoolCheck.Result checked = pool == null ? null : PoolCheck.check(domain, r, vcpus, pool);
        return new DomainBudget(domain, vcpus, r, choice, checked, EquivalentSettings.of(domain, vcpus, r, extratime));
    }

    /** Notes from the rule (rounding, minimum budget) and from the settings. */
    public List<String> notes() {
        return choice == null
                ? settings.notes()
                : Stream.concat(choice.notes().stream(), settings.notes().stream())
                        .toList();
    }
}
