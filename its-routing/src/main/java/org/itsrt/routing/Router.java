package org.itsrt.routing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.RoadSegment;
import org.jgrapht.Graph;
import org.jgrapht.GraphPath;
import org.jgrapht.alg.shortestpath.AStarShortestPath;
import org.jgrapht.alg.shortestpath.DijkstraShortestPath;
import org.jgrapht.graph.AsWeightedGraph;

/**
 * Routes over a {@link DetectorGraph} by expected travel time ({@link TravelTimeCost}) under a
 * {@link TrafficState} that the router owns and keeps current.
 *
 * <p>Segment costs live in an array indexed by {@link RoadSegment#index()} and are recomputed only
 * where the state changes: {@link #update} touches the few segments the updated detector measures,
 * so a stream job can call it and {@link #route} once per record. The search runs on a weighted
 * view of the graph that reads this array; nothing is copied per query.
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
    private final AStarShortestPath<Detector, RoadSegment> aStar;
    private final DijkstraShortestPath<Detector, RoadSegment> dijkstra;

    /** A router with an empty state: every segment at the cost of free flow. */
    public Router(DetectorGraph network, TravelTimeCost cost) {
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
        this.aStar = new AStarShortestPath<>(costGraph, heuristic);
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
    }

    /** A copy of the current state. */
    public TrafficState trafficState() {
        return state.copy();
    }

    /** The fastest route by A* under the current state. */
    public Route route(long fromVdsId, long toVdsId) {
        return routeWith(
                aStar.getPath(network.requireDetector(fromVdsId), network.requireDetector(toVdsId)),
                fromVdsId,
                toVdsId);
    }

    /** The fastest route by Dijkstra on the same costs: the reference A* is checked against. */
    public Route routeByDijkstra(long fromVdsId, long toVdsId) {
        return routeWith(
                dijkstra.getPath(network.requireDetector(fromVdsId), network.requireDetector(toVdsId)),
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

    public TravelTimeHeuristic heuristic() {
        return heuristic;
    }

    public DetectorGraph network() {
        return network;
    }

    private static Route routeWith(GraphPath<Detector, RoadSegment> path, long fromVdsId, long toVdsId) {
        if (path == null) {
            return Route.unreachable(fromVdsId, toVdsId);
        }
        List<Long> vdsIds = path.getVertexList().stream().map(Detector::vdsId).toList();
        return new Route(fromVdsId, toVdsId, vdsIds, path.getWeight());
    }
}
