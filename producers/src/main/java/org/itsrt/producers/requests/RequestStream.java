package org.itsrt.producers.requests;

import java.time.Duration;
import java.time.Instant;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.records.RouteRequestRecord;

/**
 * The route requests of one producer stream (docs/producers.md, "Route requests"): request k is a
 * function of the seed, the stream and k alone, so a run can be repeated request for request, a
 * sender can start anywhere, and two senders of one stream agree. Request k has {@code seq} k, a
 * traveller drawn uniformly from {@code 1..travellers}, an origin and destination drawn from the
 * {@link GravityModel}, and a departure a uniformly drawn whole number of seconds from 0 to the
 * maximum lead after the time it is requested at.
 *
 * <p>The uniform numbers come from SplitMix64's mixing function (Steele, Lea and Flood, "Fast
 * splittable pseudorandom number generators", OOPSLA 2014; the finalizer of
 * {@link java.util.SplittableRandom}) applied to a counter: one 64-bit draw per field of
 * request k, without a generator object, so drawing a request allocates nothing but the record
 * and its departure. Streams of one seed draw from keys mixed from the stream id, so they are
 * independent of each other.
 */
public final class RequestStream {

    /** The number of distinct travellers unless given. */
    public static final long DEFAULT_TRAVELLERS = 100_000;
    /** The largest lead from request to departure unless given: up to a quarter of an hour ahead. */
    public static final Duration DEFAULT_MAX_LEAD = Duration.ofMinutes(15);

    /** SplitMix64's increment, the odd 64-bit fraction of the golden ratio. */
    private static final long GAMMA = 0x9E3779B97F4A7C15L;

    private static final int TRAVELLER = 0;
    private static final int ORIGIN = 1;
    private static final int DESTINATION = 2;
    private static final int LEAD = 3;
    private static final int DRAWS_PER_REQUEST = 4;

    private final GravityModel model;
    private final int stream;
    private final long travellers;
    private final long maxLeadSeconds;
    private final long key;

    /**
     * @param model      where travellers go
     * @param seed       the run's seed
     * @param stream     this producer stream's id (0 or more), written into every request
     * @param travellers how many distinct travellers ask, ids 1..travellers
     * @param maxLead    the largest lead from request time to departure, 0 .. 24 h (a later departure
     *                   is rejected by the job, {@link RouteRecordJson#MAX_DEPARTURE_LEAD})
     * @throws IllegalArgumentException naming the parameter that is out of range
     */
    public RequestStream(GravityModel model, long seed, int stream, long travellers, Duration maxLead) {
        if (model == null) {
            throw new IllegalArgumentException("request stream: no gravity model");
        }
        if (stream < 0) {
            throw new IllegalArgumentException("request stream: stream must be 0 or more, got " + stream);
        }
        if (travellers < 1) {
            throw new IllegalArgumentException("request stream: travellers must be 1 or more, got " + travellers);
        }
        if (maxLead == null || maxLead.isNegative() || maxLead.compareTo(RouteRecordJson.MAX_DEPARTURE_LEAD) > 0) {
            throw new IllegalArgumentException(
                    "request stream: the maximum lead must be from 0 to " + RouteRecordJson.MAX_DEPARTURE_LEAD
                            + " (the job rejects a departure further ahead), got " + maxLead);
        }
        this.model = model;
        this.stream = stream;
        this.travellers = travellers;
        this.maxLeadSeconds = maxLead.toSeconds();
        this.key = mix(seed ^ mix(stream + GAMMA));
    }

    /** A stream with {@link #DEFAULT_TRAVELLERS} and {@link #DEFAULT_MAX_LEAD}. */
    public static RequestStream of(GravityModel model, long seed, int stream) {
        return new RequestStream(model, seed, stream, DEFAULT_TRAVELLERS, DEFAULT_MAX_LEAD);
    }

    /**
     * Request {@code k} of this stream, made at {@code requestedAt} (the sender's wall clock), not yet
     * stamped ({@code sent_ns} and {@code intended_ns} 0) and not a warm-up record: the sender
     * sets those with {@link RouteRequestRecord#stamped} and {@link RouteRequestRecord#withWarmup}.
     */
    public RouteRequestRecord request(long k, Instant requestedAt) {
        if (k < 0) {
            throw new IllegalArgumentException("request stream: request number must be 0 or more, got " + k);
        }
        int origin = model.sampleOrigin(uniform(k, ORIGIN));
        int destination = model.sampleDestination(origin, uniform(k, DESTINATION));
        long traveller = 1 + Long.remainderUnsigned(draw(k, TRAVELLER), travellers);
        long leadSeconds = Long.remainderUnsigned(draw(k, LEAD), maxLeadSeconds + 1);
        return new RouteRequestRecord(
                traveller,
                model.station(origin),
                model.station(destination),
                requestedAt.plusSeconds(leadSeconds),
                requestedAt,
                stream,
                k,
                0,
                0,
                false);
    }

    public int stream() {
        return stream;
    }

    /** The 64 bits of draw {@code field} of request {@code k}. */
    private long draw(long k, int field) {
        return mix(key + (k * DRAWS_PER_REQUEST + field) * GAMMA);
    }

    /** A uniform number in [0, 1) from the top 53 bits of a draw. */
    private double uniform(long k, int field) {
        return (draw(k, field) >>> 11) * 0x1.0p-53;
    }

    /** SplitMix64's finalizer (Stafford's variant 13): a bijection of 64 bits that mixes every bit into every other. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
