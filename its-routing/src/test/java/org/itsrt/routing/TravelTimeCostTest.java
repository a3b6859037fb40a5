package org.itsrt.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.itsrt.readings.StudyStation;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.RoadSegment;
import org.itsrt.routing.graph.StudyNetwork;
import org.junit.jupiter.api.Test;

class TravelTimeCostTest {

    private static final double ONE_MILE_METERS = 1609.344;
    private static final Detector UPSTREAM = new Detector(1, "up", 405, 'S', 33.90, -118.30, 4);
    private static final Detector DOWNSTREAM = new Detector(2, "down", 405, 'S', 33.89, -118.29, 4);
    private static final Detector OTHER_FREEWAY = new Detector(3, "other", 105, 'E', 33.89, -118.28, 3);

    private final TravelTimeCost cost = TravelTimeCost.withDefaults();
    private final DetectorGraph graph = DetectorGraph.builder()
            .addDetector(UPSTREAM)
            .addDetector(DOWNSTREAM)
            .addDetector(OTHER_FREEWAY)
            .addSegment(1, 2, ONE_MILE_METERS, RoadSegment.Kind.FREEWAY, 405)
            .addSegment(2, 3, ONE_MILE_METERS, RoadSegment.Kind.INTERCHANGE, 105)
            .build();
    private final RoadSegment mile = graph.segments().get(0);
    private final RoadSegment interchange = graph.segments().get(1);

    private double secondsOverTheMile(DetectorConditions upstreamConditions) {
        TrafficState state = new TrafficState();
        state.put(UPSTREAM.vdsId(), upstreamConditions);
        return cost.seconds(mile, state);
    }

    @Test
    void withNothingKnownAMileTakesAsLongAsAtTheFreeFlowSpeed() {
        assertThat(secondsOverTheMile(DetectorConditions.UNKNOWN)).isCloseTo(3600.0 / 65, within(1e-9));
    }

    @Test
    void predictedFlowAtCapacitySlowsByTheBprFactor() {
        // 4 lanes at 2,000 veh/h/lane = 8,000 veh/h = 666.67 veh/5 min: v = 65 / (1 + 0.15 * 1^4).
        double atCapacity = 4 * 2000 / 12.0;
        assertThat(cost.speedMph(UPSTREAM, DetectorConditions.flowOnly(atCapacity)))
                .isCloseTo(65 / 1.15, within(1e-9));
        // At twice capacity: 65 / (1 + 0.15 * 16) = 19.12 mph.
        assertThat(cost.speedMph(UPSTREAM, DetectorConditions.flowOnly(2 * atCapacity)))
                .isCloseTo(65 / 3.4, within(1e-9));
    }

    @Test
    void anObservedSpeedCanOnlyLowerTheSpeed() {
        double flow = 300; // 900 veh/h/lane: v_flow = 65 / (1 + 0.15 * 0.45^4) = 64.60 mph
        double flowSpeed = cost.speedMph(UPSTREAM, DetectorConditions.flowOnly(flow));
        assertThat(flowSpeed).isCloseTo(65 / (1 + 0.15 * Math.pow(0.45, 4)), within(1e-9));

        assertThat(cost.speedMph(UPSTREAM, DetectorConditions.of(30, flow))).isEqualTo(30);
        assertThat(cost.speedMph(UPSTREAM, DetectorConditions.of(70, flow))).isEqualTo(flowSpeed);
    }

    @Test
    void anUnknownSpeedIsNotAZeroSpeed() {
        double unknown = secondsOverTheMile(DetectorConditions.flowOnly(100));
        double stopped = secondsOverTheMile(DetectorConditions.of(0, 100));

        assertThat(unknown).isCloseTo(3600.0 / cost.speedMph(UPSTREAM, DetectorConditions.flowOnly(100)), within(1e-9));
        assertThat(unknown).isLessThan(60);
        assertThat(stopped).isCloseTo(3600.0 / 5, within(1e-9)); // clamped to v_min = 5 mph
    }

    @Test
    void speedsAreClampedIntoTheConfiguredRange() {
        TravelTimeCost capped = new TravelTimeCost(TravelTimeParameters.DEFAULTS.withMaxSpeedMph(70));
        assertThat(capped.speedMph(UPSTREAM, DetectorConditions.of(120, 0))).isEqualTo(65);
        assertThat(capped.speedMph(UPSTREAM, DetectorConditions.of(1, 0))).isEqualTo(5);
        assertThat(capped.speedMph(UPSTREAM, DetectorConditions.flowOnly(1e9))).isEqualTo(5);
    }

