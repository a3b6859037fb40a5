package org.itsrt.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.itsrt.routing.graph.StudyNetwork;
import org.junit.jupiter.api.Test;

/** Routing El Segundo -> Long Beach on the study network under changing traffic. */
class StudyRoutingTest {

    private static final long EL_SEGUNDO = 764598;
    private static final long WILMINGTON = 717731;
    private static final long LONG_BEACH = 774445;
    private static final long ATHENS = 774614;
    private static final long LYNWOOD_GARDENS = 718155;
    private static final long EAST_RANCHO_DOMINGUEZ = 716847;

    private static final List<Long> VIA_405 = List.of(EL_SEGUNDO, WILMINGTON, LONG_BEACH);
    private static final List<Long> VIA_105_AND_710 =
            List.of(EL_SEGUNDO, ATHENS, LYNWOOD_GARDENS, EAST_RANCHO_DOMINGUEZ, LONG_BEACH);

    /** Segment lengths in meters, computed independently (see StudyNetworkTest). */
    private static final double EL_SEGUNDO_TO_WILMINGTON = 16_477.050;

    private static final double WILMINGTON_TO_LONG_BEACH = 3_050.305;
    private static final double LENGTH_VIA_405 = EL_SEGUNDO_TO_WILMINGTON + WILMINGTON_TO_LONG_BEACH;
    private static final double LENGTH_VIA_105_AND_710 = 7_795.356 + 9_325.256 + 4_155.081 + 6_067.855;

    private static final double MPH = 0.44704;
    private static final double TOLERANCE_S = 1e-3;

    private final Router router = Router.withDefaults(StudyNetwork.build());

    @Test
    void atFreeFlowThe405IsShorterAndFaster() {
        Route route = router.route(EL_SEGUNDO, LONG_BEACH);

        assertThat(route.vdsIds()).isEqualTo(VIA_405);
        assertThat(route.costSeconds()).isCloseTo(LENGTH_VIA_405 / (65 * MPH), within(TOLERANCE_S)); // 672.0 s
    }

    @Test
    void congestionOnThe405SendsTheRouteOverThe105AndThe710AndBackWhenItClears() {
        router.update(EL_SEGUNDO, DetectorConditions.of(15, 400));
        router.update(WILMINGTON, DetectorConditions.of(12, 350));

        Route congested = router.route(EL_SEGUNDO, LONG_BEACH);
        assertThat(congested.vdsIds()).isEqualTo(VIA_105_AND_710);
        // El Segundo measures only the 405 segment; the 105 and 710 run at free flow.
        assertThat(congested.costSeconds()).isCloseTo(LENGTH_VIA_105_AND_710 / (65 * MPH), within(TOLERANCE_S));

        router.update(EL_SEGUNDO, DetectorConditions.of(64, 400));
        router.update(WILMINGTON, DetectorConditions.of(63, 350));
        assertThat(router.route(EL_SEGUNDO, LONG_BEACH).vdsIds()).isEqualTo(VIA_405);
    }

    @Test
    void predictedFlowAloneCanCongestThe405WhenSpeedsAreUnknown() {
        // Flow-only readings: El Segundo 1,200 veh/5 min over 5 lanes = 2,880 veh/h/lane,
        // v = 65 / (1 + 0.15 * 1.44^4) = 39.50 mph; Wilmington 1,000 over 4 lanes = 3,000 veh/h/lane,
        // v = 65 / (1 + 0.15 * 1.5^4) = 36.52 mph.
        router.update(EL_SEGUNDO, DetectorConditions.flowOnly(1_200));
        router.update(WILMINGTON, DetectorConditions.flowOnly(1_000));

        Route route = router.route(EL_SEGUNDO, LONG_BEACH);
        Route alternative = router.routeByDijkstra(EL_SEGUNDO, LONG_BEACH);
        double elSegundoMph = 65 / (1 + 0.15 * Math.pow(1.44, 4));
        double wilmingtonMph = 65 / (1 + 0.15 * Math.pow(1.5, 4));
        double via405 =
                EL_SEGUNDO_TO_WILMINGTON / (elSegundoMph * MPH) + WILMINGTON_TO_LONG_BEACH / (wilmingtonMph * MPH);

        assertThat(route.vdsIds()).isEqualTo(VIA_105_AND_710);
        assertThat(alternative).isEqualTo(route);
        assertThat(via405).isGreaterThan(route.costSeconds());
        assertThat(via405).isCloseTo(1_117.5, within(0.5));
    }

