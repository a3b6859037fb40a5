package org.itsrt.experiments.tune;

import java.util.List;
import java.util.SplittableRandom;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.pipeline.plan.BudgetPlan;

/**
 * A deterministic stand-in for the pipeline's response to (period, budget), for comparing search
 * strategies without running it. With share s = budget / period and the period P in ms:
 *
 * <pre>
 *   demand(P) = 0.20 + 0.2 ms / P                    the job's own need, plus a per-period overhead
 *                                                    (wake-up, quota refill, cold caches) that a short
 *                                                    period pays more often
 *   p99(P, s) = 2 ms / (s - demand(P))               queueing as the spare share shrinks
 *             + 0.5 (1 - s) P                        a record that arrives while the job is throttled
 *                                                    waits for the next period: up to (1 - s) P
 *   a run's p99 = p99(P, s) * exp(0.08 z)            run-to-run noise, z standard normal, drawn from
 *                                                    (seed, period, budget, repetition) alone
 *   a run's max = 2 x its p99
 * </pre>
 *
 * With the SLO p99 <= 30 ms (max <= 100 ms), the smallest passing share is U-shaped in the period:
 * short periods pay the overhead, long ones the wait, and the lowest share lies between 10 and 20
 * ms. Latency is monotonic in the budget but for the noise, as the searches assume.
 */
final class SyntheticSurface implements PointEvaluator {

    static final double SLO_P99_MS = 30;
    static final double SLO_MAX_MS = 100;
    static final List<Long> PERIODS_US = List.of(2_000L, 5_000L, 10_000L, 20_000L, 50_000L, 100_000L);
    static final double NOISE = 0.08;
    /** What a run reports where the share is below the demand: the job falls behind without bound. */
    private static final double BEHIND_MS = 10_000;

    private final long seed;

    SyntheticSurface(long seed) {
        this.seed = seed;
    }

    /** Each period's range as a tune's default: 5% to 100% of the period, to within 1% of it. */
    static List<SearchRange> ranges() {
        return PERIODS_US.stream()
                .map(p -> new SearchRange(p, p / 20, p, p / 100))
                .toList();
    }

    static BudgetSearch.Settings settings(SearchStrategy strategy) {
        return new BudgetSearch.Settings(ranges(), 2, 4, SLO_P99_MS, SLO_MAX_MS, strategy);
    }

    /** The noise-free p99, ms. */
    static double p99Ms(double budgetUs, long periodUs) {
        double periodMs = periodUs / 1000.0;
        double share = budgetUs / periodUs;
        double spare = share - (0.20 + 0.2 / periodMs);
        return spare <= 0 ? BEHIND_MS : 2 / spare + 0.5 * (1 - share) * periodMs;
    }

    /**
     * The smallest budget whose point passes more often than not, us (not rounded to any lattice):
     * a point passes when both its runs meet the SLO, P(pass) = Phi(ln(SLO / p99) / NOISE)^2, which is
     * 1/2 where p99 = SLO x exp(-0.5449 NOISE) (Phi(0.5449) = 1/sqrt 2). More runs at a point whose
     * runs disagree cannot make it pass. This is the boundary the runs can tell; below it a point
     * fails more often than it passes.
     */
    static double boundaryUs(long periodUs) {
        double target = SLO_P99_MS * Math.exp(-0.5449 * NOISE);
        double lo = 0;
        double hi = periodUs;
        for (int i = 0; i < 60; i++) {
            double mid = (lo + hi) / 2;
            if (p99Ms(mid, periodUs) <= target) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    @Override
    public RowRun measure(int point, long budgetUs, long periodUs, int repetition) {
        long mixed = seed * 0x9E3779B97F4A7C15L
                ^ periodUs * 0xC2B2AE3D27D4EB4FL
                ^ budgetUs * 0x165667B19E3779F9L
                ^ repetition;
        double z = new SplittableRandom(mixed).nextGaussian();
        double p99 = p99Ms(budgetUs, periodUs) * Math.exp(NOISE * z);
        // SCHED_DEADLINE's limits admit the short periods' small budgets, which cgroup quotas would not.
        return FakeRuns.run(BudgetPlan.Backend.LINUX_DEADLINE, budgetUs, periodUs, repetition, p99, 2 * p99, 0, 0);
    }
}
