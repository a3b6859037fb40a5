package org.itsrt.experiments.capacity;

import java.util.List;
import org.itsrt.experiments.tune.Verdict;

/**
 * One request rate the search tried, with every run at it in order.
 *
 * @param number the point's number in the search, from 1
 */
public record RatePoint(int number, double rate, List<Run> runs, Verdict verdict) {

    /** One run and whether it met the SLO. */
    public record Run(RateRun result, boolean metSlo) {}

    public RatePoint {
        runs = List.copyOf(runs);
    }

    public int runsMeetingSlo() {
        return (int) runs.stream().filter(Run::metSlo).count();
    }
}
