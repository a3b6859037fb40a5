package org.itsrt.experiments.tune;

import java.util.ArrayList;
import java.util.List;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.tune.TuneResult.PeriodOutcome;
import org.itsrt.experiments.tune.TuneResult.Status;

/**
 * Noise-aware bisection for the smallest CPU budget that meets a latency SLO, one period at a
 * time.
 *
 * <p>For each period the upper bound is tried first: if it fails, no budget in the range meets
 * the SLO and that period's search ends. Otherwise the bracket (largest failing, smallest passing)
 * is halved until it is no wider than the resolution; the lower bound itself is tried only when
 * every point above it passed, so that "the lower bound passes" is a measured statement.
 *
 * <p>Latency under a CPU budget is noisy from run to run (garbage collection, JIT compilation,
 * where a burst falls in the period), so each point is run several times and passes only if
 * every run meets the SLO. When its runs disagree, the point is run up to the larger repetition
 * count: that cannot make it pass (one miss already fails it, which keeps the answer on the safe
 * side) but measures how often that budget meets the SLO, which the report shows.
 */
public final class BudgetSearch implements TuneSearch {

    /**
     * @param ranges         the periods to search, in order, each with its budget range
     * @param repetitions    runs per point
     * @param maxRepetitions runs per point when the first {@code repetitions} disagree
     * @param sloP99Ms       a run meets the SLO when its steady-state p99 ...
     * @param sloMaxMs       ... and max stay within these, and every record arrived
     * @param strategy       how the points are chosen: bisection per period, or annealing over both
     */
    public record Settings(
            List<SearchRange> ranges,
            int repetitions,
            int maxRepetitions,
            double sloP99Ms,
            double sloMaxMs,
            SearchStrategy strategy) {

        public Settings {
            ranges = List.copyOf(ranges);
            if (ranges.isEmpty()
                    || repetitions < 1
                    || maxRepetitions < repetitions
                    || !(sloP99Ms > 0)
                    || !(sloMaxMs > 0)
                    || strategy == null) {
                throw new IllegalArgumentException("not search settings: " + ranges + ", repetitions " + repetitions
                        + ".." + maxRepetitions + ", SLO " + sloP99Ms + "/" + sloMaxMs + " ms, " + strategy);
            }
        }

        /** Settings of a bisection. */
        public Settings(
                List<SearchRange> ranges, int repetitions, int maxRepetitions, double sloP99Ms, double sloMaxMs) {
            this(ranges, repetitions, maxRepetitions, sloP99Ms, sloMaxMs, SearchStrategy.BISECTION);
        }

        /** The same search by another strategy. */
        public Settings with(SearchStrategy other) {
            return new Settings(ranges, repetitions, maxRepetitions, sloP99Ms, sloMaxMs, other);
        }

        /** The most runs a search takes when no point is noisy. */
        public int maxRuns() {
            return strategy.maxPoints(ranges) * repetitions;
        }
    }

    /** Hears of the search's progress: runs take minutes. */
    public interface Listener {

        default void starting(int point, long budgetUs, long periodUs, int repetition, int runsPlanned) {}

        /**
         * @param runsLeftAtMost runs still to come if no later point is noisy
         */
        default void ran(int point, long budgetUs, long periodUs, RowRun run, boolean metSlo, int runsLeftAtMost) {}

        default void tried(TriedPoint point) {}
    }

    private final Settings settings;
    private final PointTrials trials;
    /** The periods searched to the end (or stopped), in order. */
    private final List<PeriodOutcome> outcomes = new ArrayList<>();
    /** The period being searched and what its search has established. */
    private SearchRange currentRange;

    private Bracket currentBracket;

    public BudgetSearch(Settings settings, PointEvaluator evaluator, Listener listener) {
        this.settings = settings;
        this.trials = new PointTrials(settings, evaluator, listener);
    }

    /** Whether a run met the SLO: it measured, every record arrived, steady-state p99 and max within bounds. */
    public static boolean meetsSlo(RowRun run, double sloP99Ms, double sloMaxMs) {
        return run.meets(sloP99Ms, sloMaxMs) && run.lost() == 0;
    }

