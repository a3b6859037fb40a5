package org.itsrt.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.readings.Reading;
import org.itsrt.readings.pems.StationMeta;
import org.itsrt.routing.DetectorConditions;
import org.itsrt.routing.Route;
import org.itsrt.routing.Router;
import org.itsrt.routing.TravelTimeCost;
import org.itsrt.routing.district.DistrictGenerator;
import org.itsrt.routing.district.StudyProfiles;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.StudyNetwork;
import org.itsrt.routing.graph.SyntheticFreewayNetwork;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The router's searches on the same costs: the contraction hierarchy ({@link Router#route}, the
 * router's own), the bidirectional and one-directional landmark A* before it ({@link
 * Router#routeByBidirectionalLandmarkAStar}, {@link Router#routeByLandmarkAStar}), Dijkstra and
 * the great-circle A* before those (both JGraphT), on the six-station study graph, a
 * generated district of about 2,000 detectors and one of about 4,800, the size of a large
 * Caltrans district. Each invocation answers one origin-destination query; the queries cycle
 * through a fixed, seeded set of reachable pairs so every search answers exactly the same
 * questions under the same traffic state. The study graph is one-way freeways with only a handful
 * of reachable pairs, so its numbers are mostly the per-call overhead of a search.
 *
 * <p>The 4,800 district runs under six traffic states ({@link Traffic}), since how much a
 * free-flow lower bound prunes depends on how far traffic is from free flow and where the slow
 * segments lie: three drawn at random per detector (congested, incidents, free flow) and three
 * read from the district generator at a weekday's morning peak, midday and evening peak, where
 * congestion follows carriageways and the hours of the study stations. Settled detectors
 * per query are not a time and are counted by {@link RoutingEffort}; allocation per query comes
 * from JMH's {@code -prof gc} (gc.alloc.rate.norm). The hierarchy pays for traffic on updates,
 * not queries, so the updates are measured too ({@link LargeDistrictUpdates}). docs/routing.md has
 * the command and the table.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RoutingBench {

    /** Queries per set: enough that caches do not learn one path, few enough to set up fast. */
    static final int QUERIES = 256;

    static final long SEED = 20180301L;

    /**
     * Ten freeways each way over 86 km, a station about every half mile: about 4,800 mainline
     * detectors and 8,000 segments.
     */
    static final SyntheticFreewayNetwork.Spec LARGE_DISTRICT =
            new SyntheticFreewayNetwork.Spec(SEED, 10, 10, 86_000, 800);

    /**
     * The weekday the realistic states are read from: a Thursday, the first day {@code ./its
     * generate} writes by default.
     */
    static final LocalDate PEAK_DAY = LocalDate.of(2018, 3, 1);

    /** The traffic a query set is answered under. */
    public enum Traffic {
        /** Every detector slowed at random: 15-70 mph, 100-1,500 veh/5 min; far from free flow. */
        CONGESTED(null),
        /** One detector in ten jammed (5-30 mph, 1,000-1,500 veh/5 min), the rest flowing. */
        INCIDENTS(null),
        /** No conditions known: every segment at free flow, as at night or before any reading. */
        FREE_FLOW(null),
        /** The district generator's readings of every detector at 08:00 on {@link #PEAK_DAY}. */
        AM_PEAK(LocalTime.of(8, 0)),
        /** As {@link #AM_PEAK}, at 12:00. */
        MIDDAY(LocalTime.of(12, 0)),
        /** As {@link #AM_PEAK}, at 17:30. */
        PM_PEAK(LocalTime.of(17, 30));

        /** Pacific wall time of the generated readings, or null for a state drawn at random. */
        private final LocalTime readingsAt;

        Traffic(LocalTime readingsAt) {
            this.readingsAt = readingsAt;
        }

        /**
         * Sets every detector's conditions. A generated state takes each detector's speed and flow
         * from {@link DistrictGenerator#readingsAt}: congestion where the generator puts it, along a
         * carriageway whose study station is slow at that time and where flow nears capacity,
         * rather than detector by detector at random. The reading's flow stands for the predicted
         * flow. {@code stations} are the network's, for the generator.
         */
        void apply(Router router, Random random, Supplier<List<StationMeta>> stations) {
            draw(router, random, stations, Duration.ZERO).forEach(router::update);
        }

        /**
         * Conditions per detector (VDS id) in this state: drawn at random, or generated at the
         * state's time plus {@code later} (the next five minutes' readings, for a stream of
         * updates). Empty for {@link #FREE_FLOW}, where nothing is known.
         */
        Map<Long, DetectorConditions> draw(
                Router router, Random random, Supplier<List<StationMeta>> stations, Duration later) {
            Map<Long, DetectorConditions> conditions = new LinkedHashMap<>();
            if (readingsAt != null) {
                for (Reading reading : generatedReadings(
                        stations.get(), PEAK_DAY.atTime(readingsAt).plus(later))) {
                    conditions.put(reading.stationId(), DetectorConditions.of(reading.speed(), reading.flow()));
                }
                return conditions;
            }
            for (Detector detector : router.network().detectors()) {
                switch (this) {
                    case CONGESTED ->
                        conditions.put(
                                detector.vdsId(),
                                DetectorConditions.of(15 + 55 * random.nextDouble(), 100 + 1400 * random.nextDouble()));
                    case INCIDENTS ->
                        conditions.put(
                                detector.vdsId(),
                                random.nextDouble() < 0.1
                                        ? DetectorConditions.of(
                                                5 + 25 * random.nextDouble(), 1000 + 500 * random.nextDouble())
                                        : DetectorConditions.of(
                                                55 + 15 * random.nextDouble(), 100 + 600 * random.nextDouble()));
                    default -> {}
                }
            }
            return conditions;
        }

        /** The generator's readings, with the study stations' shapes from the committed sample table. */
        private static List<Reading> generatedReadings(List<StationMeta> stations, LocalDateTime wallTime) {
            try {
                StudyProfiles profiles =
                        StudyProfiles.from(ProjectPaths.locate().sampleTable(), ProjectPaths.SAMPLE_TABLE);
                return DistrictGenerator.over(SEED, stations, profiles).readingsAt(wallTime);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A router over one graph, under one traffic state, and a fixed set of reachable queries. */
    abstract static class Queries {
        Router router;
        long[] from;
        long[] to;
        int next;

        abstract DetectorGraph graph();

        /** The stations the graph is built from, for traffic generated over them. */
        List<StationMeta> stations() {
            throw new UnsupportedOperationException("generated traffic needs the stations of the graph");
        }

        Traffic traffic() {
            return Traffic.CONGESTED;
        }

        Router router(DetectorGraph graph) {
            return Router.withDefaults(graph);
        }

        @Setup(Level.Trial)
        public void setUp() {
            DetectorGraph graph = graph();
            router = router(graph);
            Random random = new Random(SEED);
            List<Detector> detectors = graph.detectors();
            // Congest the network unevenly so the costs, not only the lengths, decide the routes.
            traffic().apply(router, random, this::stations);
            List<long[]> pairs = new ArrayList<>();
            int attempts = 0;
            while (pairs.size() < QUERIES && attempts++ < 100 * QUERIES) {
                long a = detectors.get(random.nextInt(detectors.size())).vdsId();
                long b = detectors.get(random.nextInt(detectors.size())).vdsId();
                // Unreachable pairs end early in both algorithms and would flatter neither.
                if (a != b && router.routeByDijkstra(a, b).isReachable()) {
                    pairs.add(new long[] {a, b});
                }
            }
            if (pairs.isEmpty()) {
                throw new IllegalStateException("the graph has no reachable pair of detectors");
            }
            from = pairs.stream().mapToLong(p -> p[0]).toArray();
            to = pairs.stream().mapToLong(p -> p[1]).toArray();
        }

        int nextQuery() {
            int i = next;
            next = (next + 1) % from.length;
            return i;
        }
    }

    /** The study's six stations on the 405, 105 and 710. */
    @State(Scope.Thread)
    public static class StudyGraph extends Queries {
        @Override
        DetectorGraph graph() {
            return StudyNetwork.build();
        }
    }

    /** A generated district: twelve freeways, about 2,000 detectors and 3,000 segments. */
    @State(Scope.Thread)
    public static class DistrictGraph extends Queries {
        @Override
        DetectorGraph graph() {
            return SyntheticFreewayNetwork.graph(SyntheticFreewayNetwork.Spec.defaults(SEED));
        }
    }

    /** Queries on the generated district of twenty freeways, about 4,800 detectors. */
    abstract static class LargeDistrictQueries extends Queries {
        @Override
        DetectorGraph graph() {
            return SyntheticFreewayNetwork.graph(LARGE_DISTRICT);
        }

        @Override
        List<StationMeta> stations() {
            return SyntheticFreewayNetwork.stations(LARGE_DISTRICT);
        }
    }

    /** A generated district of twenty freeways, about 4,800 detectors, under each traffic state. */
    @State(Scope.Thread)
    public static class LargeDistrictGraph extends LargeDistrictQueries {
        @Param({"CONGESTED", "INCIDENTS", "FREE_FLOW", "AM_PEAK", "MIDDAY", "PM_PEAK"})
        public Traffic traffic;

        /** Landmarks of the router's landmark A*: the router's default unless set (-p landmarks=16). */
        @Param({"0"})
        public int landmarks;

        @Override
        Traffic traffic() {
            return traffic;
        }

        @Override
        Router router(DetectorGraph graph) {
            return landmarks == 0
                    ? Router.withDefaults(graph)
                    : new Router(graph, TravelTimeCost.withDefaults(), landmarks);
        }
    }

    /**
     * The 4,800 district under one traffic state and a stream of updates to it: each update gives
     * one detector its next reading, alternately its reading of the next five minutes (a generated
     * state) or a second draw from the same distribution (a random state) and its reading in the
     * state, so every update changes a cost, as a new prediction does. Free flow has no readings
     * to alternate and is left out.
     */
    @State(Scope.Thread)
    public static class LargeDistrictUpdates extends LargeDistrictQueries {
        @Param({"CONGESTED", "INCIDENTS", "AM_PEAK", "MIDDAY", "PM_PEAK"})
        public Traffic updatedTraffic;

        long[] detector;
        DetectorConditions[] now;
        DetectorConditions[] next;
        int nextUpdate;
        boolean forward = true;

        @Override
        Traffic traffic() {
            return updatedTraffic;
        }

        @Override
        public void setUp() {
            super.setUp();
            Random random = new Random(SEED + 1);
            Map<Long, DetectorConditions> current =
                    updatedTraffic.draw(router, new Random(SEED), this::stations, Duration.ZERO);
            Map<Long, DetectorConditions> later =
                    updatedTraffic.draw(router, random, this::stations, Duration.ofMinutes(5));
            List<Long> changed = new ArrayList<>();
            later.forEach((vdsId, conditions) -> {
                if (!conditions.equals(current.get(vdsId))) {
                    changed.add(vdsId);
                }
            });
            Collections.shuffle(changed, random);
            detector = changed.stream().mapToLong(Long::longValue).toArray();
            now = changed.stream().map(current::get).toArray(DetectorConditions[]::new);
            next = changed.stream().map(later::get).toArray(DetectorConditions[]::new);
        }

        /** Gives the next detector its other reading. */
        void applyNextUpdate() {
            int i = nextUpdate;
            router.update(detector[i], forward ? next[i] : now[i]);
            if (++nextUpdate == detector.length) {
                nextUpdate = 0;
                forward = !forward;
            }
        }
    }

    @Benchmark
    public Route aStarStudyGraph(StudyGraph q) {
        int i = q.nextQuery();
        return q.router.route(q.from[i], q.to[i]);
    }

    @Benchmark
    public Route dijkstraStudyGraph(StudyGraph q) {
        int i = q.nextQuery();
        return q.router.routeByDijkstra(q.from[i], q.to[i]);
    }

    @Benchmark
    public Route aStarDistrictGraph(DistrictGraph q) {
        int i = q.nextQuery();
        return q.router.route(q.from[i], q.to[i]);
    }

    @Benchmark
    public Route dijkstraDistrictGraph(DistrictGraph q) {
        int i = q.nextQuery();
        return q.router.routeByDijkstra(q.from[i], q.to[i]);
    }

    /**
     * The contraction hierarchy, the router's search, answered as a {@link Route} (the answer
     * object is allocated, the search not).
     */
    @Benchmark
    public Route hierarchyLargeDistrict(LargeDistrictGraph q) {
        int i = q.nextQuery();
        return q.router.route(q.from[i], q.to[i]);
    }

    /** The contraction hierarchy in its allocation-free form: the travel time, the route left in the router. */
    @Benchmark
    public double hierarchySecondsLargeDistrict(LargeDistrictGraph q) {
        int i = q.nextQuery();
        return q.router.travelSeconds(q.from[i], q.to[i]);
    }

    /**
     * What a prediction costs the router: one detector's update and the customization it causes,
     * which the next query runs first (here a query from a detector to itself, which searches
     * nothing).
     */
    @Benchmark
    public double updateLargeDistrict(LargeDistrictUpdates q) {
        q.applyNextUpdate();
        return q.router.travelSeconds(q.from[0], q.from[0]);
    }

    /** One update, then one query: about the mix of the district's default load (1.6 readings a request). */
    @Benchmark
    public double updateThenQueryLargeDistrict(LargeDistrictUpdates q) {
        q.applyNextUpdate();
        int i = q.nextQuery();
        return q.router.travelSeconds(q.from[i], q.to[i]);
    }

    /** Bidirectional landmark A*, the router's search before the hierarchy, as a {@link Route}. */
    @Benchmark
    public Route landmarksLargeDistrict(LargeDistrictGraph q) {
        int i = q.nextQuery();
        return q.router.routeByBidirectionalLandmarkAStar(q.from[i], q.to[i]);
    }

    /** One-directional landmark A*, the router's search before the bidirectional one, as a {@link Route}. */
    @Benchmark
    public Route oneWayLandmarksLargeDistrict(LargeDistrictGraph q) {
        int i = q.nextQuery();
        return q.router.routeByLandmarkAStar(q.from[i], q.to[i]);
    }

    @Benchmark
    public Route greatCircleLargeDistrict(LargeDistrictGraph q) {
        int i = q.nextQuery();
        return q.router.routeByGreatCircle(q.from[i], q.to[i]);
    }

    @Benchmark
    public Route dijkstraLargeDistrict(LargeDistrictGraph q) {
        int i = q.nextQuery();
        return q.router.routeByDijkstra(q.from[i], q.to[i]);
    }
}
