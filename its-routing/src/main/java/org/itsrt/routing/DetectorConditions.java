package org.itsrt.routing;

/**
 * The latest traffic conditions known at one detector: what it last measured and what the model
 * last predicted for it. Either may be unknown, written as {@link Double#NaN}; unknown is never
 * the same as 0 (a measured speed of 0 means stopped traffic).
 *
 * @param observedSpeedMph     latest observed average speed over all lanes (mph), or NaN when the
 *                             source reports no speed (a flow-only source)
 * @param predictedFlowPer5Min latest predicted flow for the next 5 minutes, total over all lanes
 *                             (vehicles per 5 minutes), or NaN before the first prediction
 */
public record DetectorConditions(double observedSpeedMph, double predictedFlowPer5Min) {

    /** Nothing known yet. */
    public static final DetectorConditions UNKNOWN = new DetectorConditions(Double.NaN, Double.NaN);

    public DetectorConditions {
        requireUnknownOrNonNegative(observedSpeedMph, "observedSpeedMph");
        requireUnknownOrNonNegative(predictedFlowPer5Min, "predictedFlowPer5Min");
    }

    /** Conditions from a source that measures both speed and flow. */
    public static DetectorConditions of(double observedSpeedMph, double predictedFlowPer5Min) {
        return new DetectorConditions(observedSpeedMph, predictedFlowPer5Min);
    }

    /** Conditions from a flow-only source: the speed is unknown. */
    public static DetectorConditions flowOnly(double predictedFlowPer5Min) {
        return new DetectorConditions(Double.NaN, predictedFlowPer5Min);
    }

    public boolean hasObservedSpeed() {
        return !Double.isNaN(observedSpeedMph);
    }

    public boolean hasPredictedFlow() {
        return !Double.isNaN(predictedFlowPer5Min);
    }

    private static void requireUnknownOrNonNegative(double value, String name) {
        if (!Double.isNaN(value) && !(value >= 0 && value < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException(name + " must be finite and >= 0, or NaN for unknown, got " + value);
        }
    }
}