    /** Searches every period in order; stops at the first run that fails. */
    @Override
    public TuneResult run() {
        String failure = null;
        List<SearchRange> ranges = settings.ranges();
        for (int i = 0; i < ranges.size(); i++) {
            SearchRange range = ranges.get(i);
            if (failure != null) {
                addOutcome(new PeriodOutcome(range, Status.NOT_SEARCHED, null, null));
                continue;
            }
            int laterPoints = ranges.subList(i + 1, ranges.size()).stream()
                    .mapToInt(SearchRange::maxPoints)
                    .sum();
            Bracket bracket = new Bracket();
            synchronized (this) {
                currentRange = range;
                currentBracket = bracket;
            }
            try {
                addOutcome(search(range, bracket, laterPoints));
            } catch (SearchStopped stopped) {
                failure = stopped.getMessage();
                addOutcome(new PeriodOutcome(
                        range,
                        trials.interrupted() ? Status.INTERRUPTED : Status.STOPPED,
                        bracket.passingUs,
                        bracket.failingUs));
            }
        }
        synchronized (this) {
            currentRange = null;
            boolean interrupted = trials.interrupted();
            return new TuneResult(
                    trials.points(), outcomes, interrupted ? null : failure, interrupted ? failure : null);
        }
    }

    private synchronized void addOutcome(PeriodOutcome outcome) {
        outcomes.add(outcome);
        currentRange = null;
    }

    @Override
    public synchronized TuneResult interrupt() {
        PointTrials.Snapshot sofar = trials.interrupt();
        List<PeriodOutcome> periods = new ArrayList<>(outcomes);
        for (SearchRange range : settings.ranges()) {
            if (periods.stream().anyMatch(p -> p.range().equals(range))) {
                continue;
            }
            periods.add(
                    range.equals(currentRange)
                            ? new PeriodOutcome(
                                    range, Status.INTERRUPTED, currentBracket.passingUs, currentBracket.failingUs)
                            : new PeriodOutcome(range, Status.NOT_SEARCHED, null, null));
        }
        return new TuneResult(sofar.points(), periods, null, sofar.interruption());
    }

    /** What a period's search has established so far. */
    private static final class Bracket {
        Long passingUs;
        Long failingUs;
    }

    private PeriodOutcome search(SearchRange range, Bracket bracket, int laterPoints) throws SearchStopped {
        long lo = range.minBudgetUs();
        long hi = range.maxBudgetUs();
        if (!tryPoint(range, hi, range.halvings(hi - lo) + 1 + laterPoints)
                .verdict()
                .passed()) {
            return new PeriodOutcome(range, Status.NONE_PASSES, null, null);
        }
        bracket.passingUs = hi;
        while (hi - lo > range.resolutionUs()) {
            long mid = lo + (hi - lo) / 2;
            int after =
                    range.halvings(Math.max(mid - lo, hi - mid)) + (bracket.failingUs == null ? 1 : 0) + laterPoints;
            if (tryPoint(range, mid, after).verdict().passed()) {
                hi = mid;
                bracket.passingUs = mid;
            } else {
                lo = mid;
                bracket.failingUs = mid;
            }
        }
        if (bracket.failingUs == null) {
            // Every point passed down to within the resolution of the lower bound, which no run has tried.
            if (tryPoint(range, lo, laterPoints).verdict().passed()) {
                bracket.passingUs = lo;
                return new PeriodOutcome(range, Status.LOWER_BOUND_PASSES, lo, null);
            }
            bracket.failingUs = lo;
        }
        return new PeriodOutcome(range, Status.FOUND, bracket.passingUs, bracket.failingUs);
    }

    private TriedPoint tryPoint(SearchRange range, long budgetUs, int pointsAfter) throws SearchStopped {
        return trials.tryPoint(range.periodUs(), budgetUs, pointsAfter);
    }
}
