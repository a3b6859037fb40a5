package org.itsrt.model;

/**
 * The min-max scaling of one feature, fitted on the training split (scaler.json).
 *
 * @param min  smallest training value; scales to 0
 * @param max  largest training value; scales to 1
 * @param fill what replaces an unknown value before scaling; NaN when the scaler has none
 */
public record FeatureRange(double min, double max, double fill) {

    public FeatureRange {
        if (!(max > min)) {
            throw new IllegalArgumentException("max must exceed min: min " + min + ", max " + max);
        }
    }

    public double scale(double value) {
        return (value - min) / (max - min);
    }

    public double unscale(double scaled) {
        return scaled * (max - min) + min;
    }
}
