package org.itsrt.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Random;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.RoadSegment;

/** Assertions on routes shared by the routing property tests. */
final class RouteAssertions {

    private RouteAssertions() {}

    /**
     * For random pairs: the router's contraction hierarchy, its bidirectional and one-directional
     * landmark A* and its great-circle A* reach the goal exactly when
     * Dijkstra does, at Dijkstra's cost (relative tolerance 1e-9), along a path of the graph from
     * start to goal whose segment costs add up to that cost.
     */
    static void assertSearchesMatchDijkstra(Router router, Random random, int pairs) {
        List<Detector> detectors = router.network().detectors();
        for (int i = 0; i < pairs; i++) {
            long from = detectors.get(random.nextInt(detectors.size())).vdsId();
            long to = detectors.get(random.nextInt(detectors.size())).vdsId();
            Route dijkstra = router.routeByDijkstra(from, to);
            assertMatches(router, router.route(from, to), dijkstra, "contraction hierarchy");
            assertMatches(
                    router, router.routeByBidirectionalLandmarkAStar(from, to), dijkstra, "bidirectional landmark A*");
            assertMatches(router, router.routeByLandmarkAStar(from, to), dijkstra, "landmark A*");
            assertMatches(router, router.routeByGreatCircle(from, to), dijkstra, "great-circle A*");
        }
    }

    private static void assertMatches(Router router, Route route, Route dijkstra, String search) {
        assertThat(route.isReachable())
                .as("%s reachable %d -> %d", search, dijkstra.fromVdsId(), dijkstra.toVdsId())
                .isEqualTo(dijkstra.isReachable());
        if (route.isReachable()) {
            assertThat(RouteChecks.withinTolerance(route.costSeconds(), dijkstra.costSeconds())
                            && RouteChecks.withinTolerance(dijkstra.costSeconds(), route.costSeconds()))
                    .as("%s %s vs Dijkstra %s", search, route, dijkstra)
                    .isTrue();
            assertThat(sumOfSegmentCosts(router, route))
                    .as("%s %s", search, route)
                    .isCloseTo(route.costSeconds(), within(1e-9 * Math.max(1, route.costSeconds())));
        }
    }

    /**
     * Also proves the route is a path of the graph: every step must be a segment (the route's
     * own constructor checks that it starts at the start and ends at the goal).
     */
    static double sumOfSegmentCosts(Router router, Route route) {
        double sum = 0;
        List<Long> ids = route.vdsIds();
        for (int i = 1; i < ids.size(); i++) {
            RoadSegment segment = router.network()
                    .graph()
                    .getEdge(
                            router.network().requireDetector(ids.get(i - 1)),
                            router.network().requireDetector(ids.get(i)));
            assertThat(segment)
                    .as("segment %d -> %d", ids.get(i - 1), ids.get(i))
                    .isNotNull();
            sum += router.seconds(segment);
        }
        return sum;
    }
}
