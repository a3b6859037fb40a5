package org.itsrt.records;

/**
 * The measurement view of a route request or a route answer (docs/records.md): the producer stream
 * and its sequence number, the traveller, the request's stamps, the job's stage durations and the
 * outcome, without the route. What the latency probe needs to measure request to answer; read by
 * {@link RouteStampsReader}.
 *
 * <p>Stamps are nanoseconds of the host's latency clock (docs/clock.md); optional fields hold
 * {@link RecordStamps#ABSENT} when the record lacks them (a request carries no stage durations).
 *
 * @param stream     the producer stream the request came from
 * @param seq        the request's sequence number within its stream, from 0
 * @param traveller  who asked
 * @param sentNs     the producer's stamp just before it sent the request
 * @param intendedNs the open-loop schedule's intended send time, or {@link RecordStamps#ABSENT}
 * @param parseNs    in-job parse duration, or {@link RecordStamps#ABSENT}
 * @param routeNs    in-job routing duration, or {@link RecordStamps#ABSENT}
 * @param warmup     the request belongs to the run's warm-up phase
 * @param outcome    how the job answered; {@code null} for a request, which has none
 */
public record RouteStamps(
        int stream,
        long seq,
        long traveller,
        long sentNs,
        long intendedNs,
        long parseNs,
        long routeNs,
        boolean warmup,
        RouteOutcome outcome) {

    public boolean hasIntended() {
        return intendedNs != RecordStamps.ABSENT;
    }

    /** True when the record carries at least one in-job stage duration (answers on its.routes). */
    public boolean hasStages() {
        return parseNs != RecordStamps.ABSENT || routeNs != RecordStamps.ABSENT;
    }

    /** True for an answer (its.routes), false for a request (its.route-requests). */
    public boolean isAnswer() {
        return outcome != null;
    }

    /**
     * The same stamps in the shape the probe measures every topic by, with the stream in the place
     * of the detector: the probe keys its loss, duplicate and order checks by that field and
     * {@code seq}, and a request's {@code seq} counts per stream. Routing has no inference stage.
     */
    public RecordStamps toRecordStamps() {
        return new RecordStamps(stream, seq, sentNs, intendedNs, parseNs, RecordStamps.ABSENT, routeNs, warmup, false);
    }
}
