package org.itsrt.routing;

import java.util.List;

/**
 * The answer to a routing query.
 *
 * @param fromVdsId   where the query started
 * @param toVdsId     the goal
 * @param vdsIds      the detectors along the route, from start to goal inclusive; a single id when
 *                    start and goal coincide; empty when the goal cannot be reached
 * @param costSeconds expected travel time in seconds; {@link Double#POSITIVE_INFINITY} when the
 *                    goal cannot be reached
 */
public record Route(long fromVdsId, long toVdsId, List<Long> vdsIds, double costSeconds) {

    public Route {
        vdsIds = List.copyOf(vdsIds);
        if (vdsIds.isEmpty()) {
            if (costSeconds != Double.POSITIVE_INFINITY) {
                throw new IllegalArgumentException("an unreachable route costs +Infinity, got " + costSeconds);
            }
        } else {
            if (vdsIds.get(0) != fromVdsId || vdsIds.get(vdsIds.size() - 1) != toVdsId) {
                throw new IllegalArgumentException(
                        "route " + vdsIds + " must run from " + fromVdsId + " to " + toVdsId);
            }
            if (!(costSeconds >= 0) || Double.isInfinite(costSeconds)) {
                throw new IllegalArgumentException("a route's cost must be finite and >= 0, got " + costSeconds);
            }
        }
    }

    /** The route of a goal that cannot be reached from the start. */
    public static Route unreachable(long fromVdsId, long toVdsId) {
        return new Route(fromVdsId, toVdsId, List.of(), Double.POSITIVE_INFINITY);
    }

    public boolean isReachable() {
        return !vdsIds.isEmpty();
    }
}
