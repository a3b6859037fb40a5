package org.itsrt.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.RoadSegment;
import org.jgrapht.Graph;
import org.jgrapht.GraphPath;
import org.jgrapht.alg.interfaces.AStarAdmissibleHeuristic;
import org.jgrapht.alg.shortestpath.AStarShortestPath;
import org.jgrapht.alg.shortestpath.DijkstraShortestPath;
import org.jgrapht.graph.AsWeightedGraph;

/**
 * Routes over a {@link DetectorGraph} by expected travel time ({@link TravelTimeCost}) under a
 * {@link TrafficState} that the router owns and keeps current.
 *
 * <p>Segment costs live in an array indexed by {@link RoadSegment#index()} and are recomputed only
 * where the state changes: {@link #update} touches the few segments the updated detector measures,
 * so a stream job can call it and {@link #route} once per record.
 *
 * <p>{@link #route} searches a customizable contraction hierarchy ({@link ContractionHierarchy}):
 * the graph's structure, contracted once in a nested-dissection order when the router is built,
 * with the current costs folded into its arcs. {@link #update} marks the arcs of the segments it
 * recomputes; the next query first customizes what those changes reach, then visits only the
 * two ends' ancestors in the hierarchy, about the same few dozen detectors under any traffic. The
 * search runs over arrays sized once, so a query allocates nothing; {@link #travelSeconds} is
 * the allocation-free form, {@link #route} builds the answer object from it. {@link
 * #routeByDijkstra} (JGraphT's Dijkstra) is the reference the tests check it against; the landmark
 * searches it replaced ({@link #routeByBidirectionalLandmarkAStar}, {@link #routeByLandmarkAStar}:
 * A* guided by free-flow lower bounds from a few landmark detectors, {@link FreeFlowLandmarks})
 * and the great-circle A* before them ({@link #routeByGreatCircle}, JGraphT's A*) are kept for
 * comparison. JGraphT's searches run on a weighted view of the graph that reads the same cost
 * array.
 *
 * <p>Not thread-safe: one router per thread (a stream operator instance owns one). To persist,
 * store {@link #trafficState()} and restore with {@link #replaceState}.
 */
public final class Router {

    private final DetectorGraph network;
    private final TravelTimeCost cost;
    private final TravelTimeHeuristic heuristic;
    private TrafficState state = new TrafficState();
    private final double[] secondsBySegment;
    private final Map<Long, List<RoadSegment>> segmentsByMeasuringDetector = new HashMap<>();
    private final Graph<Detector, RoadSegment> costGraph;
    private final CompactDetectorGraph compact;
    private final FreeFlowLandmarks landmarks;
    private final LandmarkAStar landmarkSearch;
    private final BidirectionalLandmarkAStar bidirectionalSearch;
    private final ContractionHierarchy hierarchy;
    private int lastSettledNodes;
    private final AStarShortestPath<Detector, RoadSegment> greatCircleAStar;
    private final DijkstraShortestPath<Detector, RoadSegment> dijkstra;

    /**
     * A router with an empty state (every segment at the cost of free flow) and
     * {@value FreeFlowLandmarks#DEFAULT_COUNT} landmarks.
     */
    public Router(DetectorGraph network, TravelTimeCost cost) {
        this(network, cost, FreeFlowLandmarks.DEFAULT_COUNT);
    }

    /**
     * A router with an empty state and this many landmarks (fewer if the graph has fewer
     * detectors): more landmarks give tighter estimates and fewer settled detectors per query, at
     * the price of more work per estimate and 16 bytes per landmark per detector.
     *
     * @throws IllegalArgumentException if landmarkCount is below 1
     */
    public Router(DetectorGraph network, TravelTimeCost cost, int landmarkCount) {
        this.network = network;
        this.cost = cost;
        this.heuristic = new TravelTimeHeuristic(cost.parameters());
        this.secondsBySegment = new double[network.segments().size()];
        for (RoadSegment segment : network.segments()) {
            segmentsByMeasuringDetector
                    .computeIfAbsent(cost.measuringDetector(segment).vdsId(), id -> new ArrayList<>())
                    .add(segment);
            secondsBySegment[segment.index()] = cost.seconds(segment, state);
        }
        this.costGraph =
                new AsWeightedGraph<>(network.graph(), segment -> secondsBySegment[segment.index()], false, false);
        this.compact = new CompactDetectorGraph(network);
        this.landmarks = new FreeFlowLandmarks(network, compact, cost, landmarkCount);
        this.landmarkSearch = new LandmarkAStar(compact, landmarks);
        this.bidirectionalSearch = new BidirectionalLandmarkAStar(compact, landmarks);
        this.hierarchy = new ContractionHierarchy(compact);
        this.greatCircleAStar = new AStarShortestPath<>(costGraph, heuristic);
        this.dijkstra = new DijkstraShortestPath<>(costGraph);
    }

