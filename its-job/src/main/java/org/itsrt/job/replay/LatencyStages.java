package org.itsrt.job.replay;

import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Wall-clock time spent in each stage of the per-reading work, one HdrHistogram per stage.
 * Recorded in nanoseconds with 3 significant digits, the precision JMH and the latency probe use.
 */
final class LatencyStages {

    private static final long HIGHEST_TRACKABLE_NS = 60_000_000_000L;

    private final Map<String, Histogram> histograms = new LinkedHashMap<>();

    LatencyStages(String... stages) {
        for (String stage : stages) {
            histograms.put(stage, new Histogram(HIGHEST_TRACKABLE_NS, 3));
        }
    }

    void record(String stage, long nanos) {
        Histogram histogram = histograms.get(stage);
        if (histogram == null) {
            throw new IllegalArgumentException("unknown stage " + stage + "; known: " + histograms.keySet());
        }
        histogram.recordValue(Math.min(Math.max(nanos, 0), HIGHEST_TRACKABLE_NS));
    }

    Map<String, Histogram> histograms() {
        return histograms;
    }
}
