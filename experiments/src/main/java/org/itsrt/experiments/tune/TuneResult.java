package org.itsrt.experiments.tune;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What a search found: every point in the order tried, what each period's search concluded, and
 * why it stopped early if it did.
 *
 * @param failure null, or why the search stopped before it was done (a run failed)
 * @param interruption null, or what was running when the search was interrupted (Ctrl-C): the result
 *                     then holds the points measured before it, and the search did not finish
 */
public record TuneResult(List<TriedPoint> points, List<PeriodOutcome> periods, String failure, String interruption) {

    public TuneResult(List<TriedPoint> points, List<PeriodOutcome> periods, String failure) {
        this(points, periods, failure, null);
    }

    /** How a period's search ended. */
    public enum Status {
        /** The smallest passing budget is known to within the resolution: a failing budget lies below it. */
        FOUND,
        /** Even the lower bound passes: the smallest passing budget may lie below the range. */
        LOWER_BOUND_PASSES,
        /** The upper bound fails: no budget in the range meets the SLO. */
        NONE_PASSES,
        /** A run failed during this period's search. */
        STOPPED,
        /** The search stopped before this period. */
        NOT_SEARCHED,
        /** The search was interrupted (Ctrl-C) during this period's search. */
        INTERRUPTED,
        /**
         * The search ended (annealing: its points spent, or nothing left to learn within its reach)
         * before this period's bracket was narrowed to the resolution: the smallest budget that passed
         * is an upper bound of the period's smallest passing budget, if any passed.
         */
        OPEN
    }

    /**
     * @param smallestPassingUs the smallest budget that passed (null if none did)
     * @param largestFailingUs  the largest budget below it that failed (null if none was tried)
     */
    public record PeriodOutcome(SearchRange range, Status status, Long smallestPassingUs, Long largestFailingUs) {

        public boolean found() {
            return status == Status.FOUND || status == Status.LOWER_BOUND_PASSES;
        }

        /** Whether a budget of this period passed in a search that went on past it (not stopped or interrupted). */
        public boolean passed() {
            return smallestPassingUs != null && (found() || status == Status.OPEN);
        }

        public double utilization() {
            return smallestPassingUs == null ? Double.NaN : (double) smallestPassingUs / range.periodUs();
        }
    }

    /**
     * Evidence that latency is not monotonic in the budget: at {@code lowerBudgetUs} a run met the
     * SLO although at the larger {@code higherBudgetUs} (the largest such) a run missed it.
     */
    public record NonMonotonic(
            long periodUs,
            long lowerBudgetUs,
            int lowerMet,
            int lowerRuns,
            long higherBudgetUs,
            int higherMissed,
            int higherRuns) {}

    public TuneResult {
        points = List.copyOf(points);
        periods = List.copyOf(periods);
    }

    public boolean stoppedEarly() {
        return failure != null || interruption != null;
    }

    public boolean interrupted() {
        return interruption != null;
    }

    /**
     * The lowest utilization that met the SLO, over the periods searched to the end; of equal
     * shares, the shorter period's (which dominates, {@link #dominatedBy}).
     */
    public Optional<PeriodOutcome> best() {
        return periods.stream()
                .filter(PeriodOutcome::passed)
                .min(Comparator.comparingDouble(PeriodOutcome::utilization)
                        .thenComparingLong(p -> p.range().periodUs()));
    }

    /**
     * The Pareto view of the frontier: a period is dominated by a shorter one that met the SLO at
     * no larger share of a CPU. At equal share the shorter period is the better configuration,
     * because the job is throttled for at most period - budget at a time. Returns the dominating
     * period with the lowest share, or empty for a period on the frontier (or where none passed).
     */
    public Optional<PeriodOutcome> dominatedBy(PeriodOutcome period) {
        if (!period.passed()) {
            return Optional.empty();
        }
        return periods.stream()
                .filter(PeriodOutcome::passed)
                .filter(other -> other.range().periodUs() < period.range().periodUs())
                .filter(other -> other.utilization() <= period.utilization())
                .min(Comparator.comparingDouble(PeriodOutcome::utilization)
                        .thenComparingLong(p -> p.range().periodUs()));
    }

    /** Points whose runs disagreed. */
    public List<TriedPoint> noisy() {
        return points.stream().filter(p -> p.verdict() == Verdict.NOISY_FAIL).toList();
    }

    /**
     * For every budget where a run met the SLO, the largest budget of the same period where a run
     * missed it, if that is larger. Bisection never tries a budget below one that failed, so this
     * comes from runs: a noisy point below a budget that failed, or one that passed by luck.
     */
    public List<NonMonotonic> nonMonotonic() {
        List<NonMonotonic> found = new ArrayList<>();
        for (TriedPoint lower : points) {
            int met = (int)
                    lower.measuredRuns().stream().filter(TriedPoint.Run::metSlo).count();
            if (met == 0) {
                continue;
            }
            points.stream()
                    .filter(p -> p.periodUs() == lower.periodUs() && p.budgetUs() > lower.budgetUs())
                    .filter(p -> p.measuredRuns().stream().anyMatch(r -> !r.metSlo()))
                    .max(Comparator.comparingLong(TriedPoint::budgetUs))
                    .ifPresent(higher -> {
                        List<TriedPoint.Run> measured = higher.measuredRuns();
                        int missed =
                                (int) measured.stream().filter(r -> !r.metSlo()).count();
                        found.add(new NonMonotonic(
                                lower.periodUs(),
                                lower.budgetUs(),
                                met,
                                lower.measuredRuns().size(),
                                higher.budgetUs(),
                                missed,
                                measured.size()));
                    });
        }
        found.sort(Comparator.comparingLong(NonMonotonic::periodUs).thenComparingLong(NonMonotonic::lowerBudgetUs));
        return found;
    }
}
