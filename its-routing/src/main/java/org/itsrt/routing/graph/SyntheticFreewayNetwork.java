package org.itsrt.routing.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.itsrt.readings.pems.StationMeta;

/**
 * A seeded generator of a large freeway network in the shape of PeMS station metadata, for
 * benchmarks and tests that need more than the study's six stations. Everything it writes is
 * synthetic: VDS ids from {@value #FIRST_VDS_ID}, names starting with "Synthetic".
 *
 * <p>The network is a grid of gently curving freeways across a square region centred on Los
 * Angeles: some run south-north, some west-east, each spans the whole region, so every
 * south-north freeway crosses every west-east one. Each freeway has both directions of travel as
 * separate carriageways a few meters either side of its centreline, with mainline ({@code ML})
 * stations about every {@link Spec#stationSpacingMeters()} (jittered, independently per direction)
 * and some HOV ({@code HV}) stations beside them. Absolute postmiles are the distance along the
 * centreline from the freeway's south or west end plus a random start, in miles rounded to three
 * decimals as PeMS prints them, so they grow northward and eastward. {@link MetaGraphBuilder}
 * chains the stations and finds the interchanges where freeways cross.
 *
 * <p>Like a real region cut out of a larger network, the far ends of each carriageway lead out of
 * the region, so not every pair of detectors is connected; routing reports those pairs as
 * unreachable.
 */
public final class SyntheticFreewayNetwork {

    /** The first VDS id handed out; ids are consecutive from here. */
    public static final long FIRST_VDS_ID = 900_001;

    private static final double CENTRE_LATITUDE = 34.0;
    private static final double CENTRE_LONGITUDE = -118.2;
    private static final double METERS_PER_MILE = 1609.344;
    private static final double CENTRELINE_STEP_METERS = 50;
    private static final double CARRIAGEWAY_OFFSET_METERS = 15;
    private static final double HOV_SHARE = 0.25;
    private static final int DISTRICT = 7;
    /** How many more stations than asked a district's network is sized for, to trim at the edges. */
    private static final double DISTRICT_SURPLUS = 1.25;

    private static final int[] SOUTH_NORTH_ROUTES = {5, 405, 605, 710, 110, 15, 57, 170, 133, 241};
    private static final int[] WEST_EAST_ROUTES = {10, 60, 91, 105, 210, 118, 134, 22, 90, 2};

    /**
     * What to generate.
     *
     * @param seed                  seed of every random choice: the same spec gives the same rows
     * @param southNorthFreeways    number of freeways running south-north (directions S and N)
     * @param westEastFreeways      number of freeways running west-east (directions W and E)
     * @param regionSizeMeters      side of the square region
     * @param stationSpacingMeters  mean distance between consecutive mainline stations
     */
    public record Spec(
            long seed,
            int southNorthFreeways,
            int westEastFreeways,
            double regionSizeMeters,
            double stationSpacingMeters) {

        public Spec {
            if (southNorthFreeways < 1 || westEastFreeways < 1) {
                throw new IllegalArgumentException("need at least one freeway each way, got " + southNorthFreeways
                        + " south-north and " + westEastFreeways + " west-east");
            }
            if (!(stationSpacingMeters >= 4 * CENTRELINE_STEP_METERS)
                    || !(regionSizeMeters >= 4 * stationSpacingMeters)
                    || Double.isInfinite(regionSizeMeters)) {
                throw new IllegalArgumentException("need stationSpacingMeters >= " + 4 * CENTRELINE_STEP_METERS
                        + " and a finite regionSizeMeters >= 4 station spacings, got "
                        + stationSpacingMeters + " and " + regionSizeMeters);
            }
        }

        /**
         * Six freeways each way across 60 km, a station about every half mile: roughly 2,000
         * mainline detectors and 3,000 segments, the size of an urban Caltrans district.
         */
        public static Spec defaults(long seed) {
            return new Spec(seed, 6, 6, 60_000, 800);
        }

        /**
         * A spec of the default density (a station about every 800 m, freeways about 8 km apart
         * or closer) for a district of {@code mainlineDetectors} mainline stations: as many
         * freeways each way as keep the default's ratio of detectors to freeways (about 55 per
         * squared freeway count), at least three, over a region large enough for a quarter more
         * stations than asked. {@link SyntheticFreewayNetwork#district} trims that surplus from the
         * carriageways' ends, where they run on past the outermost interchanges; this keeps most
         * of a district between interchanges, as in a real urban district.
         */
        public static Spec forDetectors(long seed, int mainlineDetectors) {
            if (mainlineDetectors < 1) {
                throw new IllegalArgumentException("need at least one mainline detector, got " + mainlineDetectors);
            }
            double spacing = 800;
            int freewaysEachWay = Math.max(3, (int) Math.ceil(Math.sqrt(mainlineDetectors / 55.0)));
            // Each freeway has two carriageways spanning 1.1 region sizes, a station per spacing.
            double perRegionMeter = 2.0 * 2 * freewaysEachWay * 1.1 / spacing;
            double size = Math.max(4 * spacing, DISTRICT_SURPLUS * mainlineDetectors / perRegionMeter);
            return new Spec(seed, freewaysEachWay, freewaysEachWay, Math.ceil(size), spacing);
        }

        Spec withRegionSizeMeters(double regionSizeMeters) {
            return new Spec(seed, southNorthFreeways, westEastFreeways, regionSizeMeters, stationSpacingMeters);
        }
    }