    @Test
    void aSegmentIsMeasuredByTheDetectorOnItsFreeway() {
        assertThat(cost.measuringDetector(mile)).isEqualTo(UPSTREAM);
        assertThat(cost.measuringDetector(interchange)).isEqualTo(OTHER_FREEWAY);

        DetectorGraph study = StudyNetwork.build();
        RoadSegment elSegundoToAthens = study.graph()
                .getEdge(
                        study.requireDetector(StudyStation.EL_SEGUNDO.vdsId()),
                        study.requireDetector(StudyStation.ATHENS.vdsId()));
        assertThat(cost.measuringDetector(elSegundoToAthens).vdsId()).isEqualTo(StudyStation.ATHENS.vdsId());
    }

    @Test
    void theInterchangeTakesTheConditionsOfTheFreewayItJoins() {
        TrafficState state = new TrafficState();
        state.put(DOWNSTREAM.vdsId(), DetectorConditions.of(10, 0));
        assertThat(cost.seconds(interchange, state)).isCloseTo(3600.0 / 65, within(1e-9));

        state.put(OTHER_FREEWAY.vdsId(), DetectorConditions.of(10, 0));
        assertThat(cost.seconds(interchange, state)).isCloseTo(3600.0 / 10, within(1e-9));
    }

    @Test
    void parametersAndConditionsRejectNonsense() {
        assertThatThrownBy(() -> TravelTimeParameters.DEFAULTS.withMaxSpeedMph(60))
                .hasMessageContaining("maxSpeedMph");
        assertThatThrownBy(() -> TravelTimeParameters.DEFAULTS.withMinSpeedMph(0))
                .hasMessageContaining("minSpeedMph");
        assertThatThrownBy(() -> TravelTimeParameters.DEFAULTS.withBpr(0.15, 0)).hasMessageContaining("beta");
        assertThatThrownBy(() -> TravelTimeParameters.DEFAULTS.withLaneCapacityVehPerHourLane(Double.NaN))
                .hasMessageContaining("laneCapacityVehPerHourLane");
        assertThatThrownBy(() -> DetectorConditions.of(-1, 10)).hasMessageContaining("observedSpeedMph");
        assertThatThrownBy(() -> DetectorConditions.flowOnly(Double.POSITIVE_INFINITY))
                .hasMessageContaining("predictedFlowPer5Min");
    }

    @Property(tries = 500)
    void costIsMonotoneAndBounded(
            @ForAll @DoubleRange(min = 0, max = 150) double speed,
            @ForAll @DoubleRange(min = 0, max = 150) double fasterBy,
            @ForAll @DoubleRange(min = 0, max = 3000) double flow,
            @ForAll @DoubleRange(min = 0, max = 3000) double moreFlow) {
        double base = secondsOverTheMile(DetectorConditions.of(speed, flow));

        assertThat(secondsOverTheMile(DetectorConditions.of(speed + fasterBy, flow)))
                .isLessThanOrEqualTo(base);
        assertThat(secondsOverTheMile(DetectorConditions.of(speed, flow + moreFlow)))
                .isGreaterThanOrEqualTo(base);
        assertThat(secondsOverTheMile(DetectorConditions.flowOnly(flow))).isLessThanOrEqualTo(base);
        assertThat(base).isBetween(3600.0 / 65 * (1 - 1e-12), 3600.0 / 5 * (1 + 1e-12));
    }

    /**
     * The landmark heuristic's premise, exactly (no tolerance): under any parameters and any
     * conditions, a segment costs at least its length at v_max, as computed in floating point.
     */
    @Property(tries = 2000)
    void noConditionsCostLessThanTheFreeFlowLowerBound(@ForAll long seed) {
        Random random = new Random(seed);
        TravelTimeCost anyCost = new TravelTimeCost(RandomNetworks.parameters(random));
        TrafficState state = new TrafficState();
        state.put(UPSTREAM.vdsId(), RandomNetworks.conditions(random));

        assertThat(anyCost.seconds(mile, state)).isGreaterThanOrEqualTo(anyCost.lowerBoundSeconds(mile));
    }
}
