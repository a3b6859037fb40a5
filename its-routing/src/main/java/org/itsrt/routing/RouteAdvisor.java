package org.itsrt.routing;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.itsrt.routing.graph.DetectorGraph;

/**
 * Keeps each detector's newest conditions and answers one origin-destination query by A* on the
 * resulting travel times: the per-record routing of the Flink job's route step and of
 * {@code its replay}.
 *
 * <p>"Newest" is decided by the time of the reading the conditions came from, then by its
 * sequence number ({@link #isNewer}), never by the order the conditions are offered in: two
 * advisors offered the same conditions in any order end with the same view, which is what lets
 * every subtask of a stream job agree on the network.
 *
 * <p>Not thread-safe: it owns one {@link Router}, whose state is the whole network's.
 */
public final class RouteAdvisor {

    private final Router router;
    private final long originVdsId;
    private final long destinationVdsId;
    /** The reading each detector's conditions in the router came from. */
    private final Map<Long, ReadingStamp> newest = new HashMap<>();

    private record ReadingStamp(Instant readingTs, long seq) {}

    /**
     * @throws IllegalArgumentException if origin or destination is not a detector of the graph
     */
    public RouteAdvisor(DetectorGraph graph, long originVdsId, long destinationVdsId) {
        graph.requireDetector(originVdsId);
        graph.requireDetector(destinationVdsId);
        this.router = Router.withDefaults(graph);
        this.originVdsId = originVdsId;
        this.destinationVdsId = destinationVdsId;
    }

    /**
     * True when a reading at {@code readingTs} with sequence number {@code seq} is newer than one at
     * {@code thanTs} with {@code thanSeq}: later in time, or as late with a higher sequence number.
     */
    public static boolean isNewer(Instant readingTs, long seq, Instant thanTs, long thanSeq) {
        int byTime = readingTs.compareTo(thanTs);
        return byTime > 0 || (byTime == 0 && seq > thanSeq);
    }

    /**
     * Takes a detector's conditions, as measured and predicted from its reading at
     * {@code readingTs}, unless the advisor holds conditions from a newer reading of it.
     *
     * @return whether the conditions were taken
     */
    public boolean update(long detector, Instant readingTs, long seq, DetectorConditions conditions) {
        ReadingStamp held = newest.get(detector);
        if (held != null && !isNewer(readingTs, seq, held.readingTs(), held.seq())) {
            return false;
        }
        newest.put(detector, new ReadingStamp(readingTs, seq));
        router.update(detector, conditions);
        return true;
    }

    /** The fastest route from origin to destination under the conditions taken so far. */
    public Route route() {
        return router.route(originVdsId, destinationVdsId);
    }

    public long originVdsId() {
        return originVdsId;
    }

    public long destinationVdsId() {
        return destinationVdsId;
    }
}
