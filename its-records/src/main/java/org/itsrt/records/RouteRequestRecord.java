package org.itsrt.records;

import java.time.Instant;
import java.util.Objects;

/**
 * A record on {@code its.route-requests} (docs/records.md): a traveller asks for a route from one
 * station to another, leaving at a given time. Keyed by the traveller, so requests spread over the
 * partitions and the job's routing subtasks; stamped by the producer as readings are, so the probe
 * can measure request to answer. Built with {@link #builder()}; read and written by
 * {@link RouteRecordJson}.
 *
 * @param traveller   who asks, a positive id; the record's key
 * @param origin      VDS id of the station the route starts at
 * @param destination VDS id of the station it ends at; never the origin
 * @param departure   when the traveller means to leave (UTC)
 * @param requestedAt the producer's wall clock when the request was made, so that a departure in
 *                    the past is decidable from the record alone
 * @param stream      the producer stream that made the request; {@code seq} counts per stream
 * @param seq         per-stream sequence number from 0: the probe tells loss, duplicates and
 *                    reordering of the answers by it
 * @param sentNs      producer clock just before {@code send} (docs/clock.md)
 * @param intendedNs  when the open-loop schedule meant to send it, on the same clock
 * @param warmup      sent in the run's warm-up phase: the probe keeps its answer out of the
 *                    measured statistics
 */
public record RouteRequestRecord(
        long traveller,
        long origin,
        long destination,
        Instant departure,
        Instant requestedAt,
        int stream,
        long seq,
        long sentNs,
        long intendedNs,
        boolean warmup) {

    public RouteRequestRecord {
        Objects.requireNonNull(departure, "departure");
        Objects.requireNonNull(requestedAt, "requestedAt");
    }

    /** The Kafka key of the record: the traveller id as a decimal string. */
    public String key() {
        return Long.toString(traveller);
    }

    /** The same request stamped at send time. */
    public RouteRequestRecord stamped(long sentNs, long intendedNs) {
        return new RouteRequestRecord(
                traveller, origin, destination, departure, requestedAt, stream, seq, sentNs, intendedNs, warmup);
    }

    /** The same request flagged as a warm-up record, or not. */
    public RouteRequestRecord withWarmup(boolean warmup) {
        return new RouteRequestRecord(
                traveller, origin, destination, departure, requestedAt, stream, seq, sentNs, intendedNs, warmup);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Builds a request field by field. {@link #build()} refuses a request with a field not set
     * (naming it), so that a field added later cannot be left at 0 by a caller written before it;
     * the stamps and {@code warmup} are optional (0, 0 and false until the sender stamps it). What
     * the wire format rejects beyond that (origin = destination, a departure in the past) is left to
     * the reader, {@link RouteRecordJson#readRequest}, so that a test or the fuzzer can still write it.
     */
    public static final class Builder {
        private Long traveller;
        private Long origin;
        private Long destination;
        private Instant departure;
        private Instant requestedAt;
        private Integer stream;
        private Long seq;
        private long sentNs;
        private long intendedNs;
        private boolean warmup;

        private Builder() {}

        public Builder traveller(long traveller) {
            this.traveller = traveller;
            return this;
        }

        public Builder origin(long origin) {
            this.origin = origin;
            return this;
        }

        public Builder destination(long destination) {
            this.destination = destination;
            return this;
        }

        public Builder departure(Instant departure) {
            this.departure = departure;
            return this;
        }

        public Builder requestedAt(Instant requestedAt) {
            this.requestedAt = requestedAt;
            return this;
        }

        public Builder stream(int stream) {
            this.stream = stream;
            return this;
        }

        public Builder seq(long seq) {
            this.seq = seq;
            return this;
        }

        public Builder sentNs(long sentNs) {
            this.sentNs = sentNs;
            return this;
        }

        public Builder intendedNs(long intendedNs) {
            this.intendedNs = intendedNs;
            return this;
        }

        public Builder warmup(boolean warmup) {
            this.warmup = warmup;
            return this;
        }

        /** @throws IllegalStateException naming the first required field that was not set */
        public RouteRequestRecord build() {
            return new RouteRequestRecord(
                    required(traveller, "traveller"),
                    required(origin, "origin"),
                    required(destination, "destination"),
                    required(departure, "departure"),
                    required(requestedAt, "requestedAt"),
                    required(stream, "stream"),
                    required(seq, "seq"),
                    sentNs,
                    intendedNs,
                    warmup);
        }
    }

    private static <T> T required(T value, String field) {
        if (value == null) {
            throw new IllegalStateException("route request: " + field + " not set");
        }
        return value;
    }
}
