package org.itsrt.routing;

import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.GreatCircle;
import org.jgrapht.alg.interfaces.AStarAdmissibleHeuristic;

/**
 * The A* heuristic: h(n) = greatCircle(n, goal) / v_max, a lower bound of the travel time from n
 * to the goal in seconds.
 *
 * <p>Admissible: every segment is at least as long as the great-circle distance of its ends
 * (enforced by the graph builder) and no segment is faster than v_max (enforced by the clamp in
 * {@link TravelTimeCost}), so a segment's cost is at least greatCircle(u, v) / v_max; summed along
 * any path and with the triangle inequality of great-circle distance, a path's cost is at least
 * greatCircle(start, goal) / v_max.
 *
 * <p>Consistent: for every segment (u, v), h(u) - h(v) <= greatCircle(u, v) / v_max <= cost(u, v),
 * by the triangle inequality and the same two bounds. So A* never has to reopen a node, and it
 * returns the same cost as Dijkstra (up to floating-point rounding).
 */
public final class TravelTimeHeuristic implements AStarAdmissibleHeuristic<Detector> {

    private final double maxSpeedMetersPerSecond;

    public TravelTimeHeuristic(TravelTimeParameters parameters) {
        this.maxSpeedMetersPerSecond = parameters.maxSpeedMph() * TravelTimeCost.METERS_PER_SECOND_PER_MPH;
    }

    @Override
    public double getCostEstimate(Detector node, Detector goal) {
        return GreatCircle.meters(node, goal) / maxSpeedMetersPerSecond;
    }
}
