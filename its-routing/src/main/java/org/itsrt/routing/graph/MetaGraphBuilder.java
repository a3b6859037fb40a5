package org.itsrt.routing.graph;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.itsrt.readings.BadInputException;
import org.itsrt.readings.pems.StationMeta;
import org.itsrt.readings.pems.StationMetaReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a {@link DetectorGraph} from PeMS station metadata.
 *
 * <ol>
 *   <li><b>Stations.</b> With {@link Options#mainlineOnly()} (the default) only mainline
 *       ({@code ML}) stations are kept: ramps, HOV lanes and connectors do not form the freeway
 *       chain and their readings describe other traffic; without it, every station joins the
 *       chain of its freeway and direction. Rows that cannot be placed (no finite
 *       coordinates or absolute postmile, or no lanes) are skipped with a warning, as real
 *       metadata files contain a few.</li>
 *   <li><b>Freeway chains.</b> Stations are grouped by freeway and direction, ordered by absolute
 *       postmile in the direction of travel (postmiles grow northward and eastward, so N and E run
 *       from low to high and S and W from high to low; equal postmiles by VDS id) and each joined
 *       to the next by a {@link RoadSegment.Kind#FREEWAY} segment. Its length is the postmile
 *       difference in meters, raised to the great-circle distance where that is longer: postmiles
 *       are rounded and occasionally realigned, coordinates are approximate, and a segment must
 *       never be shorter than the straight line (see {@link DetectorGraph}).</li>
 *   <li><b>Interchanges.</b> For every station and every freeway-direction of a <em>different</em>
 *       freeway, the nearest station of that freeway-direction within
 *       {@link Options#interchangeRadiusMeters()} (great-circle) is linked to it by two
 *       {@link RoadSegment.Kind#INTERCHANGE} segments, one each way, of the great-circle length.
 *       The metadata has no connector geometry, so "near each other" stands for "connected"; one
 *       link per freeway-direction keeps a station from fanning out to a whole stretch of the
 *       other freeway, and linking both ways lets traffic cross in either direction, as freeway
 *       interchanges mostly do. The two directions of one freeway are never linked (no U-turns).</li>
 * </ol>
 *
 * <p>Edge cases: co-located stations of one freeway-direction stay separate detectors (each has
 * its own readings), chained by a segment of their great-circle distance, zero when the
 * coordinates coincide. A freeway-direction with a single station has no freeway segments; it is
 * reachable only through interchanges, or not at all, which routing reports as unreachable.
 */
public final class MetaGraphBuilder {

    private static final Logger LOG = LoggerFactory.getLogger(MetaGraphBuilder.class);
    private static final double METERS_PER_MILE = 1609.344;
    private static final int SKIPPED_IDS_LOGGED = 10;

    /**
     * How to build.
     *
     * @param mainlineOnly            keep only mainline ({@code ML}) stations
     * @param interchangeRadiusMeters how close (great-circle) stations of two freeways must be to
     *                                be linked; 0 links only co-located stations
     */
    public record Options(boolean mainlineOnly, double interchangeRadiusMeters) {

        /**
         * The default radius. Urban PeMS mainline stations are typically half a mile (800 m) apart,
         * so where two freeways cross each has a station within about 400-800 m of the crossing;
         * 1 km finds them without reaching to the next interchange.
         */
        public static final double DEFAULT_INTERCHANGE_RADIUS_METERS = 1_000;

        public Options {
            if (!(interchangeRadiusMeters >= 0) || Double.isInfinite(interchangeRadiusMeters)) {
                throw new IllegalArgumentException(
                        "interchangeRadiusMeters must be finite and >= 0, got " + interchangeRadiusMeters);
            }
        }

        /** Mainline stations only, 1 km interchange radius. */
        public static Options defaults() {
            return new Options(true, DEFAULT_INTERCHANGE_RADIUS_METERS);
        }

        public Options withMainlineOnly(boolean mainlineOnly) {
            return new Options(mainlineOnly, interchangeRadiusMeters);
        }

        public Options withInterchangeRadiusMeters(double radiusMeters) {
            return new Options(mainlineOnly, radiusMeters);
        }
    }

    /** One freeway in one direction of travel: the unit a chain is built along. */
    private record Carriageway(int freeway, char direction) implements Comparable<Carriageway> {

        private static final Comparator<Carriageway> ORDER =
                Comparator.comparingInt(Carriageway::freeway).thenComparing(Carriageway::direction);

        static Carriageway of(StationMeta station) {
            return new Carriageway(station.freeway(), station.direction());
        }

        /** Postmiles grow northward and eastward. */
        boolean postmilesGrowInTravelDirection() {
            return direction == 'N' || direction == 'E';
        }

        @Override
        public int compareTo(Carriageway other) {
            return ORDER.compare(this, other);
        }
    }

    private final Options options;

    public MetaGraphBuilder(Options options) {
        this.options = options;
    }

    /** Builds with {@link Options#defaults()}. */
    public static DetectorGraph buildDefault(Collection<StationMeta> stations) {
        return new MetaGraphBuilder(Options.defaults()).build(stations);
    }

    /**
     * Reads a clearinghouse station metadata file and builds its graph.
     *
     * @throws BadInputException naming the file, the station and the column, for a station whose
     *     {@code Length} is given but not a positive number of miles (an empty one means unknown)
     */
    public DetectorGraph build(Path metaFile) throws IOException {
        Collection<StationMeta> stations = StationMetaReader.read(metaFile).values();
        for (StationMeta station : stations) {
            double miles = station.lengthMiles();
            // NaN is how the reader gives an empty field; anything given must be a real length.
            if (!Double.isNaN(miles) && !(miles > 0 && Double.isFinite(miles))) {
                throw new BadInputException(
                        metaFile.toString(),
                        "station " + station.id(),
                        "'Length'",
                        "expected a positive length in miles, or an empty field when unknown; found " + miles);
            }
        }
        return build(stations);
    }

    /**
     * Builds the graph of the given stations.
     *
     * @throws IllegalArgumentException if two kept stations share a VDS id
     */
    public DetectorGraph build(Collection<StationMeta> stations) {
        Map<Carriageway, List<StationMeta>> chains = chainsInTravelOrder(usableStations(stations));

        DetectorGraph.Builder builder = DetectorGraph.builder();
        chains.values().forEach(chain -> chain.forEach(station -> builder.addDetector(detectorOf(station))));
        chains.forEach((carriageway, chain) -> addFreewaySegments(builder, carriageway, chain));
        addInterchanges(builder, chains);
        DetectorGraph graph = builder.build();
        warnOfStationsOffEveryFreeway(graph);
        return graph;
    }

    /**
     * A station with no segment at all (alone on its freeway and direction, near no other
     * freeway) can be neither reached nor left; real metadata has a few, so it is a warning here
     * and an error only where a whole district must be connected ({@link DistrictGraph}).
     */
    private static void warnOfStationsOffEveryFreeway(DetectorGraph graph) {
        List<Long> isolated = graph.detectors().stream()
                .filter(detector -> graph.graph().degreeOf(detector) == 0)
                .map(Detector::vdsId)
                .toList();
        if (!isolated.isEmpty() && graph.detectors().size() > 1) {
            LOG.warn(
                    "{} station(s) off every freeway (alone on their freeway and direction, near no other freeway), "
                            + "which routing can neither reach nor leave, e.g. VDS {}",
                    isolated.size(),
                    isolated.subList(0, Math.min(SKIPPED_IDS_LOGGED, isolated.size())));
        }
    }

    private List<StationMeta> usableStations(Collection<StationMeta> stations) {
        List<StationMeta> usable = new ArrayList<>();
        List<Long> unplaceable = new ArrayList<>();
        for (StationMeta station : stations) {
            if (options.mainlineOnly() && !station.isMainline()) {
                continue;
            }
            if (isPlaceable(station)) {
                usable.add(station);
            } else {
                unplaceable.add(station.id());
            }
        }
        if (!unplaceable.isEmpty()) {
            LOG.warn(
                    "skipped {} station(s) without finite coordinates, absolute postmile or lanes, e.g. VDS {}",
                    unplaceable.size(),
                    unplaceable.subList(0, Math.min(SKIPPED_IDS_LOGGED, unplaceable.size())));
        }
        return usable;
    }

    private static boolean isPlaceable(StationMeta station) {
        return station.latitude() >= -90
                && station.latitude() <= 90
                && station.longitude() >= -180
                && station.longitude() <= 180
                && Double.isFinite(station.absPostmile())
                && station.lanes() >= 1;
    }

    /** Stations grouped by carriageway (in a fixed order), each group in travel order. */
    private static Map<Carriageway, List<StationMeta>> chainsInTravelOrder(List<StationMeta> stations) {
        Map<Carriageway, List<StationMeta>> chains = new TreeMap<>();
        for (StationMeta station : stations) {
            chains.computeIfAbsent(Carriageway.of(station), key -> new ArrayList<>())
                    .add(station);
        }
        chains.forEach((carriageway, chain) -> {
            Comparator<StationMeta> byPostmile = Comparator.comparingDouble(StationMeta::absPostmile);
            if (!carriageway.postmilesGrowInTravelDirection()) {
                byPostmile = byPostmile.reversed();
            }
            chain.sort(byPostmile.thenComparingLong(StationMeta::id));
        });
        return chains;
    }

    private static Detector detectorOf(StationMeta station) {
        return new Detector(
                station.id(),
                station.name(),
                station.freeway(),
                station.direction(),
                station.latitude(),
                station.longitude(),
                station.lanes());
    }

    private static void addFreewaySegments(
            DetectorGraph.Builder builder, Carriageway carriageway, List<StationMeta> chain) {
        for (int i = 1; i < chain.size(); i++) {
            StationMeta from = chain.get(i - 1);
            StationMeta to = chain.get(i);
            double postmileMeters = Math.abs(to.absPostmile() - from.absPostmile()) * METERS_PER_MILE;
            double length = Math.max(postmileMeters, greatCircle(from, to));
            builder.addSegment(from.id(), to.id(), length, RoadSegment.Kind.FREEWAY, carriageway.freeway());
        }
    }

    private void addInterchanges(DetectorGraph.Builder builder, Map<Carriageway, List<StationMeta>> chains) {
        double radius = options.interchangeRadiusMeters();
        Map<Carriageway, LatitudeIndex> indexes = new TreeMap<>();
        chains.forEach((carriageway, chain) -> indexes.put(carriageway, new LatitudeIndex(chain)));

        for (List<StationMeta> chain : chains.values()) {
            for (StationMeta station : chain) {
                indexes.forEach((carriageway, index) -> {
                    if (carriageway.freeway() == station.freeway()) {
                        return;
                    }
                    StationMeta nearest = index.nearestWithin(station, radius);
                    if (nearest != null) {
                        addInterchange(builder, station, nearest);
                        addInterchange(builder, nearest, station);
                    }
                });
            }
        }
    }

    private static void addInterchange(DetectorGraph.Builder builder, StationMeta from, StationMeta to) {
        // The nearest-station search runs from both ends, so most links are found twice.
        if (!builder.hasSegment(from.id(), to.id())) {
            builder.addSegment(from.id(), to.id(), greatCircle(from, to), RoadSegment.Kind.INTERCHANGE, to.freeway());
        }
    }

    private static double greatCircle(StationMeta a, StationMeta b) {
        return GreatCircle.meters(a.latitude(), a.longitude(), b.latitude(), b.longitude());
    }

    /**
     * The stations of one carriageway sorted by latitude. A great-circle distance is at least the
     * meridian distance {@code R * |delta latitude|}, so only stations inside that latitude band
     * can be within a radius; this keeps interchange search near-linear on large networks.
     */
    private static final class LatitudeIndex {

        private final StationMeta[] byLatitude;
        private final double[] latitudes;

        LatitudeIndex(List<StationMeta> stations) {
            byLatitude = stations.stream()
                    .sorted(Comparator.comparingDouble(StationMeta::latitude).thenComparingLong(StationMeta::id))
                    .toArray(StationMeta[]::new);
            latitudes =
                    Arrays.stream(byLatitude).mapToDouble(StationMeta::latitude).toArray();
        }

        /** The nearest station within the radius (ties: lowest latitude, then VDS id), or null. */
        StationMeta nearestWithin(StationMeta origin, double radiusMeters) {
            // A hair wider than the exact band, so that rounding never drops a station that lies
            // right at the radius due north or south.
            double band = Math.toDegrees(radiusMeters / GreatCircle.EARTH_MEAN_RADIUS_M) * (1 + 1e-9);
            StationMeta nearest = null;
            double nearestDistance = Double.POSITIVE_INFINITY;
            for (int i = firstAtOrAbove(origin.latitude() - band);
                    i < byLatitude.length && latitudes[i] <= origin.latitude() + band;
                    i++) {
                double distance = greatCircle(origin, byLatitude[i]);
                if (distance <= radiusMeters && distance < nearestDistance) {
                    nearest = byLatitude[i];
                    nearestDistance = distance;
                }
            }
            return nearest;
        }

        private int firstAtOrAbove(double latitude) {
            int position = Arrays.binarySearch(latitudes, latitude);
            if (position < 0) {
                return -position - 1;
            }
            while (position > 0 && latitudes[position - 1] == latitude) {
                position--;
            }
            return position;
        }
    }
}
