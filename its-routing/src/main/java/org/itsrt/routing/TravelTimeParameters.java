package org.itsrt.routing;

/**
 * The parameters of the travel-time cost ({@link TravelTimeCost}); validated, immutable.
 *
 * @param freeFlowSpeedMph             v_free: speed at zero flow (mph)
 * @param minSpeedMph                  v_min: lower clamp of a segment's speed (mph), keeps a stopped
 *                                     or jammed segment's cost finite
 * @param maxSpeedMph                  v_max: upper clamp of a segment's speed (mph), and the speed the
 *                                     A* heuristic divides by; must be at least v_free
 * @param laneCapacityVehPerHourLane   c: capacity per lane (vehicles per hour per lane)
 * @param alpha                        BPR alpha, >= 0
 * @param beta                         BPR beta, > 0
 */
public record TravelTimeParameters(
        double freeFlowSpeedMph,
        double minSpeedMph,
        double maxSpeedMph,
        double laneCapacityVehPerHourLane,
        double alpha,
        double beta) {

    /**
     * The defaults. v_free = 65 mph is the California freeway speed limit. v_max = v_free because
     * the cost never yields a speed above v_free (see {@link TravelTimeCost}), and the closer
     * v_max is to the fastest real edge speed, the tighter the heuristic and the fewer nodes A*
     * expands. v_min = 5 mph is a crawl in stop-and-go traffic. Capacity 2,000 veh/h/lane is a
     * common planning value for urban freeway lanes (the Highway Capacity Manual's base capacity of
     * 2,250-2,400 passenger cars/h/lane, less for trucks, weaving and ramps); alpha = 0.15 and
     * beta = 4 are the Bureau of Public Roads' original values.
     */
    public static final TravelTimeParameters DEFAULTS = new TravelTimeParameters(65, 5, 65, 2000, 0.15, 4);

    public TravelTimeParameters {
        requireFinite(freeFlowSpeedMph, "freeFlowSpeedMph");
        requireFinite(minSpeedMph, "minSpeedMph");
        requireFinite(maxSpeedMph, "maxSpeedMph");
        requireFinite(laneCapacityVehPerHourLane, "laneCapacityVehPerHourLane");
        requireFinite(alpha, "alpha");
        requireFinite(beta, "beta");
        if (!(minSpeedMph > 0 && minSpeedMph <= freeFlowSpeedMph && freeFlowSpeedMph <= maxSpeedMph)) {
            throw new IllegalArgumentException("speeds must satisfy 0 < minSpeedMph <= freeFlowSpeedMph"
                    + " <= maxSpeedMph, got " + minSpeedMph + ", " + freeFlowSpeedMph + ", " + maxSpeedMph);
        }
        if (!(laneCapacityVehPerHourLane > 0)) {
            throw new IllegalArgumentException(
                    "laneCapacityVehPerHourLane must be > 0, got " + laneCapacityVehPerHourLane);
        }
        if (!(alpha >= 0) || !(beta > 0)) {
            throw new IllegalArgumentException("BPR alpha must be >= 0 and beta > 0, got " + alpha + ", " + beta);
        }
    }

    public TravelTimeParameters withFreeFlowSpeedMph(double value) {
        return new TravelTimeParameters(value, minSpeedMph, maxSpeedMph, laneCapacityVehPerHourLane, alpha, beta);
    }

    public TravelTimeParameters withMinSpeedMph(double value) {
        return new TravelTimeParameters(freeFlowSpeedMph, value, maxSpeedMph, laneCapacityVehPerHourLane, alpha, beta);
    }

    public TravelTimeParameters withMaxSpeedMph(double value) {
        return new TravelTimeParameters(freeFlowSpeedMph, minSpeedMph, value, laneCapacityVehPerHourLane, alpha, beta);
    }

    public TravelTimeParameters withLaneCapacityVehPerHourLane(double value) {
        return new TravelTimeParameters(freeFlowSpeedMph, minSpeedMph, maxSpeedMph, value, alpha, beta);
    }

    public TravelTimeParameters withBpr(double newAlpha, double newBeta) {
        return new TravelTimeParameters(
                freeFlowSpeedMph, minSpeedMph, maxSpeedMph, laneCapacityVehPerHourLane, newAlpha, newBeta);
    }

    private static void requireFinite(double value, String name) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be finite, got " + value);
        }
    }
}
