package org.itsrt.readings;

import java.util.Arrays;
import java.util.Optional;

/**
 * The six PeMS District 7 (Los Angeles) detector stations of the study, March 2018.
 * Coordinates as published by the study (its Table 1); VDS ids and lane counts from the
 * stations' PeMS report exports.
 */
public enum StudyStation {
    EL_SEGUNDO(764598, "El Segundo", 405, 'S', 33.928621, -118.368522, 5),
    WILMINGTON(717731, "Wilmington", 405, 'S', 33.825757, -118.24005, 4),
    LONG_BEACH(774445, "Long Beach", 405, 'S', 33.824173, -118.207084, 3),
    ATHENS(774614, "Athens", 105, 'E', 33.928478, -118.284031, 3),
    LYNWOOD_GARDENS(718155, "Lynwood Gardens", 105, 'E', 33.914156, -118.184451, 3),
    EAST_RANCHO_DOMINGUEZ(716847, "East Rancho Dominguez", 710, 'S', 33.877433, -118.192776, 4);

    private final long vdsId;
    private final String displayName;
    private final int freeway;
    private final char direction;
    private final double latitude;
    private final double longitude;
    private final int lanes;

    StudyStation(
            long vdsId, String displayName, int freeway, char direction, double latitude, double longitude, int lanes) {
        this.vdsId = vdsId;
        this.displayName = displayName;
        this.freeway = freeway;
        this.direction = direction;
        this.latitude = latitude;
        this.longitude = longitude;
        this.lanes = lanes;
    }

    public long vdsId() {
        return vdsId;
    }

    public String displayName() {
        return displayName;
    }

    public int freeway() {
        return freeway;
    }

    public char direction() {
        return direction;
    }

    public double latitude() {
        return latitude;
    }

    public double longitude() {
        return longitude;
    }

    public int lanes() {
        return lanes;
    }

    public static Optional<StudyStation> byVdsId(long vdsId) {
        return Arrays.stream(values()).filter(s -> s.vdsId == vdsId).findFirst();
    }
}
