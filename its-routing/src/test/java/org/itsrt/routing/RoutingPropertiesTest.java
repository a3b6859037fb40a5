package org.itsrt.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.RoadSegment;
import org.itsrt.routing.graph.StudyNetwork;
import org.itsrt.routing.graph.SyntheticFreewayNetwork;
import org.jgrapht.alg.interfaces.AStarAdmissibleHeuristic;
import org.junit.jupiter.api.Test;

/**
 * D3's guarantees, checked on random graphs and random traffic: both heuristics (great-circle and
 * landmarks) are admissible and consistent, and both A* searches return the cost Dijkstra returns.
 * Each property draws a whole case from one seed; a failure reports the seed that reproduces it.
 * Random graphs of a few detectors are seldom strongly connected, so these also cover the
 * landmark heuristic's infinite distances.
 */
class RoutingPropertiesTest {

    private static final int PAIRS_PER_GRAPH = 60;

    private static Router randomRouter(Random random) {
        DetectorGraph graph = RandomNetworks.graph(random);
        Router router = new Router(graph, new TravelTimeCost(RandomNetworks.parameters(random)));
        RandomNetworks.randomTraffic(router, random);
        return router;
    }

    @Property(tries = 400)
    void aStarFindsTheDijkstraCostOnRandomGraphs(@ForAll long seed) {
        Random random = new Random(seed);
        Router router = randomRouter(random);

        RouteAssertions.assertSearchesMatchDijkstra(router, random, PAIRS_PER_GRAPH);
    }

    @Property(tries = 300)
    void theHeuristicIsAdmissibleAndConsistentOnRandomGraphs(@ForAll long seed) {
        Random random = new Random(seed);
        Router router = randomRouter(random);

        for (Detector goal : router.network().detectors()) {
            assertHeuristicHolds(router, goal);
        }
    }

    @Property(tries = 200)
    void updatingOneDetectorAtATimeGivesTheCostsOfAFullRecomputation(@ForAll long seed) {
        Random random = new Random(seed);
        Router incremental = randomRouter(random);
        Router recomputed = new Router(incremental.network(), incremental.cost());

        recomputed.replaceState(incremental.trafficState());

        for (RoadSegment segment : incremental.network().segments()) {
            assertThat(incremental.seconds(segment)).as("%s", segment).isEqualTo(recomputed.seconds(segment));
        }
    }

    /** Synthetic freeway networks of a few hundred detectors, with random traffic. */
    @Property(tries = 8)
    void aStarMatchesDijkstraAndTheHeuristicHoldsOnSyntheticNetworks(
            @ForAll @LongRange(min = 1, max = 1_000_000) long seed) {
        Random random = new Random(seed);
        DetectorGraph graph = SyntheticFreewayNetwork.graph(new SyntheticFreewayNetwork.Spec(seed, 3, 3, 30_000, 800));
        Router router = new Router(graph, new TravelTimeCost(RandomNetworks.parameters(random)));
        RandomNetworks.randomTraffic(router, random);

        RouteAssertions.assertSearchesMatchDijkstra(router, random, 100);
        assertHeuristicHoldsForRandomGoals(router, random, 10);
    }

    @Test
    void aStarMatchesDijkstraAndTheHeuristicHoldsOnTheDefaultSyntheticNetwork() {
        Random random = new Random(7);
        Router router = Router.withDefaults(SyntheticFreewayNetwork.graph(SyntheticFreewayNetwork.Spec.defaults(7)));
        RandomNetworks.randomTraffic(router, random);

        assertThat(router.network().detectors()).hasSizeGreaterThan(1000);
        RouteAssertions.assertSearchesMatchDijkstra(router, random, 200);
        assertHeuristicHoldsForRandomGoals(router, random, 5);
    }

    /** The checks above must be able to fail: a heuristic twice too optimistic about speed. */
    @Test
    void theChecksCatchAHeuristicThatOverestimates() {
        Router router = Router.withDefaults(StudyNetwork.build());
        TravelTimeHeuristic halfSpeed = new TravelTimeHeuristic(TravelTimeParameters.DEFAULTS
                .withMinSpeedMph(1)
                .withFreeFlowSpeedMph(32.5)
                .withMaxSpeedMph(32.5));
        Detector longBeach = router.network().requireDetector(774445);

        assertThat(RouteChecks.admissibilityViolations(router.costGraph(), halfSpeed, longBeach))
                .isNotEmpty();
        assertThat(RouteChecks.consistencyViolations(router.costGraph(), halfSpeed, longBeach))
                .isNotEmpty();
    }

    private static void assertHeuristicHoldsForRandomGoals(Router router, Random random, int goals) {
        List<Detector> detectors = router.network().detectors();
        for (int i = 0; i < goals; i++) {
            assertHeuristicHolds(router, detectors.get(random.nextInt(detectors.size())));
        }
    }

    private static void assertHeuristicHolds(Router router, Detector goal) {
        for (AStarAdmissibleHeuristic<Detector> heuristic : List.of(router.heuristic(), router.landmarkHeuristic())) {
            assertThat(RouteChecks.admissibilityViolations(router.costGraph(), heuristic, goal))
                    .isEmpty();
            assertThat(RouteChecks.consistencyViolations(router.costGraph(), heuristic, goal))
                    .isEmpty();
        }
    }
}