    /** The example in docs/routing.md, section 5. */
    @Test
    void theDocumentedExampleHoldsItsNumbers() {
        router.update(EL_SEGUNDO, DetectorConditions.of(66, 420));
        router.update(WILMINGTON, DetectorConditions.flowOnly(330));
        router.update(LONG_BEACH, DetectorConditions.of(64, 250));
        router.update(ATHENS, DetectorConditions.of(63, 280));
        router.update(LYNWOOD_GARDENS, DetectorConditions.of(61, 260));
        router.update(EAST_RANCHO_DOMINGUEZ, DetectorConditions.of(58, 300));
        Route midday = router.route(EL_SEGUNDO, LONG_BEACH);

        router.update(EL_SEGUNDO, DetectorConditions.of(22, 560));
        router.update(WILMINGTON, DetectorConditions.flowOnly(610));
        Route jam = router.route(EL_SEGUNDO, LONG_BEACH);

        assertThat(midday.vdsIds()).isEqualTo(VIA_405);
        assertThat(midday.costSeconds()).isCloseTo(678.5, within(0.05));
        assertThat(jam.vdsIds()).isEqualTo(VIA_105_AND_710);
        assertThat(jam.costSeconds()).isCloseTo(1_002.2, within(0.05));
    }

    @Test
    void unknownSpeedsUseThePredictedFlowNotAStandstill() {
        for (long vdsId : List.of(EL_SEGUNDO, WILMINGTON, LONG_BEACH, ATHENS, LYNWOOD_GARDENS, EAST_RANCHO_DOMINGUEZ)) {
            router.update(vdsId, DetectorConditions.flowOnly(300));
        }

        Route route = router.route(EL_SEGUNDO, LONG_BEACH);

        // 300 veh/5 min: 720 veh/h/lane on El Segundo's 5 lanes, 900 on Wilmington's 4.
        double expected = EL_SEGUNDO_TO_WILMINGTON / (65 / (1 + 0.15 * Math.pow(0.36, 4)) * MPH)
                + WILMINGTON_TO_LONG_BEACH / (65 / (1 + 0.15 * Math.pow(0.45, 4)) * MPH);
        assertThat(route.vdsIds()).isEqualTo(VIA_405);
        assertThat(route.costSeconds()).isCloseTo(expected, within(TOLERANCE_S));
    }

    @Test
    void theNetworkIsDirectedSoLongBeachCannotReachElSegundo() {
        Route back = router.route(LONG_BEACH, EL_SEGUNDO);

        assertThat(back.isReachable()).isFalse();
        assertThat(back.vdsIds()).isEmpty();
        assertThat(back.costSeconds()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(router.routeByDijkstra(LONG_BEACH, EL_SEGUNDO)).isEqualTo(back);
    }

    @Test
    void aRouteFromADetectorToItselfIsThatDetectorAtNoCost() {
        assertThat(router.route(ATHENS, ATHENS)).isEqualTo(new Route(ATHENS, ATHENS, List.of(ATHENS), 0));
    }

    @Test
    void unknownDetectorsAreRejectedByName() {
        assertThatThrownBy(() -> router.route(EL_SEGUNDO, 42)).hasMessageContaining("VDS id 42");
        assertThatThrownBy(() -> router.update(42, DetectorConditions.UNKNOWN)).hasMessageContaining("VDS id 42");
        assertThatThrownBy(() -> router.replaceState(new TrafficState(Map.of(42L, DetectorConditions.UNKNOWN))))
                .hasMessageContaining("VDS id 42");
    }

    @Test
    void theStateRoundTripsThroughACopy() {
        router.update(EL_SEGUNDO, DetectorConditions.of(15, 400));
        router.update(WILMINGTON, DetectorConditions.flowOnly(350));
        TrafficState saved = router.trafficState();

        Router restored = Router.withDefaults(StudyNetwork.build());
        restored.replaceState(saved);

        assertThat(restored.trafficState()).isEqualTo(saved);
        assertThat(restored.route(EL_SEGUNDO, LONG_BEACH)).isEqualTo(router.route(EL_SEGUNDO, LONG_BEACH));
        router.update(EL_SEGUNDO, DetectorConditions.UNKNOWN);
        assertThat(saved.get(EL_SEGUNDO)).isEqualTo(DetectorConditions.of(15, 400));
    }
}
