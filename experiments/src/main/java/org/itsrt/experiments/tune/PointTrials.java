package org.itsrt.experiments.tune;

import java.util.ArrayList;
import java.util.List;
import org.itsrt.experiments.run.RowRun;

/**
 * Measures the points a search chooses, whichever search it is: each point {@code repetitions}
 * runs, up to {@code maxRepetitions} when they disagree (the noise rule of {@link Verdict}),
 * every point kept in the order tried, and an interruption honoured before the next run.
 */
final class PointTrials {

    private final BudgetSearch.Settings settings;
    private final PointEvaluator evaluator;
    private final BudgetSearch.Listener listener;
    private final List<TriedPoint> points = new ArrayList<>();
    /** The point being measured, and its runs so far; null between points. */
    private Running running;

    private volatile boolean interrupted;

    /** The point being measured: what an interruption reports. */
    private record Running(
            int number, long periodUs, long budgetUs, int repetition, int planned, List<TriedPoint.Run> runs) {}

    /**
     * The points measured when the search was interrupted, the one under way last (as interrupted),
     * and what was running, in words.
     */
    record Snapshot(List<TriedPoint> points, String interruption) {}

    PointTrials(BudgetSearch.Settings settings, PointEvaluator evaluator, BudgetSearch.Listener listener) {
        this.settings = settings;
        this.evaluator = evaluator;
        this.listener = listener;
    }

    boolean interrupted() {
        return interrupted;
    }

    /** The points measured so far, in order. */
    synchronized List<TriedPoint> points() {
        return List.copyOf(points);
    }

    synchronized int count() {
        return points.size();
    }

    /** Stops before the next run; returns what has been measured, with the point under way. */
    synchronized Snapshot interrupt() {
        interrupted = true;
        List<TriedPoint> measured = new ArrayList<>(points);
        if (running == null) {
            return new Snapshot(measured, "interrupted between points; the search did not finish");
        }
        measured.add(new TriedPoint(
                running.number(), running.periodUs(), running.budgetUs(), running.runs(), Verdict.INTERRUPTED));
        return new Snapshot(
                measured,
                String.format(
                        "interrupted while point %d (%d/%d us) was being measured, run %d of %d; the search did not "
                                + "finish",
                        running.number(),
                        running.budgetUs(),
                        running.periodUs(),
                        running.repetition(),
                        running.planned()));
    }

    /**
     * Runs one budget: {@code repetitions} runs, up to {@code maxRepetitions} when they disagree.
     *
     * @param pointsAfter the most points the search may try after this one
     * @throws SearchStopped when a run failed or could not be measured, or the search was interrupted
     */
    TriedPoint tryPoint(long periodUs, long budgetUs, int pointsAfter) throws SearchStopped {
        int number = count() + 1;
        List<TriedPoint.Run> runs = new ArrayList<>();
        int planned = settings.repetitions();
        for (int rep = 1; rep <= planned; rep++) {
            synchronized (this) {
                if (interrupted) {
                    running = null;
                    throw new SearchStopped("interrupted before point " + number + " (" + budgetUs + "/" + periodUs
                            + " us), run " + rep + "; the search did not finish");
                }
                running = new Running(number, periodUs, budgetUs, rep, planned, List.copyOf(runs));
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
                        periodUs,
                        budgetUs,
                        runs,
                        String.format(
                                "point %d (%d/%d us), run %d could not be measured: %s",
                                number,
                                budgetUs,
                                periodUs,
                                rep,
                                e.getMessage() != null
                                        ? e.getMessage()
                                        : e.getClass().getSimpleName()));
            }
            boolean met = BudgetSearch.meetsSlo(result, settings.sloP99Ms(), settings.sloMaxMs());
            runs.add(new TriedPoint.Run(result, met));
            listener.ran(number, budgetUs, periodUs, result, met, planned - rep + pointsAfter * settings.repetitions());
            if (result.exitCode() != 0) {
                throw stop(
                        number,
                        periodUs,
                        budgetUs,
                        runs,
                        String.format(
                                "point %d (%d/%d us), run %d: the pipeline exited with %d (%s)",
                                number, budgetUs, periodUs, rep, result.exitCode(), result.dir()));
            }
            int metSoFar = (int) runs.stream().filter(TriedPoint.Run::metSlo).count();
            if (rep == planned && planned < settings.maxRepetitions() && Verdict.disagree(metSoFar, runs.size())) {
                planned = settings.maxRepetitions();
            }
        }
        int met = (int) runs.stream().filter(TriedPoint.Run::metSlo).count();
        return record(new TriedPoint(number, periodUs, budgetUs, runs, Verdict.of(met, runs.size())));
    }

    private TriedPoint record(TriedPoint point) {
        synchronized (this) {
            points.add(point);
            running = null;
        }
        listener.tried(point);
        return point;
    }

    private SearchStopped stop(int number, long periodUs, long budgetUs, List<TriedPoint.Run> runs, String why) {
        record(new TriedPoint(number, periodUs, budgetUs, runs, Verdict.RUN_FAILED));
        return new SearchStopped(why);
    }
}
