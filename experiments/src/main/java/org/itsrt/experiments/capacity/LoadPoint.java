package org.itsrt.experiments.capacity;

import java.util.List;
import org.itsrt.experiments.tune.Verdict;

/**
 * One load the search tried, with every run at it in order.
 *
 * @param number the point's number in the search, from 1
 * @param load   requests/s or detectors, by the search's axis
 */
public record LoadPoint(int number, double load, List<Run> runs, Verdict verdict) {

    /** One run and whether it met the SLO. */
    public record Run(LoadRun result, boolean metSlo) {}

    public LoadPoint {
        runs = List.copyOf(runs);
    }

    public int runsMeetingSlo() {
        return (int) runs.stream().filter(Run::metSlo).count();
    }
}
