package org.itsrt.experiments.capacity;

import org.itsrt.records.Workload;

/**
 * What one run measured of one of the district's streams that the SLO judges.
 *
 * @param stream   which: readings -> predictions, or requests -> answers
 * @param p99Ms    the stream's p99 from the intended send time, measured phase, ms (NaN without records)
 * @param measured records of the stream measured end to end in the measured phase
 * @param lost     measured records that never arrived (a reading without its prediction, a request without
 *                 its answer)
 * @param lag      the trend of the stream's per-window latency
 */
public record StreamRun(Workload.Stream stream, double p99Ms, long measured, long lost, LagTrend lag) {

    /** What a lost record of this stream is, after its count. */
    String lostWords() {
        return stream == Workload.Stream.ROUTES ? "requests unanswered" : "readings without a prediction";
    }
}
