package org.itsrt.routing;

import java.util.Arrays;

/**
 * A* with the landmark heuristic ({@link FreeFlowLandmarks}) over the array form of the graph
 * ({@link CompactDetectorGraph}): the search behind {@link Router#route}.
 *
 * <p><b>Why its own search rather than JGraphT's {@code AStarShortestPath}.</b> A stream job asks
 * for a route per record, a thousand or more a second, and JGraphT's A* allocates per query: a
 * pairing-heap node per insertion and hash maps of g-scores, open handles and predecessors keyed by
 * detector. Here every array is allocated once, sized by the graph, and reused: g-scores,
 * estimates and predecessors indexed by detector, an {@link IndexedMinHeap} of detector indexes,
 * and visit marks that are reset by bumping a generation counter instead of clearing arrays. A
 * query allocates nothing. JGraphT still does what it does well here: the landmark distances
 * (its Dijkstra, once per graph) and the reference route ({@link Router#routeByDijkstra}).
 *
 * <p>The search stops when it settles the goal. The heuristic is consistent, so a settled detector
 * is final; should floating-point rounding (about one ulp in a difference of two distances) ever
 * offer a settled detector a lower g-score, it is re-opened rather than ignored, so the answer
 * stays Dijkstra's. A detector whose estimate is infinite cannot reach the goal and is never
 * opened, so a query between detectors the landmarks prove disconnected settles nothing.
 *
 * <p>Not thread-safe: one per router.
 */
final class LandmarkAStar extends ArrayRouteSearch {

    private static final int NONE = -1;

    private final CompactDetectorGraph graph;
    private final FreeFlowLandmarks landmarks;
    private final IndexedMinHeap open;
    /** Best travel time found from the start, valid where {@link #seenIn} is this generation. */
    private final double[] bestSeconds;
    /** The heuristic's estimate to the goal, computed once per detector per query. */
    private final double[] estimate;

    private final int[] predecessor;
    /** The query (generation) in which a detector was last reached. */
    private final int[] seenIn;

    private int generation;

    /** Settled detectors are those taken from the open set, re-openings counted again. */
    LandmarkAStar(CompactDetectorGraph graph, FreeFlowLandmarks landmarks) {
        super(graph.size());
        this.graph = graph;
        this.landmarks = landmarks;
        int n = graph.size();
        this.open = new IndexedMinHeap(n);
        this.bestSeconds = new double[n];
        this.estimate = new double[n];
        this.predecessor = new int[n];
        this.seenIn = new int[n];
    }

    /**
     * The least travel time from start to goal under these segment costs, by detector index, and
     * the route it takes (read with {@link #routeLength()} and {@link #routeDetector(int)});
     * {@code +Infinity} and an empty route when the goal cannot be reached.
     *
     * @param secondsBySegment current cost of each segment, by {@code RoadSegment.index()}; each
     *                         at least the segment's free-flow lower bound
     */
    @Override
    double search(int start, int goal, double[] secondsBySegment) {
        nextGeneration();
        open.clear();
        routeLength = 0;
        settled = 0;

        double startEstimate = landmarks.estimate(start, goal);
        if (startEstimate == Double.POSITIVE_INFINITY) {
            return Double.POSITIVE_INFINITY;
        }
        reach(start, 0, startEstimate, NONE);
        open.insert(start, startEstimate);
        while (!open.isEmpty()) {
            int node = open.pollMin();
            settled++;
            if (node == goal) {
                return traceRoute(goal);
            }
            double nodeSeconds = bestSeconds[node];
            for (int slot = graph.firstOut(node), end = graph.endOut(node); slot < end; slot++) {
                int next = graph.head(slot);
                double nextSeconds = nodeSeconds + secondsBySegment[graph.segment(slot)];
                if (seenIn[next] != generation) {
                    double nextEstimate = landmarks.estimate(next, goal);
                    reach(next, nextSeconds, nextEstimate, node);
                    if (nextEstimate != Double.POSITIVE_INFINITY) {
                        open.insert(next, nextSeconds + nextEstimate);
                    }
                } else if (nextSeconds < bestSeconds[next] && estimate[next] != Double.POSITIVE_INFINITY) {
                    bestSeconds[next] = nextSeconds;
                    predecessor[next] = node;
                    if (open.contains(next)) {
                        open.decreaseKey(next, nextSeconds + estimate[next]);
                    } else {
                        open.insert(next, nextSeconds + estimate[next]);
                    }
                }
            }
        }
        return Double.POSITIVE_INFINITY;
    }

    private void reach(int node, double seconds, double nodeEstimate, int from) {
        seenIn[node] = generation;
        bestSeconds[node] = seconds;
        estimate[node] = nodeEstimate;
        predecessor[node] = from;
    }

    private double traceRoute(int goal) {
        int length = 0;
        for (int node = goal; node != NONE; node = predecessor[node]) {
            route[length++] = node;
        }
        for (int i = 0, j = length - 1; i < j; i++, j--) {
            int swap = route[i];
            route[i] = route[j];
            route[j] = swap;
        }
        routeLength = length;
        return bestSeconds[goal];
    }

    /** Marks every detector unseen in O(1); after 2^31 - 1 queries, by clearing the marks once. */
    private void nextGeneration() {
        if (generation == Integer.MAX_VALUE) {
            Arrays.fill(seenIn, 0);
            generation = 0;
        }
        generation++;
    }
}