    /** A router with the default cost parameters. */
    public static Router withDefaults(DetectorGraph network) {
        return new Router(network, TravelTimeCost.withDefaults());
    }

    /**
     * Records the latest conditions at one detector and refreshes the costs of the segments it
     * measures.
     *
     * @throws IllegalArgumentException if the detector is not in the graph
     */
    public void update(long vdsId, DetectorConditions conditions) {
        network.requireDetector(vdsId);
        state.put(vdsId, conditions);
        for (RoadSegment segment : segmentsByMeasuringDetector.getOrDefault(vdsId, List.of())) {
            secondsBySegment[segment.index()] = cost.seconds(segment, state);
            hierarchy.segmentChanged(segment.index());
        }
    }

    /**
     * Replaces the whole state (e.g. when restoring from a checkpoint) and recomputes every cost.
     * Detectors absent from the given state become unknown.
     *
     * @throws IllegalArgumentException if the state names a detector that is not in the graph
     */
    public void replaceState(TrafficState newState) {
        newState.asMap().keySet().forEach(network::requireDetector);
        state = newState.copy();
        for (RoadSegment segment : network.segments()) {
            secondsBySegment[segment.index()] = cost.seconds(segment, state);
        }
        hierarchy.markAllStale();
    }

    /** A copy of the current state. */
    public TrafficState trafficState() {
        return state.copy();
    }

    /**
     * The fastest route under the current state, by the contraction hierarchy.
     *
     * @throws IllegalArgumentException if either VDS id is not a detector of the graph
     */
    public Route route(long fromVdsId, long toVdsId) {
        return answer(hierarchy, fromVdsId, toVdsId);
    }

    /**
     * The travel time of the fastest route under the current state, by the contraction hierarchy,
     * without allocating: {@code +Infinity} when the goal cannot be reached. The route itself stays in the
     * router until the next query: {@link #lastRouteLength()}, {@link #lastRouteVdsId(int)}.
     *
     * @throws IllegalArgumentException if either VDS id is not a detector of the graph
     */
    public double travelSeconds(long fromVdsId, long toVdsId) {
        return search(hierarchy, fromVdsId, toVdsId);
    }

    /** Arcs of the contraction hierarchy the last query recomputed before it searched. */
    public int lastCustomizedArcs() {
        return hierarchy.lastCustomizedArcs();
    }

    /** The size of the contraction hierarchy {@link #route} searches. */
    public HierarchyShape hierarchyShape() {
        return hierarchy.shape();
    }

    /** Detectors on the route of the last {@link #travelSeconds} or {@link #route} query; 0 if none. */
    public int lastRouteLength() {
        return hierarchy.routeLength();
    }

    /**
     * The VDS id of the i-th detector on the last route, 0 the start.
     *
     * @throws IndexOutOfBoundsException unless 0 <= i < {@link #lastRouteLength()}
     */
    public long lastRouteVdsId(int i) {
        return compact.vdsId(hierarchy.routeDetector(i));
    }

    /**
     * Detectors the last query of the hierarchy ({@link #travelSeconds}, {@link #route}) or of a
     * landmark search ({@link #routeByBidirectionalLandmarkAStar}, {@link #routeByLandmarkAStar})
     * settled, both sides together for the two-sided searches: the measure of how much of the
     * graph a search explored, for benchmarks.
     */
    public int lastSettledNodes() {
        return lastSettledNodes;
    }

