package org.itsrt.experiments.tune;

import java.util.List;
import org.itsrt.experiments.run.RowRun;

/**
 * One budget the search tried, with every run at it in order.
 *
 * @param number the point's number in the whole search, from 1
 */
public record TriedPoint(int number, long periodUs, long budgetUs, List<Run> runs, Verdict verdict) {

    /** One run and whether it met the SLO. */
    public record Run(RowRun result, boolean metSlo) {}

    public TriedPoint {
        runs = List.copyOf(runs);
    }

    /** Share of one CPU per CPU of the real-time side. */
    public double utilization() {
        return (double) budgetUs / periodUs;
    }

    public int runsMeetingSlo() {
        return (int) runs.stream().filter(Run::metSlo).count();
    }

    /** Runs that measured (exit code 0): what the SLO evidence consists of. */
    public List<Run> measuredRuns() {
        return runs.stream().filter(r -> r.result().exitCode() == 0).toList();
    }
}
