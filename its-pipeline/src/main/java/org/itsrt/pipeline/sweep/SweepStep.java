package org.itsrt.pipeline.sweep;

import org.itsrt.pipeline.RunResult;
import org.itsrt.probe.report.ProbeSummary;

/**
 * One step of a rate sweep as the report shows it.
 *
 * @param offeredPerS    the producers' total rate, all detectors together
 * @param records        records the step sent and meant to measure
 * @param measured       records the probe measured
 * @param deliveredPerS  measured records over the probe's active span (first to last arrival): below the offered
 *                       rate when the pipeline fell behind and drained afterwards
 * @param p50Ms          steady-state p50 from intended (the whole step when it has no steady state), null with no records
 * @param p99Ms          as p50Ms, the 99th percentile
 * @param maxMs          as p50Ms, the largest
 * @param lost           sequence numbers that never arrived plus records announced but never received
 * @param duplicated     records that arrived twice
 * @param deadLettered   the job's dead letters in the step, -1 when not counted
 * @param exitCode       the step's {@link RunResult#exitCode()}
 */
public record SweepStep(
        double offeredPerS,
        long records,
        long measured,
        double deliveredPerS,
        Double p50Ms,
        Double p99Ms,
        Double maxMs,
        long lost,
        long duplicated,
        long deadLettered,
        int exitCode) {

    /** The step's row from a measured run at {@code offeredPerS}. */
    public static SweepStep of(double offeredPerS, long records, RunResult result) {
        ProbeSummary probe = result.probe();
        ProbeSummary.LatencyStats latency =
                probe.latency().fromIntended().steadyOrAll(ProbeSummary.LatencyStats::count);
        double span = probe.run().activeSpanS();
        long measured = probe.records().measured();
        return new SweepStep(
                offeredPerS,
                records,
                measured,
                span > 0 ? measured / span : 0,
                latency.p50Ms(),
                latency.p99Ms(),
                latency.maxMs(),
                probe.lostOrMissing(),
                probe.sequence().total().duplicated(),
                result.deadLettered(),
                result.exitCode());
    }
}
