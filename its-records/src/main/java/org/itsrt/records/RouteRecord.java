package org.itsrt.records;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A record on {@code its.routes} (docs/records.md): the job's answer to one
 * {@link RouteRequestRecord}. It carries the request's identity and stamps unchanged, so the probe
 * measures request to answer and tells loss and duplicates by {@code (stream, seq)}; the outcome,
 * the route and its predicted travel time; the version of the network state the route was computed
 * on; and the time the job spent on it. Built with {@link #answering}; read and written by
 * {@link RouteRecordJson}.
 *
 * @param traveller      the request's traveller; the record's key, as the request's
 * @param stream         the request's producer stream
 * @param seq            the request's per-stream sequence number
 * @param sentNs         the request's send stamp (producer clock)
 * @param intendedNs     the request's intended send time (producer clock)
 * @param warmup         the request was a warm-up record
 * @param origin         the request's origin station (VDS id)
 * @param destination    the request's destination station (VDS id)
 * @param departure      the request's departure time (UTC)
 * @param outcome        how the request was answered
 * @param route          VDS ids from origin to destination when {@link RouteOutcome#ROUTED}, else empty
 * @param travelTimeS    predicted travel time of the route in seconds, departing at {@code departure};
 *                       {@code NaN} (JSON {@code null}) unless routed
 * @param networkVersion the version of the network state the answer was computed on: the number of
 *                       cost updates the routing state had applied, which grows by one per update
 *                       and is part of the job's checkpointed state, so answers can be ordered by
 *                       the state they saw and a restored job goes on counting from its checkpoint
 * @param parseNs        time the job took to parse and validate the request ({@code System.nanoTime})
 * @param routeNs        time the job took to route it
 */
public record RouteRecord(
        long traveller,
        int stream,
        long seq,
        long sentNs,
        long intendedNs,
        boolean warmup,
        long origin,
        long destination,
        Instant departure,
        RouteOutcome outcome,
        List<Long> route,
        double travelTimeS,
        long networkVersion,
        long parseNs,
        long routeNs) {

    public RouteRecord {
        Objects.requireNonNull(departure, "departure");
        Objects.requireNonNull(outcome, "outcome");
        route = List.copyOf(route);
    }

    /** The Kafka key of the record: the traveller id as a decimal string, as the request's. */
    public String key() {
        return Long.toString(traveller);
    }

    /** True when the answer carries a route and its travel time. */
    public boolean isRouted() {
        return outcome == RouteOutcome.ROUTED;
    }

    /** An answer to {@code request}, carrying its identity and stamps; the outcome is set next. */
    public static Builder answering(RouteRequestRecord request) {
        return new Builder(request);
    }

    /**
     * Builds an answer: the identity and stamps come from the request, one of {@link #routed},
     * {@link #unreachable} or {@link #expired} sets the outcome, and {@link #build()} refuses an answer without one.
     */
    public static final class Builder {
        private final RouteRequestRecord request;
        private RouteOutcome outcome;
        private List<Long> route = List.of();
        private double travelTimeS = Double.NaN;
        private long networkVersion;
        private long parseNs;
        private long routeNs;

        private Builder(RouteRequestRecord request) {
            this.request = Objects.requireNonNull(request, "request");
        }

        /** A route was found: its stations, origin first, and its predicted travel time (s). */
        public Builder routed(List<Long> route, double travelTimeS) {
            this.outcome = RouteOutcome.ROUTED;
            this.route = List.copyOf(route);
            this.travelTimeS = travelTimeS;
            return this;
        }

        /** No path leads from the origin to the destination. */
        public Builder unreachable() {
            this.outcome = RouteOutcome.UNREACHABLE;
            this.route = List.of();
            this.travelTimeS = Double.NaN;
            return this;
        }

        /** The request's deadline had passed when it reached the routing step: not routed. */
        public Builder expired() {
            this.outcome = RouteOutcome.EXPIRED;
            this.route = List.of();
            this.travelTimeS = Double.NaN;
            return this;
        }

        public Builder networkVersion(long networkVersion) {
            this.networkVersion = networkVersion;
            return this;
        }

        public Builder parseNs(long parseNs) {
            this.parseNs = parseNs;
            return this;
        }

        public Builder routeNs(long routeNs) {
            this.routeNs = routeNs;
            return this;
        }

        /** @throws IllegalStateException when no outcome was set */
        public RouteRecord build() {
            if (outcome == null) {
                throw new IllegalStateException("route answer: outcome not set (call routed(...) or unreachable())");
            }
            return new RouteRecord(
                    request.traveller(),
                    request.stream(),
                    request.seq(),
                    request.sentNs(),
                    request.intendedNs(),
                    request.warmup(),
                    request.origin(),
                    request.destination(),
                    request.departure(),
                    outcome,
                    route,
                    travelTimeS,
                    networkVersion,
                    parseNs,
                    routeNs);
        }
    }
}
