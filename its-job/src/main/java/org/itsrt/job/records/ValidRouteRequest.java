package org.itsrt.job.records;

import java.time.Instant;
import org.itsrt.records.RouteRequestRecord;

/**
 * A route request that passed validation, with the time validation took: what the routing step
 * needs and what its answer must carry back (docs/records.md, its.route-requests). A Flink POJO.
 */
public class ValidRouteRequest {

    public long traveller;
    /** VDS id of the station the route starts at. */
    public long origin;
    /** VDS id of the station it ends at; never the origin. */
    public long destination;

    public Instant departure;
    public Instant requestedAt;
    public int stream;
    public long seq;
    public long sentNs;
    public long intendedNs;
    /** A warm-up request: carried to the answer so the probe can keep it apart. */
    public boolean warmup;
    /** Time spent parsing and validating this request in the job. */
    public long parseNs;
    /** The Kafka record's create time (epoch ms), {@link RawReading#NO_TIMESTAMP} if none: the deadline counts from it. */
    public long createdMs = RawReading.NO_TIMESTAMP;

    public ValidRouteRequest() {}

    /** @param createdMs the Kafka record's create time (epoch ms), or {@link RawReading#NO_TIMESTAMP} */
    public static ValidRouteRequest of(RouteRequestRecord record, long parseNs, long createdMs) {
        ValidRouteRequest r = of(record, parseNs);
        r.createdMs = createdMs;
        return r;
    }

    public static ValidRouteRequest of(RouteRequestRecord record, long parseNs) {
        ValidRouteRequest r = new ValidRouteRequest();
        r.traveller = record.traveller();
        r.origin = record.origin();
        r.destination = record.destination();
        r.departure = record.departure();
        r.requestedAt = record.requestedAt();
        r.stream = record.stream();
        r.seq = record.seq();
        r.sentNs = record.sentNs();
        r.intendedNs = record.intendedNs();
        r.warmup = record.warmup();
        r.parseNs = parseNs;
        return r;
    }

    /** The request as its record, for building the answer ({@code RouteRecord.answering}). */
    public RouteRequestRecord toRecord() {
        return RouteRequestRecord.builder()
                .traveller(traveller)
                .origin(origin)
                .destination(destination)
                .departure(departure)
                .requestedAt(requestedAt)
                .stream(stream)
                .seq(seq)
                .sentNs(sentNs)
                .intendedNs(intendedNs)
                .warmup(warmup)
                .build();
    }
}
