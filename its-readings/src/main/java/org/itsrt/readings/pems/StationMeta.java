package org.itsrt.readings.pems;

import java.util.Objects;
import org.itsrt.readings.Reading;

/**
 * One row of a PeMS clearinghouse station metadata file ({@code dNN_text_meta_YYYY_MM_DD.txt}):
 * where a vehicle detector station (VDS) sits on the freeway network. Build one field by field
 * with {@link #builder()}.
 *
 * @param id            VDS id, the key every other PeMS file uses for the station
 * @param freeway       freeway (route) number, e.g. 405
 * @param direction     direction of travel: N, S, E or W
 * @param district      Caltrans district, 1..12
 * @param county        county FIPS code, may be empty
 * @param city          city code, may be empty
 * @param statePostmile postmile as signposted (may carry a letter prefix such as "R12.3")
 * @param absPostmile   absolute postmile (miles from the route's start), the order along a freeway
 * @param latitude      WGS84 latitude in degrees
 * @param longitude     WGS84 longitude in degrees
 * @param lengthMiles   length of road the station represents (miles), NaN when not given
 * @param type          lane type: ML mainline, HV HOV, OR on-ramp, FR off-ramp, FF connector, ...
 * @param lanes         number of lanes
 * @param name          station name, may be empty
 * @param syntheticSource the label {@code synthetic:seed=N} of a generated station (its
 *                      {@code User_ID_1}), which the importer gives the station's readings;
 *                      empty for a PeMS station
 */
public record StationMeta(
        long id,
        int freeway,
        char direction,
        int district,
        String county,
        String city,
        String statePostmile,
        double absPostmile,
        double latitude,
        double longitude,
        double lengthMiles,
        String type,
        int lanes,
        String name,
        String syntheticSource) {

    public StationMeta {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(syntheticSource, "syntheticSource");
        if ("NSEW".indexOf(direction) < 0) {
            throw new IllegalArgumentException("direction must be one of N, S, E, W: " + direction);
        }
        if (!syntheticSource.isEmpty()
                && !(Reading.isKnownSource(syntheticSource) && syntheticSource.startsWith("synthetic"))) {
            throw new IllegalArgumentException(
                    "syntheticSource must be empty or a label like synthetic:seed=42: " + syntheticSource);
        }
    }

    /** A PeMS station: no synthetic label. */
    public StationMeta(
            long id,
            int freeway,
            char direction,
            int district,
            String county,
            String city,
            String statePostmile,
            double absPostmile,
            double latitude,
            double longitude,
            double lengthMiles,
            String type,
            int lanes,
            String name) {
        this(
                id,
                freeway,
                direction,
                district,
                county,
                city,
                statePostmile,
                absPostmile,
                latitude,
                longitude,
                lengthMiles,
                type,
                lanes,
                name,
                "");
    }

    /** True for a generated station, whose readings the importer labels synthetic. */
    public boolean isSynthetic() {
        return !syntheticSource.isEmpty();
    }

    /** True for mainline stations, the ones a freeway chain is built from. */
    public boolean isMainline() {
        return "ML".equals(type);
    }

    /** A station field by field; county, city, name and synthetic label empty and length NaN unless set. */
    public static Builder builder() {
        return new Builder();
    }

    /** Collects a station's fields; {@link #build()} checks them. */
    public static final class Builder {
        private long id;
        private int freeway;
        private char direction;
        private int district;
        private String county = "";
        private String city = "";
        private String statePostmile = "";
        private double absPostmile = Double.NaN;
        private double latitude = Double.NaN;
        private double longitude = Double.NaN;
        private double lengthMiles = Double.NaN;
        private String type;
        private int lanes;
        private String name = "";
        private String syntheticSource = "";

        private Builder() {}

        public Builder id(long vdsId) {
            this.id = vdsId;
            return this;
        }

        /** Freeway number and direction of travel. */
        public Builder carriageway(int freewayNumber, char directionOfTravel) {
            this.freeway = freewayNumber;
            this.direction = directionOfTravel;
            return this;
        }

        public Builder district(int caltransDistrict) {
            this.district = caltransDistrict;
            return this;
        }

        public Builder county(String fipsCode) {
            this.county = fipsCode;
            return this;
        }

        public Builder city(String code) {
            this.city = code;
            return this;
        }

        /** The postmile as signposted and the absolute postmile. */
        public Builder postmiles(String state, double absolute) {
            this.statePostmile = state;
            this.absPostmile = absolute;
            return this;
        }

        public Builder position(double latitudeDegrees, double longitudeDegrees) {
            this.latitude = latitudeDegrees;
            this.longitude = longitudeDegrees;
            return this;
        }

        public Builder lengthMiles(double miles) {
            this.lengthMiles = miles;
            return this;
        }

        /** Lane type (ML, HV, ...) and number of lanes. */
        public Builder lanes(String laneType, int count) {
            this.type = laneType;
            this.lanes = count;
            return this;
        }

        public Builder name(String stationName) {
            this.name = stationName;
            return this;
        }

        public Builder syntheticSource(String label) {
            this.syntheticSource = label;
            return this;
        }

        public StationMeta build() {
            return new StationMeta(
                    id,
                    freeway,
                    direction,
                    district,
                    county,
                    city,
                    statePostmile,
                    absPostmile,
                    latitude,
                    longitude,
                    lengthMiles,
                    type,
                    lanes,
                    name,
                    syntheticSource);
        }
    }
}
