package org.itsrt.experiments.capacity;

import java.util.List;
import java.util.Optional;

/**
 * What a capacity search found: every point in the order tried and how it ended.
 *
 * @param largestPassing  the largest load that passed (null if none did): the capacity when found
 * @param smallestFailing the smallest load above it that failed (null if none was tried)
 * @param failure         null, or why the search stopped before it was done
 */
public record CapacityResult(
        List<LoadPoint> points, Status status, Double largestPassing, Double smallestFailing, String failure) {

    /** How the search ended. */
    public enum Status {
        /** The capacity is known to within the resolution: a failing load lies above it. */
        FOUND,
        /** Even the upper bound passes: the capacity may lie above the range. */
        UPPER_BOUND_PASSES,
        /** The lower bound fails: no load in the range is served within the SLO. */
        NONE_PASSES,
        /** A run could not be measured. */
        STOPPED
    }

    public CapacityResult {
        points = List.copyOf(points);
    }

    /** The capacity, where the search found one (exactly, or at least the upper bound). */
    public Optional<Double> capacity() {
        return status == Status.FOUND || status == Status.UPPER_BOUND_PASSES
                ? Optional.of(largestPassing)
                : Optional.empty();
    }

    /** The point at a load, if tried. */
    public Optional<LoadPoint> at(Double load) {
        return load == null
                ? Optional.empty()
                : points.stream().filter(p -> p.load() == load).findFirst();
    }
}
