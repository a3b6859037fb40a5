package org.itsrt.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.itsrt.routing.DetectorConditions;
import org.itsrt.routing.Route;
import org.itsrt.routing.Router;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A* against Dijkstra on the same costs: the six-station study graph and a generated freeway
 * district of about 2,000 detectors. Each invocation answers one origin-destination query; the
 * queries cycle through a fixed, seeded set of reachable pairs so both algorithms answer exactly
 * the same questions under the same traffic state. The study graph is one-way freeways with only
 * a handful of reachable pairs, so its numbers are mostly the per-call overhead of a search.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RoutingBench {

    /** Queries per set: enough that caches do not learn one path, few enough to set up fast. */
    private static final int QUERIES = 256;

    private static final long SEED = 20180301L;

    /** A router over one graph, congested at random, and a fixed set of reachable queries. */
    abstract static class Queries {
        Router router;
        long[] from;
        long[] to;
        int next;

        abstract DetectorGraph graph();

        @Setup(Level.Trial)
        public void setUp() {
            DetectorGraph graph = graph();
            router = Router.withDefaults(graph);
            Random random = new Random(SEED);
            List<Detector> detectors = graph.detectors();
            // Congest the network unevenly so the costs, not only the lengths, decide the routes.
            for (Detector detector : detectors) {
                double speed = 15 + 55 * random.nextDouble();
                double flow = 100 + 1400 * random.nextDouble();
                router.update(detector.vdsId(), DetectorConditions.of(speed, flow));
            }
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
}
