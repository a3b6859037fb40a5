package org.itsrt.routing;

import java.util.Arrays;

/**
 * Bidirectional landmark A*: a search forward from the start and one backward from the goal over
 * the array form of the graph ({@link CompactDetectorGraph}), both guided by the landmark bounds
 * ({@link FreeFlowLandmarks}), alternately settling whichever side's smallest key is lower, until
 * no route through an open detector can beat the best route where the two have met.
 *
 * <p><b>Why two searches.</b> The landmark bound is taken at free flow, so it is loose where
 * traffic is slow; a single search from the start then settles much of the slow corridor around the
 * goal. Two searches that meet in the middle each cover roughly half the route's corridor. On the
 * generated 4,800-detector district at a weekday's peaks this settles about 30% fewer detectors
 * than {@link LandmarkAStar} in about the same time per query; its p99 is lower (docs/routing.md,
 * section 3).
 *
 * <p><b>Potentials.</b> The two sides use one potential with opposite signs (Ikeda et al.'s
 * average potential): {@code p(v) = (h(v, goal) - h(start, v)) / 2}, with {@code h} the landmark
 * lower bound. The forward side keys a detector by {@code g(v) + p(v)}, the backward by {@code
 * g'(v) - p(v)}. Both are consistent because each {@code h} is, and as the potentials sum to zero
 * the search may stop once the two smallest keys add up to the best meeting: every route through
 * an open detector costs at least that. A detector with an infinite bound either way (it cannot
 * reach the goal, or the start cannot reach it) is on no route and is never opened.
 *
 * <p>As in {@link LandmarkAStar}: every array is sized once and reused (visit marks reset by a
 * generation counter), a query allocates nothing, and a settled detector offered a lower time (by
 * floating-point rounding only) is re-opened. The answer's time is summed along the route from the
 * start, in the order Dijkstra sums it. Not thread-safe: one per router.
 */
final class BidirectionalLandmarkAStar extends ArrayRouteSearch {

    private static final int NONE = -1;

    private final CompactDetectorGraph graph;
    private final FreeFlowLandmarks landmarks;
    private final Side forward;
    private final Side backward;
    /** The shared potential of a detector, valid where {@link #potentialIn} is this generation; NaN: on no route. */
    private final double[] potential;

    private final int[] potentialIn;
    /** The segment into each detector of the last route (none into the start). */
    private final int[] routeSegment;
    /** Position of a detector on the route being traced, valid where {@link #onRouteIn} is this generation. */
    private final int[] routePosition;

    private final int[] onRouteIn;

    private int generation;
    private int start;
    private int goal;

    /** One direction's search: times from its end, the detector each was reached from, visit marks. */
    private static final class Side {
        final IndexedMinHeap open;
        /** Travel time from the start (forward) or to the goal (backward). */
        final double[] seconds;
        /** The previous detector towards the side's end: predecessor forward, successor backward. */
        final int[] via;
        /** The segment between a detector and {@link #via}. */
        final int[] viaSegment;

        final int[] seenIn;

        Side(int n) {
            this.open = new IndexedMinHeap(n);
            this.seconds = new double[n];
            this.via = new int[n];
            this.viaSegment = new int[n];
            this.seenIn = new int[n];
        }
    }

