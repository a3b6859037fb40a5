package org.itsrt.experiments.capacity;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** One line before and after each run, one per point: runs take minutes. */
public final class CapacityProgress implements CapacitySearch.Listener {

    private final PrintStream log;

    public CapacityProgress(PrintStream log) {
        this.log = log;
    }

    @Override
    public void starting(int point, double rate, int repetition, int runsPlanned) {
        log.printf(
                Locale.ROOT,
                "capacity: point %d, %s requests/s, run %d of %d%n",
                point,
                CapacitySlo.number(rate),
                repetition,
                runsPlanned);
    }

    @Override
    public void ran(int point, double rate, RateRun run, List<String> misses) {
        log.printf(
                Locale.ROOT,
                "capacity: point %d: p99 %.2f ms, lag slope %.2f ms/s over %d windows, %d lost: %s%n",
                point,
                run.p99Ms(),
                run.lag().slopeMsPerS(),
                run.lag().windows(),
                run.lost(),
                misses.isEmpty() ? "meets the SLO" : "misses it (" + String.join(", ", misses) + ")");
    }

    @Override
    public void tried(RatePoint point) {
        log.printf(
                Locale.ROOT,
                "capacity: point %d, %s requests/s: %s (%d of %d runs met the SLO)%n",
                point.number(),
                CapacitySlo.number(point.rate()),
                point.verdict().text,
                point.runsMeetingSlo(),
                point.runs().size());
    }
}
