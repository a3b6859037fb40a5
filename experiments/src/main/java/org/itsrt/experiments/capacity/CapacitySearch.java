package org.itsrt.experiments.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.itsrt.experiments.tune.Verdict;

/**
 * The most load that meets a {@link CapacitySlo}, on either {@link CapacityAxis}: the lower bound
 * of the range first (if it fails, nothing in the range is served), then the load doubled while
 * it passes (the upper bound tried when doubling would pass it), then the bracket (largest
 * passing, smallest failing) halved until it is no wider than the resolution; on an axis of whole
 * loads the middle is rounded down to a whole one.
 *
 * <p>Each point is run {@code repetitions} times and judged by tune's noise rule
 * ({@link Verdict#of}, {@link Verdict#disagree}): it passes only if every run meets the SLO, and
 * runs whose verdicts disagree are run up to {@code maxRepetitions} to measure how often the load
 * is served. A run that could not be measured at all stops the search with what it has.
 */
public final class CapacitySearch {

    /**
     * @param axis           what a load is: its unit, and whether it is whole
     * @param minLoad        the lowest load, tried first
     * @param maxLoad        the highest load tried
     * @param resolution     bisect until the capacity is known to within this much load
     * @param repetitions    runs per point
     * @param maxRepetitions runs per point when the first {@code repetitions} disagree
     */
    public record Settings(
            CapacityAxis axis,
            double minLoad,
            double maxLoad,
            double resolution,
            int repetitions,
            int maxRepetitions,
            CapacitySlo slo) {

        public Settings {
            if (!(minLoad > 0)
                    || !(maxLoad > minLoad)
                    || Double.isInfinite(maxLoad)
                    || !(resolution > 0)
                    || (axis.whole
                            && (minLoad != Math.rint(minLoad) || maxLoad != Math.rint(maxLoad) || resolution < 1))
                    || repetitions < 1
                    || maxRepetitions < repetitions) {
                throw new IllegalArgumentException(String.format(
                        Locale.ROOT,
                        "not capacity search settings: %s %s..%s to within %s, repetitions %d..%d",
                        axis.unit,
                        minLoad,
                        maxLoad,
                        resolution,
                        repetitions,
                        maxRepetitions));
            }
        }

        /** The most points a search tries: the lower bound, the doublings up to the upper bound, the halvings. */
        public int maxPoints() {
            int points = 1;
            double load = minLoad;
            while (load < maxLoad) {
                load = Math.min(2 * load, maxLoad);
                points++;
            }
            // a bracket [passing, min(2 * passing, max)] is at most half the upper bound wide
            for (double gap = half(maxLoad); gap > resolution; gap = half(gap)) {
                points++;
            }
            return points;
        }

        /** The widest half of a bracket {@code gap} wide: on whole loads the middle is rounded down. */
        private double half(double gap) {
            return axis.whole ? Math.ceil(gap / 2) : gap / 2;
        }

        /** The load bisection tries between a passing and a failing one. */
        double middle(double passing, double failing) {
            double half = (failing - passing) / 2;
            return passing + (axis.whole ? Math.floor(half) : half);
        }
    }

    /** Hears of the search's progress: runs take minutes. */
    public interface Listener {

        default void starting(int point, double load, int repetition, int runsPlanned) {}

        default void ran(int point, double load, LoadRun run, List<String> misses) {}

        default void tried(LoadPoint point) {}
    }

    private final Settings settings;
    private final LoadEvaluator evaluator;
    private final Listener listener;
    private final List<LoadPoint> points = new ArrayList<>();

    public CapacitySearch(Settings settings, LoadEvaluator evaluator, Listener listener) {
        this.settings = settings;
        this.evaluator = evaluator;
        this.listener = listener;
    }

    /** Searches the range; stops at the first run that could not be measured. */
    public CapacityResult run() {
        Double passing = null;
        Double failing = null;
        try {
            double lo = settings.minLoad();
            if (!tryPoint(lo).verdict().passed()) {
                return result(CapacityResult.Status.NONE_PASSES, null, lo, null);
            }
            passing = lo;
            while (failing == null && passing < settings.maxLoad()) {
                double next = Math.min(2 * passing, settings.maxLoad());
                if (tryPoint(next).verdict().passed()) {
                    passing = next;
                } else {
                    failing = next;
                }
            }
            if (failing == null) {
                return result(CapacityResult.Status.UPPER_BOUND_PASSES, passing, null, null);
            }
            while (failing - passing > settings.resolution()) {
                double mid = settings.middle(passing, failing);
                if (tryPoint(mid).verdict().passed()) {
                    passing = mid;
                } else {
                    failing = mid;
                }
            }
            return result(CapacityResult.Status.FOUND, passing, failing, null);
        } catch (Stopped stopped) {
            return result(CapacityResult.Status.STOPPED, passing, failing, stopped.getMessage());
        }
    }

    private CapacityResult result(CapacityResult.Status status, Double passing, Double failing, String failure) {
        return new CapacityResult(points, status, passing, failing, failure);
    }

    private LoadPoint tryPoint(double load) throws Stopped {
        int number = points.size() + 1;
        List<LoadPoint.Run> runs = new ArrayList<>();
        int planned = settings.repetitions();
        int met = 0;
        for (int rep = 1; rep <= planned; rep++) {
            listener.starting(number, load, rep, planned);
            LoadRun result;
            try {
                result = evaluator.measure(number, load, rep);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                points.add(new LoadPoint(number, load, runs, Verdict.RUN_FAILED));
                throw new Stopped(String.format(
                        Locale.ROOT,
                        "point %d (%s), run %d could not be measured: %s",
                        number,
                        settings.axis().quantity(load),
                        rep,
                        e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()));
            }
            List<String> misses = settings.slo().misses(result);
            runs.add(new LoadPoint.Run(result, misses.isEmpty()));
            met += misses.isEmpty() ? 1 : 0;
            listener.ran(number, load, result, misses);
            if (rep == planned && planned < settings.maxRepetitions() && Verdict.disagree(met, runs.size())) {
                planned = settings.maxRepetitions();
            }
        }
        LoadPoint point = new LoadPoint(number, load, runs, Verdict.of(met, runs.size()));
        points.add(point);
        listener.tried(point);
        return point;
    }

    /** A run could not be measured: the search ends with what it has. */
    private static final class Stopped extends Exception {

        private static final long serialVersionUID = 1L;

        Stopped(String message) {
            super(message, null, false, false);
        }
    }
}