    private final Spec spec;
    private final Random random;
    private final List<StationMeta> stations = new ArrayList<>();
    private long nextVdsId = FIRST_VDS_ID;

    private SyntheticFreewayNetwork(Spec spec) {
        this.spec = spec;
        this.random = new Random(spec.seed());
    }

    /** The station metadata rows of the network, mainline and HOV. */
    public static List<StationMeta> stations(Spec spec) {
        SyntheticFreewayNetwork generator = new SyntheticFreewayNetwork(spec);
        generator.generate();
        return List.copyOf(generator.stations);
    }

    /**
     * A district of exactly {@code mainlineDetectors} mainline stations (and the HOV stations
     * beside them): the network of {@link Spec#forDetectors}, its region grown by the shortfall in
     * the rare case it has too few, then trimmed at the carriageways' ends. The surplus (about a
     * fifth) is taken one station at a time from each carriageway in turn, alternately at its
     * upstream and its downstream end, so the carriageways keep similar lengths, their far ends
     * still run on past the outermost interchanges, and every interchange stays. The VDS ids are
     * the network's, so a trimmed district has gaps in its ids.
     */
    public static List<StationMeta> district(long seed, int mainlineDetectors) {
        Spec spec = Spec.forDetectors(seed, mainlineDetectors);
        List<StationMeta> stations = stations(spec);
        long mainline = stations.stream().filter(StationMeta::isMainline).count();
        while (mainline < mainlineDetectors) {
            spec = spec.withRegionSizeMeters(
                    Math.ceil(spec.regionSizeMeters() * 1.01 * mainlineDetectors / Math.max(1, mainline)));
            stations = stations(spec);
            mainline = stations.stream().filter(StationMeta::isMainline).count();
        }
        return trimmedAtCarriagewayEnds(stations, (int) (mainline - mainlineDetectors));
    }

    private static List<StationMeta> trimmedAtCarriagewayEnds(List<StationMeta> stations, int surplus) {
        Map<String, Deque<StationMeta>> carriageways = new TreeMap<>();
        stations.stream()
                .filter(StationMeta::isMainline)
                .sorted(Comparator.comparingDouble(StationMeta::absPostmile).thenComparingLong(StationMeta::id))
                .forEach(station -> carriageways
                        .computeIfAbsent(carriagewayKey(station), key -> new ArrayDeque<>())
                        .addLast(station));
        Set<Long> removed = new HashSet<>();
        Set<String> removedPlaces = new HashSet<>();
        for (int round = 0; removed.size() < surplus; round++) {
            int before = removed.size();
            for (Deque<StationMeta> chain : carriageways.values()) {
                if (removed.size() == surplus) {
                    break;
                }
                if (chain.size() > 1) {
                    StationMeta end = round % 2 == 0 ? chain.pollFirst() : chain.pollLast();
                    removed.add(end.id());
                    removedPlaces.add(placeKey(end));
                }
            }
            if (removed.size() == before) {
                throw new IllegalStateException(
                        "cannot trim " + surplus + " stations: every carriageway is down to one");
            }
        }
        // The HOV stations of a removed mainline station sit at its carriageway and postmile.
        return stations.stream()
                .filter(station -> station.isMainline()
                        ? !removed.contains(station.id())
                        : !removedPlaces.contains(placeKey(station)))
                .toList();
    }

    private static String carriagewayKey(StationMeta station) {
        return String.format(Locale.ROOT, "%05d-%c", station.freeway(), station.direction());
    }

    private static String placeKey(StationMeta station) {
        return carriagewayKey(station) + "@" + station.statePostmile();
    }

    /** The detector graph of the network, built by {@link MetaGraphBuilder} with its defaults. */
    public static DetectorGraph graph(Spec spec) {
        return MetaGraphBuilder.buildDefault(stations(spec));
    }

    private void generate() {
        for (int i = 0; i < spec.southNorthFreeways(); i++) {
            addFreeway(route(SOUTH_NORTH_ROUTES, 1000, i), true, i, spec.southNorthFreeways());
        }
        for (int i = 0; i < spec.westEastFreeways(); i++) {
            addFreeway(route(WEST_EAST_ROUTES, 2000, i), false, i, spec.westEastFreeways());
        }
    }

    /** Real route numbers while they last, then numbers from a range no California route uses. */
    private static int route(int[] routes, int unusedRangeStart, int i) {
        return i < routes.length ? routes[i] : unusedRangeStart + i;
    }

