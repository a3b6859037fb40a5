package org.itsrt.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.SyntheticFreewayNetwork;
import org.jgrapht.alg.connectivity.KosarajuStrongConnectivityInspector;
import org.junit.jupiter.api.Test;

/**
 * The router's searches on a generated district of about 4,800 mainline detectors, the size of a large
 * Caltrans district, under random traffic: Dijkstra's costs, valid paths, the same reachability,
 * and no allocation per query. The district is built once for the class (it takes about a second).
 */
class DistrictRoutingPropertiesTest {

    /** Ten freeways each way over 86 km, a station about every half mile: 4,775 detectors. */
    static final SyntheticFreewayNetwork.Spec DISTRICT =
            new SyntheticFreewayNetwork.Spec(20180301L, 10, 10, 86_000, 800);

    private static final DetectorGraph GRAPH = SyntheticFreewayNetwork.graph(DISTRICT);
    private static final Router ROUTER = Router.withDefaults(GRAPH);

    @Test
    void theDistrictHasAbout4800DetectorsAndIsNotStronglyConnected() {
        assertThat(GRAPH.detectors()).hasSizeBetween(4_600, 5_000);
        assertThat(new KosarajuStrongConnectivityInspector<>(GRAPH.graph()).isStronglyConnected())
                .isFalse();
    }

    @Property(tries = 6)
    void landmarkAStarFindsDijkstrasRoutesUnderRandomTraffic(@ForAll long seed) {
        Random random = new Random(seed);
        ROUTER.replaceState(new TrafficState());
        RandomNetworks.randomTraffic(ROUTER, random);

        RouteAssertions.assertSearchesMatchDijkstra(ROUTER, random, 50);
        List<Detector> detectors = GRAPH.detectors();
        for (int i = 0; i < 2; i++) {
            Detector goal = detectors.get(random.nextInt(detectors.size()));
            assertThat(RouteChecks.consistencyViolations(ROUTER.costGraph(), ROUTER.landmarkHeuristic(), goal))
                    .isEmpty();
            assertThat(RouteChecks.admissibilityViolations(ROUTER.costGraph(), ROUTER.landmarkHeuristic(), goal))
                    .isEmpty();
        }
    }

    /**
     * After warm-up, a few thousand queries by {@link Router#travelSeconds} allocate less than 16
     * bytes each (in effect nothing: the bound absorbs the measurement's own few bytes). The same
     * measurement around JGraphT's Dijkstra shows it can see allocation.
     */
    @Test
    void aQueryAllocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemoryEnabled()).isTrue();
        Random random = new Random(11);
        ROUTER.replaceState(new TrafficState());
        RandomNetworks.randomTraffic(ROUTER, random);
        int queries = 2_000;
        long[] from = new long[queries];
        long[] to = new long[queries];
        for (int i = 0; i < queries; i++) {
            from[i] = GRAPH.detectors()
                    .get(random.nextInt(GRAPH.detectors().size()))
                    .vdsId();
            to[i] = GRAPH.detectors()
                    .get(random.nextInt(GRAPH.detectors().size()))
                    .vdsId();
        }
        long routeDetectors = 0;
        for (int round = 0; round < 3; round++) {
            routeDetectors += runQueries(from, to);
        }

        long before = threads.getCurrentThreadAllocatedBytes();
        routeDetectors += runQueries(from, to);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(routeDetectors).isPositive();
        assertThat((double) allocated / queries).as("bytes per query").isLessThan(16);

        before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 20; i++) {
            ROUTER.routeByDijkstra(from[i], to[i]);
        }
        assertThat(threads.getCurrentThreadAllocatedBytes() - before).isGreaterThan(20 * 1_000L);
    }

    private static long runQueries(long[] from, long[] to) {
        long routeDetectors = 0;
        for (int i = 0; i < from.length; i++) {
            ROUTER.travelSeconds(from[i], to[i]);
            routeDetectors += ROUTER.lastRouteLength();
        }
        return routeDetectors;
    }
}
