package org.itsrt.experiments.online;

/**
 * One interval of a budget that follows the load: what was measured in it and the budget decided
 * at its end.
 *
 * @param seconds        the interval's end, from when the budget was applied
 * @param budgetUs       the budget per CPU per period in force during the interval
 * @param nextBudgetUs   the budget decided for the next interval
 * @param periodUs       the period
 * @param records        records that arrived in it
 * @param recordsPerS    ... per second
 * @param p50Ms          their p50 latency (NaN without records)
 * @param p99Ms          their p99
 * @param maxMs          their max
 * @param throttledShare the share of the interval's periods in which the group was throttled
 * @param usedCpus       the CPU time the group used, in CPUs (NaN where the kernel does not count it)
 * @param action         what the controller did
 * @param why            why
 */
public record OnlineStep(
        double seconds,
        long budgetUs,
        long nextBudgetUs,
        long periodUs,
        long records,
        double recordsPerS,
        double p50Ms,
        double p99Ms,
        double maxMs,
        double throttledShare,
        double usedCpus,
        BudgetController.Action action,
        String why) {

    /** The budget in force as a share of one CPU (per CPU of the group). */
    public double cpuShare() {
        return (double) budgetUs / periodUs;
    }

    /** Whether the interval met the SLO: no records is no evidence against it. */
    public boolean met(double sloP99Ms) {
        return records == 0 || p99Ms <= sloP99Ms;
    }
}
