package org.itsrt.experiments.capacity;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** One line before and after each run, one per point: runs take minutes. */
public final class CapacityProgress implements CapacitySearch.Listener {

    private final CapacityAxis axis;
    private final PrintStream log;

    public CapacityProgress(CapacityAxis axis, PrintStream log) {
        this.axis = axis;
        this.log = log;
    }

    @Override
    public void starting(int point, double load, int repetition, int runsPlanned) {
        log.printf(
                Locale.ROOT,
                "capacity: point %d, %s, run %d of %d%n",
                point,
                axis.quantity(load),
                repetition,
                runsPlanned);
    }

    @Override
    public void ran(int point, double load, LoadRun run, List<String> misses) {
        log.printf(
                Locale.ROOT,
                "capacity: point %d: %s: %s%n",
                point,
                run.streams().stream()
                        .map(s -> String.format(
                                Locale.ROOT,
                                "%s p99 %.2f ms, lag slope %.2f ms/s over %d windows, %d lost",
                                s.stream().measures(),
                                s.p99Ms(),
                                s.lag().slopeMsPerS(),
                                s.lag().windows(),
                                s.lost()))
                        .collect(Collectors.joining("; ")),
                misses.isEmpty() ? "meets the SLO" : "misses it (" + String.join(", ", misses) + ")");
    }

    @Override
    public void tried(LoadPoint point) {
        log.printf(
                Locale.ROOT,
                "capacity: point %d, %s: %s (%d of %d runs met the SLO)%n",
                point.number(),
                axis.quantity(point.load()),
                point.verdict().text,
                point.runsMeetingSlo(),
                point.runs().size());
    }
}