    /** Settled detectors are those taken from either open set, re-openings counted again. */
    BidirectionalLandmarkAStar(CompactDetectorGraph graph, FreeFlowLandmarks landmarks) {
        super(graph.size());
        this.graph = graph;
        this.landmarks = landmarks;
        int n = graph.size();
        this.forward = new Side(n);
        this.backward = new Side(n);
        this.potential = new double[n];
        this.potentialIn = new int[n];
        this.routeSegment = new int[n];
        this.routePosition = new int[n];
        this.onRouteIn = new int[n];
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
        forward.open.clear();
        backward.open.clear();
        routeLength = 0;
        settled = 0;
        this.start = start;
        this.goal = goal;

        if (landmarks.estimate(start, goal) == Double.POSITIVE_INFINITY) {
            return Double.POSITIVE_INFINITY;
        }
        if (start == goal) {
            settled = 1;
            route[0] = start;
            routeLength = 1;
            return 0;
        }
        reach(forward, start, 0, NONE, NONE);
        forward.open.insert(start, potential(start));
        reach(backward, goal, 0, NONE, NONE);
        backward.open.insert(goal, -potential(goal));
        double best = Double.POSITIVE_INFINITY;
        int meeting = NONE;
        while (!forward.open.isEmpty()
                && !backward.open.isEmpty()
                && forward.open.minKey() + backward.open.minKey() < best) {
            boolean forwards = forward.open.minKey() <= backward.open.minKey();
            Side side = forwards ? forward : backward;
            Side other = forwards ? backward : forward;
            int node = side.open.pollMin();
            settled++;
            double nodeSeconds = side.seconds[node];
            int end = forwards ? graph.endOut(node) : graph.endIn(node);
            for (int slot = forwards ? graph.firstOut(node) : graph.firstIn(node); slot < end; slot++) {
                int next = forwards ? graph.head(slot) : graph.tail(slot);
                double nextPotential = potential(next);
                if (Double.isNaN(nextPotential)) {
                    continue;
                }
                int segment = forwards ? graph.segment(slot) : graph.inSegment(slot);
                double nextSeconds = nodeSeconds + secondsBySegment[segment];
                if (side.seenIn[next] == generation && nextSeconds >= side.seconds[next]) {
                    continue;
                }
                reach(side, next, nextSeconds, node, segment);
                double key = nextSeconds + (forwards ? nextPotential : -nextPotential);
                if (side.open.contains(next)) {
                    side.open.decreaseKey(next, key);
                } else {
                    side.open.insert(next, key);
                }
                if (other.seenIn[next] == generation && nextSeconds + other.seconds[next] < best) {
                    best = nextSeconds + other.seconds[next];
                    meeting = next;
                }
            }
        }
        return meeting == NONE ? Double.POSITIVE_INFINITY : traceRoute(meeting, secondsBySegment);
    }

    /**
     * {@code (h(v, goal) - h(start, v)) / 2}, computed once per detector per query; NaN when either
     * bound is infinite.
     */
    private double potential(int node) {
        if (potentialIn[node] != generation) {
            double toGoal = landmarks.estimate(node, goal);
            double fromStart = landmarks.estimate(start, node);
            potential[node] = toGoal == Double.POSITIVE_INFINITY || fromStart == Double.POSITIVE_INFINITY
                    ? Double.NaN
                    : (toGoal - fromStart) / 2;
            potentialIn[node] = generation;
        }
        return potential[node];
    }

    private void reach(Side side, int node, double seconds, int from, int segment) {
        side.seenIn[node] = generation;
        side.seconds[node] = seconds;
        side.via[node] = from;
        side.viaSegment[node] = segment;
    }

    /**
     * The forward side's path to the meeting detector, then the backward side's from it. Where
     * zero-time segments (co-located detectors) let the two halves share a detector, the loop
     * between its two visits (zero time, else the route would not be the fastest) is cut out.
     */
    private double traceRoute(int meeting, double[] secondsBySegment) {
        int length = 0;
        for (int node = meeting; node != NONE; node = forward.via[node]) {
            route[length++] = node;
        }
        for (int i = 0, j = length - 1; i < j; i++, j--) {
            int swap = route[i];
            route[i] = route[j];
            route[j] = swap;
        }
        for (int i = 0; i < length; i++) {
            routeSegment[i] = forward.viaSegment[route[i]];
            routePosition[route[i]] = i;
            onRouteIn[route[i]] = generation;
        }
        for (int node = meeting; backward.via[node] != NONE; node = backward.via[node]) {
            int next = backward.via[node];
            if (onRouteIn[next] == generation && routePosition[next] < length && route[routePosition[next]] == next) {
                length = routePosition[next] + 1;
                continue;
            }
            route[length] = next;
            routeSegment[length] = backward.viaSegment[node];
            routePosition[next] = length;
            onRouteIn[next] = generation;
            length++;
        }
        double seconds = 0;
        for (int i = 1; i < length; i++) {
            seconds += secondsBySegment[routeSegment[i]];
        }
        routeLength = length;
        return seconds;
    }

    /** Marks every detector unseen in O(1); after 2^31 - 1 queries, by clearing the marks once. */
    private void nextGeneration() {
        if (generation == Integer.MAX_VALUE) {
            Arrays.fill(forward.seenIn, 0);
            Arrays.fill(backward.seenIn, 0);
            Arrays.fill(potentialIn, 0);
            Arrays.fill(onRouteIn, 0);
            generation = 0;
        }
        generation++;
    }
}
