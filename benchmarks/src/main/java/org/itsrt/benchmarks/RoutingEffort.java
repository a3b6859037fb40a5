package org.itsrt.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import org.itsrt.routing.HierarchyShape;
import org.itsrt.routing.Router;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.RoadSegment;
import org.itsrt.routing.graph.SyntheticFreewayNetwork;
import org.jgrapht.Graph;
import org.jgrapht.alg.interfaces.ShortestPathAlgorithm.SingleSourcePaths;
import org.jgrapht.alg.shortestpath.AStarShortestPath;
import org.jgrapht.alg.shortestpath.DijkstraShortestPath;
import org.jgrapht.graph.AsWeightedGraph;
import org.jgrapht.graph.EdgeReversedGraph;
import org.jgrapht.traverse.ClosestFirstIterator;

/**
 * Settled detectors per query of each of {@link RoutingBench}'s searches on the 4,800-detector
 * district, for the same query sets and traffic states: the work a search does, whatever the
 * machine. Dijkstra's count is the number of detectors JGraphT's closest-first iteration takes up
 * to the goal, the order its Dijkstra settles them in; the great-circle A*'s is JGraphT's own
 * count of expanded nodes; the landmark searches' (one-directional, and bidirectional with both
 * sides together) and the router's contraction hierarchy's (both ends' ancestors) are the
 * router's. Another column is the best any one-directional search
 * with a heuristic built on free-flow lower bounds can do: JGraphT's A* with the exact free-flow
 * distance to the goal as its estimate. It also prints the CPU time per query of the bidirectional
 * landmark search and the hierarchy (the thread's, after a warm-up, answering with a {@code
 * Route}): a rough figure, JMH gives the real ones.
 *
 * <p>Run: {@code java -cp CLASSPATH org.itsrt.benchmarks.RoutingEffort [LANDMARK_COUNT ...]}
 * (default: the router's default count; docs/routing.md).
 */
public final class RoutingEffort {

    private static final int WARM_UP_ROUNDS = 20;
    private static final int TIMED_ROUNDS = 10;

    private RoutingEffort() {}

