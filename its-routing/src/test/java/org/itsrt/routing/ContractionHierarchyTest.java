package org.itsrt.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.SyntheticFreewayNetwork;
import org.junit.jupiter.api.Test;

/**
 * The contraction hierarchy behind {@link Router#route}: Dijkstra's routes while updates and
 * queries interleave (each query customizes only what the updates since the last one reached),
 * the same times as a hierarchy customized from scratch, and searches bounded by the elimination
 * tree whatever the traffic.
 */
class ContractionHierarchyTest {

    private static final DetectorGraph DISTRICT_GRAPH =
            SyntheticFreewayNetwork.graph(DistrictRoutingPropertiesTest.DISTRICT);

    @Property(tries = 300)
    void interleavedUpdatesAndQueriesKeepDijkstrasRoutes(@ForAll long seed) {
        Random random = new Random(seed);
        DetectorGraph graph = RandomNetworks.graph(random);
        Router router = new Router(graph, new TravelTimeCost(RandomNetworks.parameters(random)));
        List<Detector> detectors = graph.detectors();
        for (int step = 0; step < 12; step++) {
            int updates = random.nextInt(4);
            for (int i = 0; i < updates; i++) {
                router.update(
                        detectors.get(random.nextInt(detectors.size())).vdsId(), RandomNetworks.conditions(random));
            }
            RouteAssertions.assertSearchesMatchDijkstra(router, random, 5);
        }
    }

    /**
     * However the updates come (a few at a time, faster or slower, some to the same segment, a
     * customization after each batch), every arc ends with the times a customization from scratch
     * gives: exactly, since both take the least of the same sums.
     */
    @Property(tries = 300)
    void customizingAfterUpdatesGivesTheTimesOfACustomizationFromScratch(@ForAll long seed) {
        Random random = new Random(seed);
        DetectorGraph graph = RandomNetworks.graph(random);
        CompactDetectorGraph compact = new CompactDetectorGraph(graph);
        double[] seconds = new double[graph.segments().size()];
        for (int i = 0; i < seconds.length; i++) {
            seconds[i] = randomSeconds(random);
        }
        ContractionHierarchy incremental = new ContractionHierarchy(compact);
        incremental.customize(seconds);
        for (int batch = 0; batch < 30 && seconds.length > 0; batch++) {
            int updates = 1 + random.nextInt(3);
            for (int i = 0; i < updates; i++) {
                int segment = random.nextInt(seconds.length);
                seconds[segment] =
                        random.nextBoolean() ? randomSeconds(random) : seconds[segment] * random.nextDouble() * 2;
                incremental.segmentChanged(segment);
            }
            incremental.customize(seconds);
        }
        ContractionHierarchy fromScratch = new ContractionHierarchy(compact);
        fromScratch.customize(seconds);

        assertThat(incremental.arcTimes()).containsExactly(fromScratch.arcTimes());
    }

    /** Zero (co-located detectors) now and then, else up to a quarter of an hour. */
    private static double randomSeconds(Random random) {
        return random.nextDouble() < 0.1 ? 0 : random.nextDouble() * 900;
    }

    @Test
    void aSearchVisitsAtMostBothEndsAncestorsWhateverTheTraffic() {
        Router router = Router.withDefaults(DISTRICT_GRAPH);
        ContractionHierarchy hierarchy = new ContractionHierarchy(new CompactDetectorGraph(DISTRICT_GRAPH));
        int bound = 2 * hierarchy.shape().treeHeight();
        Random random = new Random(5);
        List<Detector> detectors = DISTRICT_GRAPH.detectors();
        for (int traffic = 0; traffic < 3; traffic++) {
            for (int i = 0; i < 200; i++) {
                router.travelSeconds(
                        detectors.get(random.nextInt(detectors.size())).vdsId(),
                        detectors.get(random.nextInt(detectors.size())).vdsId());
                assertThat(router.lastSettledNodes()).isLessThanOrEqualTo(bound);
            }
            RandomNetworks.randomTraffic(router, random);
        }
        // A nested dissection keeps the tree far below the district's size.
        assertThat(hierarchy.shape().treeHeight()).isLessThan(detectors.size() / 10);
    }

    @Test
    void anUpdateBetweenTwoQueriesRecomputesOnlyTheArcsItReaches() {
        Router router = Router.withDefaults(DISTRICT_GRAPH);
        ContractionHierarchy hierarchy = new ContractionHierarchy(new CompactDetectorGraph(DISTRICT_GRAPH));
        long somewhere = DISTRICT_GRAPH.detectors().get(0).vdsId();
        router.travelSeconds(somewhere, somewhere);
        assertThat(router.lastCustomizedArcs())
                .as("first query: every arc")
                .isEqualTo(hierarchy.shape().arcs());

        router.travelSeconds(somewhere, somewhere);
        assertThat(router.lastCustomizedArcs()).as("no update since").isZero();

        router.update(DISTRICT_GRAPH.detectors().get(100).vdsId(), DetectorConditions.of(15, 1_400));
        router.travelSeconds(somewhere, somewhere);
        assertThat(router.lastCustomizedArcs()).isBetween(1, hierarchy.shape().arcs() / 10);
    }
}
