package org.itsrt.job.records;

import java.util.ArrayList;
import java.util.List;
import org.itsrt.records.RouteRecord;

/**
 * The answer to one route request before it is written as JSON: the request, the route found (or
 * none), the version of the network state it was found on, which subtask found it and the time it
 * took. The route is a primitive array (a {@code List} would fall back to Kryo). A Flink POJO.
 */
public class RouteAnswer {

    public ValidRouteRequest request;
    /** False when no path leads from the origin to the destination, or the request expired. */
    public boolean reachable;
    /** The request's deadline had passed when it reached the routing step: answered unrouted. */
    public boolean expired;
    /** VDS ids, origin first; empty when unreachable. */
    public long[] route;
    /** Predicted travel time (s); NaN when unreachable. */
    public double travelTimeS;
    /** The number of cost updates the answering subtask's network state had taken (docs/job.md, section 8). */
    public long networkVersion;
    /** Which parallel instance of the routing step answered: versions count per subtask. */
    public int subtask;

    public long routeNs;

    public RouteAnswer() {}

    /** The answer to a request whose deadline had passed: no route, not searched. */
    public static RouteAnswer expired(ValidRouteRequest request, long networkVersion, int subtask) {
        RouteAnswer answer = new RouteAnswer();
        answer.request = request;
        answer.expired = true;
        answer.route = new long[0];
        answer.travelTimeS = Double.NaN;
        answer.networkVersion = networkVersion;
        answer.subtask = subtask;
        return answer;
    }

    /** The answer as the record of {@code its.routes}. */
    public RouteRecord toRecord() {
        RouteRecord.Builder answer = RouteRecord.answering(request.toRecord());
        if (expired) {
            answer.expired();
        } else if (reachable) {
            List<Long> stations = new ArrayList<>(route.length);
            for (long station : route) {
                stations.add(station);
            }
            answer.routed(stations, travelTimeS);
        } else {
            answer.unreachable();
        }
        return answer.networkVersion(networkVersion)
                .parseNs(request.parseNs)
                .routeNs(routeNs)
                .build();
    }
}
