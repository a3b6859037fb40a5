package org.itsrt.routing;

/**
 * What the router's array searches share: one query at a time by detector index over a cost array,
 * and the last route kept in an array sized once per graph, so that answering allocates nothing.
 * Not thread-safe: one per router.
 */
abstract class ArrayRouteSearch {

    /** The last route, start first; {@link #routeLength} entries are valid. */
    protected final int[] route;

    protected int routeLength;
    protected int settled;

    ArrayRouteSearch(int detectors) {
        this.route = new int[detectors];
    }

    /**
     * The least travel time from start to goal (detector indexes) under these segment costs, and
     * the route it takes (read with {@link #routeLength()} and {@link #routeDetector(int)}); {@code
     * +Infinity} and an empty route when the goal cannot be reached.
     *
     * @param secondsBySegment current cost of each segment, by {@code RoadSegment.index()}
     */
    abstract double search(int start, int goal, double[] secondsBySegment);

    /** Detectors on the last route, start and goal included; 0 when the goal was unreachable. */
    final int routeLength() {
        return routeLength;
    }

    /** The i-th detector index of the last route, 0 the start. */
    final int routeDetector(int i) {
        if (i < 0 || i >= routeLength) {
            throw new IndexOutOfBoundsException("route position " + i + " of a route of " + routeLength);
        }
        return route[i];
    }

    /** Detectors the last search settled: each search says how it counts them. */
    final int settledNodes() {
        return settled;
    }
}