    private void addFreeway(int freeway, boolean southNorth, int position, int count) {
        Centreline centreline = centreline(southNorth, position, count);
        double firstPostmile = Math.floor(random.nextDouble() * 30_000) / 1000;
        int baseLanes = 3 + random.nextInt(3);
        char increasing = southNorth ? 'N' : 'E';
        char decreasing = southNorth ? 'S' : 'W';
        for (char direction : new char[] {increasing, decreasing}) {
            double arc = random.nextDouble() * spec.stationSpacingMeters();
            while (arc < centreline.length()) {
                double jitter = (random.nextDouble() - 0.5) * 0.3 * spec.stationSpacingMeters();
                double at = Math.max(0, Math.min(centreline.length(), arc + jitter));
                // Vehicles keep right: the increasing carriageway lies right of the centreline's
                // own direction, the decreasing one left of it.
                double side = direction == increasing ? 1 : -1;
                double[] eastNorth = centreline.pointRightOf(at, side * CARRIAGEWAY_OFFSET_METERS);
                double postmile = Math.round((firstPostmile + at / METERS_PER_MILE) * 1000) / 1000.0;
                int lanes = Math.max(2, baseLanes + random.nextInt(3) - 1);
                addStation(freeway, direction, postmile, eastNorth, "ML", lanes);
                if (random.nextDouble() < HOV_SHARE) {
                    addStation(freeway, direction, postmile, eastNorth, "HV", 1);
                }
                arc += spec.stationSpacingMeters();
            }
        }
    }

    /**
     * The centreline of the position-th of count parallel freeways, in local meters, from its
     * south or west end. It spans a little more than the region, so that crossing freeways always
     * meet inside it, and wanders by a gentle tilt and a long sine wave.
     */
    private Centreline centreline(boolean southNorth, int position, int count) {
        double size = spec.regionSizeMeters();
        double corridorWidth = 0.8 * size / count;
        double across0 =
                -0.4 * size + (position + 0.5) * corridorWidth + (random.nextDouble() - 0.5) * 0.2 * corridorWidth;
        double tilt = (random.nextDouble() - 0.5) * 0.1;
        double amplitude = (0.005 + 0.02 * random.nextDouble()) * size;
        double wavelength = (0.25 + 0.5 * random.nextDouble()) * size;
        double phase = random.nextDouble() * 2 * Math.PI;

        int points = (int) Math.ceil(1.1 * size / CENTRELINE_STEP_METERS) + 1;
        double[] across = new double[points];
        double[] along = new double[points];
        for (int i = 0; i < points; i++) {
            along[i] = -0.55 * size + i * CENTRELINE_STEP_METERS;
            across[i] = across0 + tilt * along[i] + amplitude * Math.sin(2 * Math.PI * along[i] / wavelength + phase);
        }
        return southNorth ? new Centreline(across, along) : new Centreline(along, across);
    }

    /**
     * @param eastNorth local position in meters east and north of the region's centre
     */
    private void addStation(int freeway, char direction, double postmile, double[] eastNorth, String type, int lanes) {
        double latitude = CENTRE_LATITUDE + Math.toDegrees(eastNorth[1] / GreatCircle.EARTH_MEAN_RADIUS_M);
        double longitude = CENTRE_LONGITUDE
                + Math.toDegrees(
                        eastNorth[0] / (GreatCircle.EARTH_MEAN_RADIUS_M * Math.cos(Math.toRadians(CENTRE_LATITUDE))));
        String postmileText = String.format(Locale.ROOT, "%.3f", postmile);
        String name = String.format(Locale.ROOT, "Synthetic %d-%c %s PM %s", freeway, direction, type, postmileText);
        stations.add(StationMeta.builder()
                .id(nextVdsId++)
                .carriageway(freeway, direction)
                .district(DISTRICT)
                .postmiles(postmileText, postmile)
                .position(latitude, longitude)
                .lanes(type, lanes)
                .name(name)
                .build());
    }

    /** A polyline in local meters east and north, parametrised by arc length from its first point. */
    private static final class Centreline {

        private final double[] east;
        private final double[] north;
        private final double[] arcLength;

        Centreline(double[] east, double[] north) {
            this.east = east;
            this.north = north;
            this.arcLength = new double[east.length];
            for (int i = 1; i < east.length; i++) {
                arcLength[i] = arcLength[i - 1] + Math.hypot(east[i] - east[i - 1], north[i] - north[i - 1]);
            }
        }

        double length() {
            return arcLength[arcLength.length - 1];
        }

        /**
         * The point at this arc length, moved sideways by offset meters to the right of the
         * direction of increasing arc length (negative: to the left), as {east, north}.
         */
        double[] pointRightOf(double arc, double offset) {
            int found = Arrays.binarySearch(arcLength, arc);
            int i = Math.min(arcLength.length - 2, found >= 0 ? found : -found - 2);
            double fraction = (arc - arcLength[i]) / (arcLength[i + 1] - arcLength[i]);
            double dEast = east[i + 1] - east[i];
            double dNorth = north[i + 1] - north[i];
            double norm = Math.hypot(dEast, dNorth);
            // The right-hand normal of the direction (dEast, dNorth) is (dNorth, -dEast).
            return new double[] {
                east[i] + fraction * dEast + offset * dNorth / norm,
                north[i] + fraction * dNorth - offset * dEast / norm
            };
        }
    }
}
