package org.itsrt.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.RoadSegment;
import org.jgrapht.Graph;
import org.jgrapht.alg.interfaces.AStarAdmissibleHeuristic;
import org.jgrapht.alg.interfaces.ShortestPathAlgorithm;
import org.jgrapht.alg.shortestpath.DijkstraShortestPath;
import org.jgrapht.graph.EdgeReversedGraph;

/**
 * Checks of the A* heuristic against a router's current costs. Each returns the violations it
 * finds, named, so a failing property shows the offending nodes and a control test can show that
 * the checks do catch a bad heuristic.
 *
 * <p>JGraphT's own {@code AStarAdmissibleHeuristic.isConsistent} compares without tolerance and
 * returns only a boolean; these allow for floating-point rounding (exact equality is the common
 * case here: segments exactly as long as the great-circle distance, at exactly v_max).
 */
final class RouteChecks {

    private static final double RELATIVE_TOLERANCE = 1e-9;
    private static final double ABSOLUTE_TOLERANCE_S = 1e-9;

    private RouteChecks() {}

    static boolean withinTolerance(double actual, double bound) {
        return actual <= bound + RELATIVE_TOLERANCE * Math.abs(bound) + ABSOLUTE_TOLERANCE_S;
    }

    /** Nodes n with h(n) > exact cost n -> goal (by Dijkstra on the reversed graph). */
    static List<String> admissibilityViolations(
            Graph<Detector, RoadSegment> costGraph, AStarAdmissibleHeuristic<Detector> heuristic, Detector goal) {
        ShortestPathAlgorithm.SingleSourcePaths<Detector, RoadSegment> toGoal =
                new DijkstraShortestPath<>(new EdgeReversedGraph<>(costGraph)).getPaths(goal);
        List<String> violations = new ArrayList<>();
        for (Detector node : costGraph.vertexSet()) {
            double exact = toGoal.getWeight(node);
            double estimate = heuristic.getCostEstimate(node, goal);
            if (!withinTolerance(estimate, exact)) {
                violations.add(String.format(
                        Locale.ROOT,
                        "h(%d -> %d) = %.9f s > exact %.9f s",
                        node.vdsId(),
                        goal.vdsId(),
                        estimate,
                        exact));
            }
        }
        return violations;
    }

    /** Segments (u, v) with h(u) > w(u, v) + h(v) for this goal. */
    static List<String> consistencyViolations(
            Graph<Detector, RoadSegment> costGraph, AStarAdmissibleHeuristic<Detector> heuristic, Detector goal) {
        List<String> violations = new ArrayList<>();
        for (RoadSegment segment : costGraph.edgeSet()) {
            double hFrom = heuristic.getCostEstimate(segment.from(), goal);
            double viaSegment = costGraph.getEdgeWeight(segment) + heuristic.getCostEstimate(segment.to(), goal);
            if (!withinTolerance(hFrom, viaSegment)) {
                violations.add(String.format(
                        Locale.ROOT,
                        "h(%d) = %.9f s > w + h(%d) = %.9f s, goal %d",
                        segment.from().vdsId(),
                        hFrom,
                        segment.to().vdsId(),
                        viaSegment,
                        goal.vdsId()));
            }
        }
        return violations;
    }
}
