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
public final class BudgetSearch {

    /**
     * @param ranges         the periods to search, in order, each with its budget range
     * @param repetitions    runs per point
     * @param maxRepetitions runs per point when the first {@code repetitions} disagree
     * @param sloP99Ms       a run meets the SLO when its steady-state p99 ...
     * @param sloMaxMs       ... and max stay within these, and every record arrived
     */
    public record Settings(
            List<SearchRange> ranges, int repetitions, int maxRepetitions, double sloP99Ms, double sloMaxMs) {

        public Settings {
            ranges = List.copyOf(ranges);
            if (ranges.isEmpty()
                    || repetitions < 1
                    || maxRepetitions < repetitions
                    || !(sloP99Ms > 0)
                    || !(sloMaxMs > 0)) {
                throw new IllegalArgumentException("not search settings: " + ranges + ", repetitions " + repetitions
                        + ".." + maxRepetitions + ", SLO " + sloP99Ms + "/" + sloMaxMs + " ms");
            }
        }

        /** The most runs a search takes when no point is noisy. */
        public int maxRuns() {
            return ranges.stream().mapToInt(SearchRange::maxPoints).sum() * repetitions;
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
    private final PointEvaluator evaluator;
    private final Listener listener;
    private final List<TriedPoint> points = new ArrayList<>();
    /** The periods searched to the end (or stopped), in order. */
    private final List<PeriodOutcome> outcomes = new ArrayList<>();
    /** The period being searched and what its search has established. */
    private SearchRange currentRange;

    private Bracket currentBracket;
    /** The point being measured, and its runs so far; null between points. */
    private Running running;

    private volatile boolean interrupted;

    /** The point being measured: what an interruption reports. */
    private record Running(
            int number, SearchRange range, long budgetUs, int repetition, int planned, List<TriedPoint.Run> runs) {}

    public BudgetSearch(Settings settings, PointEvaluator evaluator, Listener listener) {
        this.settings = settings;
        this.evaluator = evaluator;
        this.listener = listener;
    }

    /** Whether a run met the SLO: it measured, every record arrived, steady-state p99 and max within bounds. */
    public static boolean meetsSlo(RowRun run, double sloP99Ms, double sloMaxMs) {
        return run.meets(sloP99Ms, sloMaxMs) && run.lost() == 0;
    }

    /** Searches every period in order; stops at the first run that fails. */
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
            } catch (Stopped stopped) {
                failure = stopped.getMessage();
                addOutcome(new PeriodOutcome(
                        range,
                        interrupted ? Status.INTERRUPTED : Status.STOPPED,
                        bracket.passingUs,
                        bracket.failingUs));
            }
        }
        synchronized (this) {
            currentRange = null;
            return new TuneResult(points, outcomes, interrupted ? null : failure, interrupted ? failure : null);
        }
    }

    private synchronized void addOutcome(PeriodOutcome outcome) {
        outcomes.add(outcome);
        currentRange = null;
    }

    /**
     * Stops the search before its next run (Ctrl-C); the run under way is the caller's to end. Returns
     * what the search has measured until now, with what was running, for the report of an interrupted
     * search.
     */
    public synchronized TuneResult interrupt() {
        interrupted = true;
        List<TriedPoint> measured = new ArrayList<>(points);
        String what;
        if (running != null) {
            what = String.format(
                    "interrupted while point %d (%d/%d us) was being measured, run %d of %d; the search did not finish",
                    running.number(),
                    running.budgetUs(),
                    running.range().periodUs(),
                    running.repetition(),
                    running.planned());
            measured.add(new TriedPoint(
                    running.number(),
                    running.range().periodUs(),
                    running.budgetUs(),
                    running.runs(),
                    Verdict.INTERRUPTED));
        } else {
            what = "interrupted between points; the search did not finish";
        }
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
        return new TuneResult(measured, periods, null, what);
    }

    /** What a period's search has established so far. */
    private static final class Bracket {
        Long passingUs;
        Long failingUs;
    }

    private PeriodOutcome search(SearchRange range, Bracket bracket, int laterPoints) throws Stopped {
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

    /**
     * Runs one budget: {@code repetitions} runs, up to {@code maxRepetitions} when they disagree.
     *
     * @param pointsAfter the most points the search may try after this one
     */
    private TriedPoint tryPoint(SearchRange range, long budgetUs, int pointsAfter) throws Stopped {
        int number = points.size() + 1;
        long periodUs = range.periodUs();
        List<TriedPoint.Run> runs = new ArrayList<>();
        int planned = settings.repetitions();
        for (int rep = 1; rep <= planned; rep++) {
            synchronized (this) {
                if (interrupted) {
                    running = null;
                    throw new Stopped("interrupted before point " + number + " (" + budgetUs + "/" + periodUs
                            + " us), run " + rep + "; the search did not finish");
                }
                running = new Running(number, range, budgetUs, rep, planned, List.copyOf(runs));
            }
            listener.starting(number, budgetUs, periodUs, rep, planned);
            RowRun result;
            try {
                result = evaluator.measure(number, budgetUs, periodUs, rep);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw stop(
                        number,
                        range,
                        budgetUs,
                        runs,
                        String.format(
                                "point %d (%d/%d us), run %d could not be " + "measured: %s",
                                number,
                                budgetUs,
                                periodUs,
                                rep,
                                e.getMessage() != null
                                        ? e.getMessage()
                                        : e.getClass().getSimpleName()));
            }
            boolean met = meetsSlo(result, settings.sloP99Ms(), settings.sloMaxMs());
            runs.add(new TriedPoint.Run(result, met));
            listener.ran(number, budgetUs, periodUs, result, met, planned - rep + pointsAfter * settings.repetitions());
            if (result.exitCode() != 0) {
                throw stop(
                        number,
                        range,
                        budgetUs,
                        runs,
                        String.format(
                                "point %d (%d/%d us), run %d: the pipeline " + "exited with %d (%s)",
                                number, budgetUs, periodUs, rep, result.exitCode(), result.dir()));
            }
            int metSoFar = (int) runs.stream().filter(TriedPoint.Run::metSlo).count();
            if (rep == planned && planned < settings.maxRepetitions() && Verdict.disagree(metSoFar, runs.size())) {
                planned = settings.maxRepetitions();
            }
        }
        int met = (int) runs.stream().filter(TriedPoint.Run::metSlo).count();
        Verdict verdict = Verdict.of(met, runs.size());
        return record(new TriedPoint(number, periodUs, budgetUs, runs, verdict));
    }

    private TriedPoint record(TriedPoint point) {
        synchronized (this) {
            points.add(point);
            running = null;
        }
        listener.tried(point);
        return point;
    }

    private Stopped stop(int number, SearchRange range, long budgetUs, List<TriedPoint.Run> runs, String why) {
        record(new TriedPoint(number, range.periodUs(), budgetUs, runs, Verdict.RUN_FAILED));
        return new Stopped(why);
    }

    /** A run failed: the search ends with what it has. */
    private static final class Stopped extends Exception {

        private static final long serialVersionUID = 1L;

        Stopped(String message) {
            super(message, null, false, false);
        }
    }
}