    /**
     * The fastest route by bidirectional landmark A* ({@link BidirectionalLandmarkAStar}) on the
     * same costs, the router's search before the contraction hierarchy: kept for comparison. It
     * leaves {@link #lastRouteLength()} and {@link #lastRouteVdsId(int)} as they were.
     *
     * @throws IllegalArgumentException if either VDS id is not a detector of the graph
     */
    public Route routeByBidirectionalLandmarkAStar(long fromVdsId, long toVdsId) {
        return answer(bidirectionalSearch, fromVdsId, toVdsId);
    }

    /**
     * The fastest route by one-directional landmark A* ({@link LandmarkAStar}) on the same costs
     * and landmarks, the router's search before the bidirectional one: kept for comparison. It
     * leaves {@link #lastRouteLength()} and {@link #lastRouteVdsId(int)} as they were.
     *
     * @throws IllegalArgumentException if either VDS id is not a detector of the graph
     */
    public Route routeByLandmarkAStar(long fromVdsId, long toVdsId) {
        return answer(landmarkSearch, fromVdsId, toVdsId);
    }

    /** The fastest route by Dijkstra on the same costs: the reference A* is checked against. */
    public Route routeByDijkstra(long fromVdsId, long toVdsId) {
        return routeWith(
                dijkstra.getPath(network.requireDetector(fromVdsId), network.requireDetector(toVdsId)),
                fromVdsId,
                toVdsId);
    }

    /**
     * The fastest route by JGraphT's A* with the great-circle heuristic ({@link #heuristic()}), the
     * router's search before landmarks: same costs, kept for comparison.
     */
    public Route routeByGreatCircle(long fromVdsId, long toVdsId) {
        return routeWith(
                greatCircleAStar.getPath(network.requireDetector(fromVdsId), network.requireDetector(toVdsId)),
                fromVdsId,
                toVdsId);
    }

    /** The current cost of one segment of this router's graph, in seconds. */
    public double seconds(RoadSegment segment) {
        int index = segment.index();
        if (index >= secondsBySegment.length || network.segments().get(index) != segment) {
            throw new IllegalArgumentException(segment + " is not a segment of this router's graph");
        }
        return secondsBySegment[index];
    }

    /**
     * The graph as the searches see it: a read-only view whose edge weights are the current costs
     * in seconds. For checks and benchmarks that run their own JGraphT algorithms on the same costs.
     */
    public Graph<Detector, RoadSegment> costGraph() {
        return costGraph;
    }

    public TravelTimeCost cost() {
        return cost;
    }

    /** The great-circle heuristic of {@link #routeByGreatCircle}. */
    public TravelTimeHeuristic heuristic() {
        return heuristic;
    }

    /**
     * The landmark heuristic {@link #route} searches with, as a JGraphT heuristic for checks that
     * run against {@link #costGraph()}.
     */
    public AStarAdmissibleHeuristic<Detector> landmarkHeuristic() {
        return landmarks;
    }

    public DetectorGraph network() {
        return network;
    }

    private double search(ArrayRouteSearch search, long fromVdsId, long toVdsId) {
        double seconds =
                search.search(compact.requireIndex(fromVdsId), compact.requireIndex(toVdsId), secondsBySegment);
        lastSettledNodes = search.settledNodes();
        return seconds;
    }

    private Route answer(ArrayRouteSearch search, long fromVdsId, long toVdsId) {
        double seconds = search(search, fromVdsId, toVdsId);
        if (seconds == Double.POSITIVE_INFINITY) {
            return Route.unreachable(fromVdsId, toVdsId);
        }
        Long[] vdsIds = new Long[search.routeLength()];
        for (int i = 0; i < vdsIds.length; i++) {
            vdsIds[i] = compact.vdsId(search.routeDetector(i));
        }
        return new Route(fromVdsId, toVdsId, Arrays.asList(vdsIds), seconds);
    }

    private static Route routeWith(GraphPath<Detector, RoadSegment> path, long fromVdsId, long toVdsId) {
        if (path == null) {
            return Route.unreachable(fromVdsId, toVdsId);
        }
        List<Long> vdsIds = path.getVertexList().stream().map(Detector::vdsId).toList();
        return new Route(fromVdsId, toVdsId, vdsIds, path.getWeight());
    }
}
