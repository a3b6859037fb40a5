package org.itsrt.model;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * The last readings of one detector, oldest first, as a model's input window: raw flows
 * (veh/5 min), raw speeds (mph, NaN = unknown) and the UTC start of the newest reading, from
 * which the time of each reading follows (readings are one model interval apart).
 * The arrays are copied in and out, so a window never changes.
 */
public record ReadingWindow(double[] flows, double[] speeds, Instant newestStart) {

    public ReadingWindow {
        Objects.requireNonNull(flows, "flows");
        Objects.requireNonNull(speeds, "speeds");
        Objects.requireNonNull(newestStart, "newestStart");
        if (flows.length != speeds.length) {
            throw new IllegalArgumentException(
                    "flows and speeds differ in length: " + flows.length + " vs " + speeds.length);
        }
        flows = flows.clone();
        speeds = speeds.clone();
    }

    /** A window without speeds (all unknown), for flow-only models. */
    public static ReadingWindow flowOnly(double[] flows, Instant newestStart) {
        double[] speeds = new double[flows.length];
        Arrays.fill(speeds, Double.NaN);
        return new ReadingWindow(flows, speeds, newestStart);
    }

    /** Number of readings. */
    public int size() {
        return flows.length;
    }

    /** Flow of reading {@code i}, 0 = oldest; reads without copying. */
    public double flow(int i) {
        return flows[i];
    }

    /** Speed of reading {@code i}, 0 = oldest, NaN = unknown; reads without copying. */
    public double speed(int i) {
        return speeds[i];
    }

    @Override
    public double[] flows() {
        return flows.clone();
    }

    @Override
    public double[] speeds() {
        return speeds.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ReadingWindow that
                && Arrays.equals(flows, that.flows)
                && Arrays.equals(speeds, that.speeds)
                && newestStart.equals(that.newestStart);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(flows), Arrays.hashCode(speeds), newestStart);
    }

    @Override
    public String toString() {
        return "ReadingWindow[flows=" + Arrays.toString(flows) + ", speeds=" + Arrays.toString(speeds)
                + ", newestStart=" + newestStart + "]";
    }
}