    public static void main(String[] args) {
        HierarchyShape shape = Router.withDefaults(SyntheticFreewayNetwork.graph(RoutingBench.LARGE_DISTRICT))
                .hierarchyShape();
        System.out.printf(
                Locale.ROOT,
                "contraction hierarchy: %,d detectors, %,d arcs, %,d triangles, elimination tree height %d%n%n",
                shape.detectors(),
                shape.arcs(),
                shape.triangles(),
                shape.treeHeight());
        System.out.println("| landmarks | traffic | Dijkstra | great-circle A* | landmark A* | bidirectional"
                + " landmark A* | contraction hierarchy | exact free-flow h | Dijkstra / bidirectional"
                + " | Dijkstra / hierarchy | CPU us/query bidirectional / hierarchy |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        int[] counts = args.length == 0 ? new int[] {0} : new int[args.length];
        for (int i = 0; i < args.length; i++) {
            counts[i] = parseCount(args[i]);
        }
        for (int count : counts) {
            for (RoutingBench.Traffic traffic : RoutingBench.Traffic.values()) {
                report(count, traffic);
            }
        }
    }

    private static void report(int landmarkCount, RoutingBench.Traffic traffic) {
        RoutingBench.LargeDistrictGraph queries = new RoutingBench.LargeDistrictGraph();
        queries.traffic = traffic;
        queries.landmarks = landmarkCount;
        queries.setUp();
        Router router = queries.router;
        AStarShortestPath<Detector, RoadSegment> greatCircle =
                new AStarShortestPath<>(router.costGraph(), router.heuristic());
        long dijkstra = 0;
        long greatCircleExpanded = 0;
        long landmarks = 0;
        long bidirectional = 0;
        long hierarchy = 0;
        long exactFreeFlow = 0;
        Graph<Detector, RoadSegment> lowerBounds =
                new AsWeightedGraph<>(router.network().graph(), router.cost()::lowerBoundSeconds, true, false);
        DijkstraShortestPath<Detector, RoadSegment> toGoal =
                new DijkstraShortestPath<>(new EdgeReversedGraph<>(lowerBounds));
        for (int i = 0; i < queries.from.length; i++) {
            Detector from = router.network().requireDetector(queries.from[i]);
            Detector to = router.network().requireDetector(queries.to[i]);
            dijkstra += settledByDijkstra(router, from, to);
            greatCircle.getPath(from, to);
            greatCircleExpanded += greatCircle.getNumberOfExpandedNodes();
            router.routeByLandmarkAStar(from.vdsId(), to.vdsId());
            landmarks += router.lastSettledNodes();
            router.routeByBidirectionalLandmarkAStar(from.vdsId(), to.vdsId());
            bidirectional += router.lastSettledNodes();
            router.travelSeconds(from.vdsId(), to.vdsId());
            hierarchy += router.lastSettledNodes();
            SingleSourcePaths<Detector, RoadSegment> freeFlowToGoal = toGoal.getPaths(to);
            AStarShortestPath<Detector, RoadSegment> exact =
                    new AStarShortestPath<>(router.costGraph(), (node, goal) -> freeFlowToGoal.getWeight(node));
            exact.getPath(from, to);
            exactFreeFlow += exact.getNumberOfExpandedNodes();
        }
        double n = queries.from.length;
        System.out.printf(
                Locale.ROOT,
                "| %s | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.1fx | %.1fx | %.1f / %.1f |%n",
                landmarkCount == 0 ? "default" : Integer.toString(landmarkCount),
                traffic,
                dijkstra / n,
                greatCircleExpanded / n,
                landmarks / n,
                bidirectional / n,
                hierarchy / n,
                exactFreeFlow / n,
                (double) dijkstra / bidirectional,
                (double) dijkstra / hierarchy,
                cpuMicrosPerQuery(queries, false),
                cpuMicrosPerQuery(queries, true));
    }

    private static double cpuMicrosPerQuery(RoutingBench.LargeDistrictGraph queries, boolean hierarchy) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double sink = 0;
        for (int round = 0; round < WARM_UP_ROUNDS; round++) {
            sink += answerAll(queries, hierarchy);
        }
        long start = threads.getCurrentThreadCpuTime();
        for (int round = 0; round < TIMED_ROUNDS; round++) {
            sink += answerAll(queries, hierarchy);
        }
        long cpuNanos = threads.getCurrentThreadCpuTime() - start;
        if (!(sink > 0)) {
            throw new IllegalStateException("the query set has no reachable pair");
        }
        return cpuNanos / 1e3 / (TIMED_ROUNDS * queries.from.length);
    }

    private static double answerAll(RoutingBench.LargeDistrictGraph queries, boolean hierarchy) {
        double total = 0;
        for (int i = 0; i < queries.from.length; i++) {
            Router router = queries.router;
            total += (hierarchy
                            ? router.route(queries.from[i], queries.to[i])
                            : router.routeByBidirectionalLandmarkAStar(queries.from[i], queries.to[i]))
                    .costSeconds();
        }
        return total;
    }

    private static int settledByDijkstra(Router router, Detector from, Detector to) {
        ClosestFirstIterator<Detector, RoadSegment> iterator = new ClosestFirstIterator<>(router.costGraph(), from);
        int settled = 0;
        while (iterator.hasNext()) {
            settled++;
            if (iterator.next().equals(to)) {
                break;
            }
        }
        return settled;
    }

    private static int parseCount(String arg) {
        try {
            int count = Integer.parseInt(arg);
            if (count >= 1) {
                return count;
            }
        } catch (NumberFormatException e) {
            // Reported below with the argument.
        }
        throw new IllegalArgumentException("landmark count '" + arg + "': expected a whole number >= 1");
    }
}
