package org.itsrt.probe.arrival;

import org.itsrt.records.RecordStamps;

/**
 * One record as the probe saw it: the fields it measures with, and the moment it arrived.
 *
 * <p>All stamps are nanoseconds of the host's latency clock (docs/design.md, D4): {@code sentNs} and
 * {@code intendedNs} were taken by the producer, {@code arrivalNs} by the probe, so their
 * differences are durations. Optional fields hold {@link #ABSENT} when the record lacks them:
 * records read off {@code its.readings} carry no stage durations, and a producer without an
 * open-loop schedule may carry no intended time. The record's fields are read by
 * {@link org.itsrt.records.RecordStampsReader}, the one reader of the wire format's stamps.
 *
 * @param detector   detector (VDS) id
 * @param seq        the producer's per-detector sequence number, from 0
 * @param sentNs     producer's stamp just before send
 * @param intendedNs the open-loop schedule's intended send time, or {@link #ABSENT}
 * @param parseNs    in-job parse duration, or {@link #ABSENT}
 * @param inferNs    in-job inference duration, or {@link #ABSENT}
 * @param routeNs    in-job routing duration, or {@link #ABSENT}
 * @param arrivalNs  the probe's stamp when the poll that returned this record came back
 * @param warmup     a record of the run's warm-up phase: kept out of the measured statistics
 * @param degraded   predicted by the job's cheap engine to meet the deadline (docs/deadlines.md)
 * @param predictedFlow the job's prediction on the record, or {@link Double#NaN} when it carries none
 */
public record Arrival(
        long detector,
        long seq,
        long sentNs,
        long intendedNs,
        long parseNs,
        long inferNs,
        long routeNs,
        long arrivalNs,
        boolean warmup,
        boolean degraded,
        double predictedFlow) {

    /** Marks an optional field the record does not carry. */
    public static final long ABSENT = RecordStamps.ABSENT;

    /** A measured record's arrival: not part of a warm-up. */
    public Arrival(
            long detector,
            long seq,
            long sentNs,
            long intendedNs,
            long parseNs,
            long inferNs,
            long routeNs,
            long arrivalNs) {
        this(detector, seq, sentNs, intendedNs, parseNs, inferNs, routeNs, arrivalNs, false, false, Double.NaN);
    }

    /** The record's stamps with the probe's arrival stamp. */
    public static Arrival of(RecordStamps stamps, long arrivalNs) {
        return new Arrival(
                stamps.detector(),
                stamps.seq(),
                stamps.sentNs(),
                stamps.intendedNs(),
                stamps.parseNs(),
                stamps.inferNs(),
                stamps.routeNs(),
                arrivalNs,
                stamps.warmup(),
                stamps.degraded(),
                stamps.predictedFlow());
    }

    public boolean hasPrediction() {
        return !Double.isNaN(predictedFlow);
    }

    public boolean hasIntended() {
        return intendedNs != ABSENT;
    }

    /** Arrival minus the producer's send stamp: the pipeline's own latency. */
    public long latencyFromSentNs() {
        return arrivalNs - sentNs;
    }

    /**
     * Arrival minus the intended send time: also counts time a record waited before it could be
     * sent (coordinated omission), so a stalled producer cannot hide a stalled pipeline.
     * {@link #ABSENT} when the record has no intended time.
     */
    public long latencyFromIntendedNs() {
        return hasIntended() ? arrivalNs - intendedNs : ABSENT;
    }

    /** True when the record carries at least one in-job stage duration (records of its.advice). */
    public boolean hasStages() {
        return parseNs != ABSENT || inferNs != ABSENT || routeNs != ABSENT;
    }
}
