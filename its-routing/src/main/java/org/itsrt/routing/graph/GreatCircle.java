package org.itsrt.routing.graph;

/**
 * Great-circle distance on a spherical Earth, by the haversine formula.
 *
 * <p>This is the lower bound every road segment's length is checked against, and the distance the
 * A* heuristic measures; both must use this one function so that the bound holds exactly.
 * The haversine form stays accurate for the short distances between neighbouring detectors
 * (tens of meters), where the spherical law of cosines loses most of its digits.
 *
 * <p>A sphere of the mean Earth radius is off from the WGS84 ellipsoid by at most about 0.5 %;
 * that is far below what matters for travel-time estimates, and a sphere keeps the distance a
 * true metric (symmetric, triangle inequality), which the heuristic's consistency relies on.
 */
public final class GreatCircle {

    /** Mean Earth radius (IUGG, (2a + b) / 3 of WGS84), in meters. */
    public static final double EARTH_MEAN_RADIUS_M = 6_371_008.8;

    private GreatCircle() {}

    /**
     * Distance in meters between two points given in degrees of WGS84 latitude and longitude.
     * Symmetric in its two points, 0 for identical points.
     */
    public static double meters(double latitude1, double longitude1, double latitude2, double longitude2) {
        double phi1 = Math.toRadians(latitude1);
        double phi2 = Math.toRadians(latitude2);
        double halfDeltaPhi = (phi2 - phi1) / 2;
        double halfDeltaLambda = Math.toRadians(longitude2 - longitude1) / 2;
        double sinHalfDeltaPhi = Math.sin(halfDeltaPhi);
        double sinHalfDeltaLambda = Math.sin(halfDeltaLambda);
        double haversine = sinHalfDeltaPhi * sinHalfDeltaPhi
                + Math.cos(phi1) * Math.cos(phi2) * sinHalfDeltaLambda * sinHalfDeltaLambda;
        // Rounding can push the haversine a hair above 1 for antipodal points; asin would be NaN.
        return 2 * EARTH_MEAN_RADIUS_M * Math.asin(Math.sqrt(Math.min(1.0, haversine)));
    }

    /** Distance in meters between two detectors. */
    public static double meters(Detector from, Detector to) {
        return meters(from.latitude(), from.longitude(), to.latitude(), to.longitude());
    }
}
