package org.itsrt.experiments.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.itsrt.experiments.tune.Verdict;

/**
 * The most route requests per second that meet a {@link CapacitySlo}: the lower bound of the
 * range first (if it fails, nothing in the range is served), then the rate doubled while it
 * passes (the upper bound tried when doubling would pass it), then the bracket (largest passing,
 * smallest failing) halved until it is no wider than the resolution.
 *
 * <p>Each point is run {@code repetitions} times and judged by tune's noise rule
 * ({@link Verdict#of}, {@link Verdict#disagree}): it passes only if every run meets the SLO, and
 * runs whose verdicts disagree are run up to {@code maxRepetitions} to measure how often the rate
 * is served. A run that could not be measured at all stops the search with what it has.
 */
public final class CapacitySearch {

    /**
     * @param minRate        the lowest rate, requests/s, tried first
     * @param maxRate        the highest rate tried
     * @param resolution     bisect until the capacity is known to within this many requests/s
     * @param repetitions    runs per point
     * @param maxRepetitions runs per point when the first {@code repetitions} disagree
     */
    public record Settings(
            double minRate, double maxRate, double resolution, int repetitions, int maxRepetitions, CapacitySlo slo) {

        public Settings {
            if (!(minRate > 0)
                    || !(maxRate > minRate)
                    || Double.isInfinite(maxRate)
                    || !(resolution > 0)
                    || repetitions < 1
                    || maxRepetitions < repetitions) {
                throw new IllegalArgumentException(String.format(
                        Locale.ROOT,
                        "not capacity search settings: rates %s..%s per s to within %s, repetitions %d..%d",
                        minRate,
                        maxRate,
                        resolution,
                        repetitions,
                        maxRepetitions));
            }
        }

        /** The most points a search tries: the lower bound, the doublings up to the upper bound, the halvings. */
        public int maxPoints() {
            int points = 1;
            double rate = minRate;
            while (rate < maxRate) {
                rate = Math.min(2 * rate, maxRate);
                points++;
            }
            // a bracket [passing, min(2 * passing, max)] is at most half the upper bound wide
            for (double gap = maxRate / 2; gap > resolution; gap /= 2) {
                points++;
            }
            return points;
        }
    }

    /** Hears of the search's progress: runs take minutes. */
    public interface Listener {

        default void starting(int point, double rate, int repetition, int runsPlanned) {}

        default void ran(int point, double rate, RateRun run, List<String> misses) {}

        default void tried(RatePoint point) {}
    }

    private final Settings settings;
    private final RateEvaluator evaluator;
    private final Listener listener;
    private final List<RatePoint> points = new ArrayList<>();

    public CapacitySearch(Settings settings, RateEvaluator evaluator, Listener listener) {
        this.settings = settings;
        this.evaluator = evaluator;
        this.listener = listener;
    }

    /** Searches the range; stops at the first run that could not be measured. */
    public CapacityResult run() {
        Double passing = null;
        Double failing = null;
        try {
            double lo = settings.minRate();
            if (!tryPoint(lo).verdict().passed()) {
                return result(CapacityResult.Status.NONE_PASSES, null, lo, null);
            }
            passing = lo;
            while (failing == null && passing < settings.maxRate()) {
                double next = Math.min(2 * passing, settings.maxRate());
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
                double mid = passing + (failing - passing) / 2;
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

    private RatePoint tryPoint(double rate) throws Stopped {
        int number = points.size() + 1;
        List<RatePoint.Run> runs = new ArrayList<>();
        int planned = settings.repetitions();
        int met = 0;
        for (int rep = 1; rep <= planned; rep++) {
            listener.starting(number, rate, rep, planned);
            RateRun result;
            try {
                result = evaluator.measure(number, rate, rep);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                points.add(new RatePoint(number, rate, runs, Verdict.RUN_FAILED));
                throw new Stopped(String.format(
                        Locale.ROOT,
                        "point %d (%s requests/s), run %d could not be measured: %s",
                        number,
                        CapacitySlo.number(rate),
                        rep,
                        e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()));
            }
            List<String> misses = settings.slo().misses(result);
            runs.add(new RatePoint.Run(result, misses.isEmpty()));
            met += misses.isEmpty() ? 1 : 0;
            listener.ran(number, rate, result, misses);
            if (rep == planned && planned < settings.maxRepetitions() && Verdict.disagree(met, runs.size())) {
                planned = settings.maxRepetitions();
            }
        }
        RatePoint point = new RatePoint(number, rate, runs, Verdict.of(met, runs.size()));
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
