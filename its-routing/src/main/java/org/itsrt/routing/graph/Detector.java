package org.itsrt.routing.graph;

import java.util.Objects;
import org.itsrt.readings.StudyStation;

/**
 * A vehicle detector station (VDS), a node of the {@link DetectorGraph}.
 *
 * @param vdsId     PeMS VDS id, unique within a graph
 * @param name      station name for people, may be empty
 * @param freeway   freeway (route) number the station measures, e.g. 405
 * @param direction direction of travel it measures: N, S, E or W
 * @param latitude  WGS84 latitude in degrees
 * @param longitude WGS84 longitude in degrees
 * @param lanes     number of mainline lanes it covers, at least 1 (the cost function turns a
 *                  station's total flow into flow per lane with it)
 */
public record Detector(
        long vdsId, String name, int freeway, char direction, double latitude, double longitude, int lanes) {

    public Detector {
        Objects.requireNonNull(name, "name");
        if ("NSEW".indexOf(direction) < 0) {
            throw new IllegalArgumentException(
                    "detector " + vdsId + ": direction must be one of N, S, E, W, got '" + direction + "'");
        }
        if (!(latitude >= -90 && latitude <= 90) || !(longitude >= -180 && longitude <= 180)) {
            throw new IllegalArgumentException("detector " + vdsId + ": latitude must be in [-90, 90] and "
                    + "longitude in [-180, 180], got " + latitude + ", " + longitude);
        }
        if (lanes < 1) {
            throw new IllegalArgumentException("detector " + vdsId + ": lanes must be >= 1, got " + lanes);
        }
    }

    /**
     * Hashes the VDS id alone. Route searches keep several hash maps keyed by detector and hash
     * a detector several times per step; the default record hash would combine all seven
     * fields each time. Consistent with {@link #equals}: equal detectors have equal ids.
     */
    @Override
    public int hashCode() {
        return Long.hashCode(vdsId);
    }

    /** The detector of one of the study's six stations. */
    public static Detector of(StudyStation station) {
        return new Detector(
                station.vdsId(),
                station.displayName(),
                station.freeway(),
                station.direction(),
                station.latitude(),
                station.longitude(),
                station.lanes());
    }
}
