package org.itsrt.records;

/**
 * The measurement view of a record of its.readings, its.advice or its.predictions: who sent it,
 * its sequence number and its stamps, without the payload. What the latency probe needs of every
 * record it consumes; read by {@link RecordStampsReader}.
 *
 * <p>Stamps are nanoseconds of the host's latency clock (docs/clock.md). Optional fields hold
 * {@link #ABSENT} when the record lacks them: records of {@code its.readings} carry no stage
 * durations, and a producer without an open-loop schedule may carry no intended time.
 *
 * @param detector   detector (VDS) id
 * @param seq        the producer's per-detector sequence number, from 0
 * @param sentNs     the producer's stamp just before send
 * @param intendedNs the open-loop schedule's intended send time, or {@link #ABSENT}
 * @param parseNs    in-job parse duration, or {@link #ABSENT}
 * @param inferNs    in-job inference duration, or {@link #ABSENT}
 * @param routeNs    in-job routing duration, or {@link #ABSENT}
 * @param warmup     the record belongs to the run's warm-up phase ({@code "warmup":true})
 * @param degraded   the job predicted it with its cheap engine to meet the deadline
 *                   ({@code "degraded":true}, docs/deadlines.md)
 * @param predictedFlow the job's {@code predicted_flow} (advice and predictions), or
 *                   {@link Double#NaN} when the record carries none: kept so a run's predictions
 *                   can be held against another run's on the same records (what degrading costs)
 */
public record RecordStamps(
        long detector,
        long seq,
        long sentNs,
        long intendedNs,
        long parseNs,
        long inferNs,
        long routeNs,
        boolean warmup,
        boolean degraded,
        double predictedFlow) {

    /** Marks an optional field the record does not carry (no clock reading or duration is this value). */
    public static final long ABSENT = Long.MIN_VALUE;

    /** The stamps of a measured record: not part of a warm-up. */
    public RecordStamps(
            long detector, long seq, long sentNs, long intendedNs, long parseNs, long inferNs, long routeNs) {
        this(detector, seq, sentNs, intendedNs, parseNs, inferNs, routeNs, false, false);
    }

    /** The stamps of a record that carries no prediction (a reading, a route request or answer). */
    public RecordStamps(
            long detector,
            long seq,
            long sentNs,
            long intendedNs,
            long parseNs,
            long inferNs,
            long routeNs,
            boolean warmup,
            boolean degraded) {
        this(detector, seq, sentNs, intendedNs, parseNs, inferNs, routeNs, warmup, degraded, Double.NaN);
    }

    /** True when the record carries the job's prediction. */
    public boolean hasPrediction() {
        return !Double.isNaN(predictedFlow);
    }

    public boolean hasIntended() {
        return intendedNs != ABSENT;
    }

    /** True when the record carries at least one in-job stage duration (records of its.advice). */
    public boolean hasStages() {
        return parseNs != ABSENT || inferNs != ABSENT || routeNs != ABSENT;
    }
}
