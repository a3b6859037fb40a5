package org.itsrt.job.functions;

import java.util.Arrays;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.ValidRouteRequest;
import org.itsrt.records.RecordFormatException;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.records.RouteRequestRecord;

/**
 * Reads and validates each route request (docs/records.md, its.route-requests) as
 * {@link ParseAndValidate} does readings: a request that fails goes to
 * {@link ParseAndValidate#DEAD_LETTERS} with its original bytes and the reader's reason, and so
 * does a request whose origin or destination is not a station of the routing graph
 * ({@code unknown station: 999999 is not in the routing graph (origin)}), which no route could
 * answer. Never throws on bad data and keeps no
 * state. Measures {@code parse_ns}.
 */
public class ParseRouteRequest extends ProcessFunction<RawReading, ValidRouteRequest> {

    private static final long serialVersionUID = 1L;

    /** The category of the reason for a station outside the routing graph. */
    public static final String UNKNOWN_STATION = "unknown station";

    private final long[] knownStations;

    /** @param knownStations VDS ids of the graph's detectors */
    public ParseRouteRequest(long[] knownStations) {
        this.knownStations = knownStations.clone();
        Arrays.sort(this.knownStations);
    }

    @Override
    public void processElement(RawReading raw, Context ctx, Collector<ValidRouteRequest> out) {
        long start = System.nanoTime();
        if (raw.value == null) {
            ctx.output(ParseAndValidate.DEAD_LETTERS, new DeadLetter(raw, "record has no value"));
            return;
        }
        RouteRequestRecord request;
        try {
            request = RouteRecordJson.readRequest(raw.value);
        } catch (RecordFormatException e) {
            ctx.output(ParseAndValidate.DEAD_LETTERS, new DeadLetter(raw, e.getMessage()));
            return;
        } catch (RuntimeException e) {
            // As for readings: should a problem slip past the reader, the request is still only dead-lettered.
            ctx.output(ParseAndValidate.DEAD_LETTERS, new DeadLetter(raw, "unreadable: " + e));
            return;
        }
        String unknown = unknownStation(request);
        if (unknown != null) {
            ctx.output(ParseAndValidate.DEAD_LETTERS, new DeadLetter(raw, unknown));
            return;
        }
        out.collect(ValidRouteRequest.of(request, System.nanoTime() - start, raw.timestampMs));
    }

    /** The reason naming the first end of the request that is not in the graph; null when both are. */
    private String unknownStation(RouteRequestRecord request) {
        if (Arrays.binarySearch(knownStations, request.origin()) < 0) {
            return UNKNOWN_STATION + ": " + request.origin() + " is not in the routing graph (origin)";
        }
        if (Arrays.binarySearch(knownStations, request.destination()) < 0) {
            return UNKNOWN_STATION + ": " + request.destination() + " is not in the routing graph (destination)";
        }
        return null;
    }
}
