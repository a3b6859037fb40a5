package org.itsrt.routing;

import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.RoadSegment;

/**
 * The one cost of a road segment: its expected travel time in seconds,
 * <pre>
 *   cost(segment) = length / v_edge
 * </pre>
 * with the speed v_edge taken from the conditions at the segment's <em>measuring detector</em>
 * ({@link #measuringDetector}):
 * <pre>
 *   q      = predicted flow (veh/5 min, all lanes) * 12 / lanes        veh/h/lane
 *   v_flow = v_free / (1 + alpha * (q / c)^beta)                       BPR volume-delay
 *            (v_free when no flow has been predicted yet)
 *   v      = min(observed speed, v_flow)   when a speed is observed
 *            v_flow                        when the speed is unknown (flow-only source)
 *   v_edge = clamp(v, v_min, v_max)
 * </pre>
 *
 * <p>Why this form. The observed speed is the best evidence of the segment's state now, and the
 * predicted flow the only evidence of the next five minutes; taking the slower of the two means a
 * route is never chosen on the hope that predicted demand will clear, nor on an old speed when
 * demand is about to rise. The BPR curve alone cannot see a jam (inside a jam flow falls, and the
 * curve reads low flow as free-flowing), which is why an observed speed, when there is one, can
 * only lower the speed. An unknown speed is never read as 0: it simply drops out of the minimum.
 *
 * <p>Properties the router and its heuristic rely on: the cost is non-decreasing in predicted
 * flow, non-increasing in observed speed, and bounded:
 * {@code length / v_max <= cost <= length / v_min}. The clamp enforces the upper speed bound no
 * matter what conditions arrive; it is what keeps {@link TravelTimeHeuristic} admissible.
 * Since v_flow never exceeds v_free, speeds stay at or below v_free, and v_max only guards.
 */
public final class TravelTimeCost {

    /** Exact by definition of the international mile. */
    static final double METERS_PER_SECOND_PER_MPH = 0.44704;

    private static final double FIVE_MINUTE_INTERVALS_PER_HOUR = 12;

    private final TravelTimeParameters parameters;

    public TravelTimeCost(TravelTimeParameters parameters) {
        this.parameters = parameters;
    }

    /** The cost with {@link TravelTimeParameters#DEFAULTS}. */
    public static TravelTimeCost withDefaults() {
        return new TravelTimeCost(TravelTimeParameters.DEFAULTS);
    }

    public TravelTimeParameters parameters() {
        return parameters;
    }

    /**
     * The detector whose conditions set a segment's speed: the one on the freeway the segment
     * runs on, the upstream end when both are. For a stretch of one freeway that is its upstream
     * station, whose readings describe the traffic entering it. For an interchange it is the
     * station on the freeway being joined: a connector backs up when the freeway it merges into is
     * slow. Where a station stands for a junction with another freeway (the study's El Segundo on
     * the 405, whose segment onto the 105 east it starts), it is the station at the other end.
     */
    public Detector measuringDetector(RoadSegment segment) {
        return segment.from().freeway() == segment.freeway() ? segment.from() : segment.to();
    }

    /** Expected travel time over the segment in seconds, under the given state. */
    public double seconds(RoadSegment segment, TrafficState state) {
        Detector measuring = measuringDetector(segment);
        double speedMph = speedMph(measuring, state.get(measuring.vdsId()));
        return segment.lengthMeters() / (speedMph * METERS_PER_SECOND_PER_MPH);
    }

    /**
     * The least the segment can cost under any state: its length at v_max. {@link #seconds}
     * divides the same length by {@code v_edge * METERS_PER_SECOND_PER_MPH} with v_edge <= v_max,
     * and rounded division and multiplication are monotone, so even in floating point no state
     * yields a lower cost. The landmark heuristic's distances are taken on these bounds.
     */
    public double lowerBoundSeconds(RoadSegment segment) {
        return segment.lengthMeters() / (parameters.maxSpeedMph() * METERS_PER_SECOND_PER_MPH);
    }

    /** v_edge for a segment measured by this detector under these conditions, in mph. */
    public double speedMph(Detector measuring, DetectorConditions conditions) {
        double speed = flowSpeedMph(measuring, conditions);
        if (conditions.hasObservedSpeed()) {
            speed = Math.min(conditions.observedSpeedMph(), speed);
        }
        return Math.max(parameters.minSpeedMph(), Math.min(parameters.maxSpeedMph(), speed));
    }

    /** v_flow: the BPR speed for the predicted flow, v_free when none has been predicted. */
    private double flowSpeedMph(Detector measuring, DetectorConditions conditions) {
        if (!conditions.hasPredictedFlow()) {
            return parameters.freeFlowSpeedMph();
        }
        double flowPerLanePerHour =
                conditions.predictedFlowPer5Min() * FIVE_MINUTE_INTERVALS_PER_HOUR / measuring.lanes();
        double volumeOverCapacity = flowPerLanePerHour / parameters.laneCapacityVehPerHourLane();
        return parameters.freeFlowSpeedMph()
                / (1 + parameters.alpha() * Math.pow(volumeOverCapacity, parameters.beta()));
    }
}
