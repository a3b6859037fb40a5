package org.itsrt.experiments.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a run must meet for its rate to be served: its requests' p99 (from the intended send time,
 * measured phase) within the target, no growing lag ({@link LagTrend} within the tolerance), and
 * every measured request answered by a run that exited cleanly. Above its capacity a run is
 * expected not to deliver everything in time, so a run that loses requests or exits non-zero
 * misses the SLO rather than stopping the search.
 *
 * @param p99Ms                the p99 target, ms
 * @param lagToleranceMsPerS   the largest slope of the answers' per-window p95 that counts as no growing lag
 */
public record CapacitySlo(double p99Ms, double lagToleranceMsPerS) {

    /** The default p99 target of requests -> answers. */
    public static final double DEFAULT_P99_MS = 50;

    /** The default lag tolerance: the job falling behind by at most 0.5 % of the offered rate. */
    public static final double DEFAULT_LAG_TOLERANCE_MS_PER_S = 5;

    public CapacitySlo {
        if (!(p99Ms > 0)
                || Double.isInfinite(p99Ms)
                || !(lagToleranceMsPerS >= 0)
                || Double.isInfinite(lagToleranceMsPerS)) {
            throw new IllegalArgumentException("not a capacity SLO: p99 " + p99Ms + " ms, lag tolerance "
                    + lagToleranceMsPerS + " ms/s (expected p99 > 0, tolerance >= 0)");
        }
    }

    public boolean meets(RateRun run) {
        return misses(run).isEmpty();
    }

    /** What the run missed, in words; empty when it met the SLO. */
    public List<String> misses(RateRun run) {
        List<String> why = new ArrayList<>();
        if (run.exitCode() != 0) {
            why.add("exit code " + run.exitCode());
        }
        if (run.lost() > 0) {
            why.add(run.lost() + " requests unanswered");
        }
        if (!(run.p99Ms() <= p99Ms)) {
            why.add(String.format(Locale.ROOT, "p99 %.2f > %s ms", run.p99Ms(), number(p99Ms)));
        }
        if (!run.lag().within(lagToleranceMsPerS)) {
            why.add(
                    Double.isNaN(run.lag().slopeMsPerS())
                            ? "lag trend unknown (" + run.lag().windows() + " windows)"
                            : String.format(
                                    Locale.ROOT,
                                    "lag slope %.2f > %s ms/s",
                                    run.lag().slopeMsPerS(),
                                    number(lagToleranceMsPerS)));
        }
        return why;
    }

    static String number(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
