package org.itsrt.experiments.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a run must meet for its load to be served, by each stream it judges ({@link LoadRun#streams}):
 * the stream's p99 (from the intended send time, measured phase) within the target, no growing lag
 * ({@link LagTrend} within the tolerance), and every measured record delivered; and the run exited
 * cleanly. Above its capacity a run is expected not to deliver everything in time, so a run that
 * loses records or exits non-zero misses the SLO rather than stopping the search.
 *
 * @param p99Ms                the p99 target of every judged stream, ms
 * @param lagToleranceMsPerS   the largest slope of a stream's per-window p95 that counts as no growing lag
 */
public record CapacitySlo(double p99Ms, double lagToleranceMsPerS) {

    /** The default p99 target of every judged stream. */
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

    /** What the run missed, in words, each stream's named by what it measures; empty when it met the SLO. */
    public List<String> misses(LoadRun run) {
        List<String> why = new ArrayList<>();
        if (run.exitCode() != 0) {
            why.add("exit code " + run.exitCode());
        }
        for (StreamRun stream : run.streams()) {
            String of = stream.stream().measures() + ": ";
            if (stream.lost() > 0) {
                why.add(of + stream.lost() + " " + stream.lostWords());
            }
            if (!(stream.p99Ms() <= p99Ms)) {
                why.add(of + String.format(Locale.ROOT, "p99 %.2f > %s ms", stream.p99Ms(), number(p99Ms)));
            }
            if (!stream.lag().within(lagToleranceMsPerS)) {
                why.add(of
                        + (Double.isNaN(stream.lag().slopeMsPerS())
                                ? "lag trend unknown (" + stream.lag().windows() + " windows)"
                                : String.format(
                                        Locale.ROOT,
                                        "lag slope %.2f > %s ms/s",
                                        stream.lag().slopeMsPerS(),
                                        number(lagToleranceMsPerS))));
            }
        }
        return why;
    }

    static String number(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
