package org.itsrt.routing;

import java.util.Arrays;
import java.util.List;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.GreatCircle;
import org.itsrt.routing.graph.RoadSegment;
import org.jgrapht.Graph;
import org.jgrapht.alg.interfaces.AStarAdmissibleHeuristic;
import org.jgrapht.alg.interfaces.ShortestPathAlgorithm.SingleSourcePaths;
import org.jgrapht.alg.shortestpath.DijkstraShortestPath;
import org.jgrapht.graph.AsWeightedGraph;
import org.jgrapht.graph.EdgeReversedGraph;

/**
 * The landmark (ALT) heuristic on free-flow lower bounds: for a few landmark detectors L, the
 * travel times d(L, v) from L to every detector and d(v, L) from every detector to L, with every
 * segment at its free-flow lower bound ({@link TravelTimeCost#lowerBoundSeconds}), and from them
 * <pre>
 *   h(v, t) = max(0, max over L of  d(L, t) - d(L, v),  d(v, L) - d(t, L))
 * </pre>
 * a lower bound of the travel time from v to the goal t.
 *
 * <p><b>Admissible and consistent under any traffic.</b> Every term is a difference of exact
 * shortest distances in the lower-bound graph, so by the triangle inequality
 * {@code d(L, t) <= d(L, v) + d_lb(v, t)} and {@code d(v, L) <= d_lb(v, t) + d(t, L)} each term is
 * at most d_lb(v, t), the free-flow lower-bound distance, which is at most the travel time under
 * any traffic: the cost clamps every segment's speed to at most v_max, so a segment never costs
 * less than its length at v_max, whatever conditions arrive. For a segment (u, v) of lower bound
 * w_lb and current cost w >= w_lb, the same inequalities give, per term, term(u) <= w_lb +
 * term(v) <= w + term(v), so h(u) <= w + h(v): consistent. The landmarks and their distances
 * depend on the lengths alone, so they are computed once per graph and never on a traffic update.
 *
 * <p><b>Infinities, per term, before the max.</b> Real districts are not strongly connected
 * (freeways end at the district's edge), so some distances are infinite, and inf - inf is NaN.
 * The rule:
 * <ul>
 *   <li>forward term d(L, t) - d(L, v): ignored when d(L, v) is infinite (L does not reach v:
 *       the term says nothing). When d(L, v) is finite but d(L, t) is not, v cannot reach t (else
 *       L would reach t through v), and the term's +infinity is exact.
 *   <li>backward term d(v, L) - d(t, L): ignored when d(t, L) is infinite (t does not reach L).
 *       When d(t, L) is finite but d(v, L) is not, v cannot reach t (else v would reach L through
 *       t), and +infinity is exact.
 * </ul>
 * Consistency survives: for a segment (u, v), if L does not reach v it does not reach u either
 * (u leads to v), so a forward term ignored at v is ignored at u too; a backward term is ignored
 * for every node alike, since the rule looks only at t. An infinite estimate at u means u cannot
 * reach t, so neither can v, and the same term is infinite at v. A term that is active at u is
 * therefore active at v with term(u) <= w_lb + term(v) as above.
 *
 * <p>JGraphT 1.5.2's {@code ALTAdmissibleHeuristic} gets this wrong on such graphs: it takes the
 * max of a landmark's two terms first, so one NaN (or infinity) drops the landmark's other term
 * as well, and a node that cannot reach the goal can get a small estimate while its predecessor
 * keeps a large one; it also answers with the exact distance at a landmark node, which is not
 * consistent with its neighbours' lower bounds. JGraphT's A* then re-opens a closed node and fails
 * in {@code PairingHeap.decreaseKey} with "Invalid handle".
 *
 * <p><b>Landmark choice: planar, both directions.</b> Around the detector nearest the graph's
 * centroid, the plane is cut into {@code count / 2} equal sectors by bearing; in each, the
 * detector farthest downstream of the centre (largest finite d(centre, v): where a freeway leaves
 * the district) and the one farthest upstream (largest finite d(v, centre): where one enters).
 * A forward term is tight when its landmark lies behind the start, a backward term when its
 * landmark lies beyond the goal; on a directed district each edge detector is reached only one
 * way, and plain farthest selection measured three times as many settled detectors at free flow
 * (it took mostly entries). Slots left (small graphs, empty sectors) are filled by farthest
 * selection on the shorter of the two directions; detectors that no landmark reaches either way
 * rank last, so a lone station does not take a landmark from the district. The default count,
 * {@value #DEFAULT_COUNT}, was chosen by measurement (docs/routing.md, section 3): 16 or 32 settle
 * a few per cent fewer detectors and cost more per estimate.
 *
 * <p>Distances are computed with JGraphT's Dijkstra ({@code getPaths}) on a free-flow weighted
 * view of the graph and on its edge-reversed view, once, when the router is built.
 */
final class FreeFlowLandmarks implements AStarAdmissibleHeuristic<Detector> {

    /** Landmarks per graph unless told otherwise. */
    static final int DEFAULT_COUNT = 8;

    private final CompactDetectorGraph compact;
    private final int[] landmarks;
    private final int count;
    /** d(L_l, v) at [v * count + l]: one detector's distances side by side, read together. */
    private final double[] fromLandmark;
    /** d(v, L_l) at [v * count + l]. */
    private final double[] toLandmark;

    /**
     * @param count landmarks wanted; fewer when the graph has fewer detectors
     * @throws IllegalArgumentException if count is below 1
     */
    FreeFlowLandmarks(DetectorGraph network, CompactDetectorGraph compact, TravelTimeCost cost, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("landmark count must be >= 1, got " + count);
        }
        this.compact = compact;
        int n = compact.size();
        this.count = Math.min(count, n);
        this.landmarks = new int[this.count];
        this.fromLandmark = new double[n * this.count];
        this.toLandmark = new double[n * this.count];
        if (n == 0) {
            return;
        }
        Graph<Detector, RoadSegment> lowerBounds =
                new AsWeightedGraph<>(network.graph(), cost::lowerBoundSeconds, true, false);
        DijkstraShortestPath<Detector, RoadSegment> forward = new DijkstraShortestPath<>(lowerBounds);
        DijkstraShortestPath<Detector, RoadSegment> backward =
                new DijkstraShortestPath<>(new EdgeReversedGraph<>(lowerBounds));

        int centre = nearestToCentroid();
        double[] fromCentre = new double[n];
        double[] toCentre = new double[n];
        distances(forward, centre, fromCentre);
        distances(backward, centre, toCentre);

        boolean[] chosen = new boolean[n];
        // Distance of every detector to its nearest landmark so far, the shorter direction.
        double[] nearest = new double[n];
        Arrays.fill(nearest, Double.POSITIVE_INFINITY);
        int chosenCount = 0;
        for (int candidate : sectorCandidates(centre, fromCentre, toCentre)) {
            if (chosenCount < this.count && candidate >= 0 && !chosen[candidate]) {
                add(chosenCount++, candidate, chosen, nearest, forward, backward);
            }
        }
        while (chosenCount < this.count) {
            add(chosenCount++, farthest(nearest, chosen), chosen, nearest, forward, backward);
        }
    }

    private void add(
            int l,
            int landmark,
            boolean[] chosen,
            double[] nearest,
            DijkstraShortestPath<Detector, RoadSegment> forward,
            DijkstraShortestPath<Detector, RoadSegment> backward) {
        int n = compact.size();
        double[] from = new double[n];
        double[] to = new double[n];
        distances(forward, landmark, from);
        distances(backward, landmark, to);
        chosen[landmark] = true;
        landmarks[l] = landmark;
        for (int v = 0; v < n; v++) {
            fromLandmark[v * count + l] = from[v];
            toLandmark[v * count + l] = to[v];
            nearest[v] = Math.min(nearest[v], Math.min(from[v], to[v]));
        }
    }

    /**
     * Per sector of the plane around the centre detector, {@code ceil(count / 2)} equal sectors by
     * bearing: the detector farthest downstream of the centre (largest finite d(centre, v)) and
     * the one farthest upstream (largest finite d(v, centre)); -1 for an empty sector.
     */
    private int[] sectorCandidates(int centreIndex, double[] fromCentre, double[] toCentre) {
        int sectors = (count + 1) / 2;
        int[] downstream = new int[sectors];
        int[] upstream = new int[sectors];
        Arrays.fill(downstream, -1);
        Arrays.fill(upstream, -1);
        Detector centre = compact.detector(centreIndex);
        double cosLatitude = Math.cos(Math.toRadians(centre.latitude()));
        for (int v = 0; v < compact.size(); v++) {
            Detector d = compact.detector(v);
            double east = Math.IEEEremainder(d.longitude() - centre.longitude(), 360) * cosLatitude;
            double north = d.latitude() - centre.latitude();
            double turn = (Math.atan2(north, east) + Math.PI) / (2 * Math.PI);
            int sector = Math.min(sectors - 1, (int) (turn * sectors));
            if (fromCentre[v] != Double.POSITIVE_INFINITY
                    && (downstream[sector] < 0 || fromCentre[v] > fromCentre[downstream[sector]])) {
                downstream[sector] = v;
            }
            if (toCentre[v] != Double.POSITIVE_INFINITY
                    && (upstream[sector] < 0 || toCentre[v] > toCentre[upstream[sector]])) {
                upstream[sector] = v;
            }
        }
        int[] candidates = new int[2 * sectors];
        for (int sector = 0; sector < sectors; sector++) {
            candidates[2 * sector] = downstream[sector];
            candidates[2 * sector + 1] = upstream[sector];
        }
        return candidates;
    }

    /** The landmark detectors, in the order chosen. */
    List<Detector> landmarks() {
        return Arrays.stream(landmarks).mapToObj(compact::detector).toList();
    }

    /**
     * The lower bound of the travel time from one detector to another, by detector index:
     * {@code +Infinity} when the landmarks prove the goal unreachable.
     */
    double estimate(int node, int goal) {
        double best = 0;
        int nodeRow = node * count;
        int goalRow = goal * count;
        for (int l = 0; l < count; l++) {
            double fromToNode = fromLandmark[nodeRow + l];
            if (fromToNode != Double.POSITIVE_INFINITY) {
                best = Math.max(best, fromLandmark[goalRow + l] - fromToNode);
            }
            double goalToLandmark = toLandmark[goalRow + l];
            if (goalToLandmark != Double.POSITIVE_INFINITY) {
                best = Math.max(best, toLandmark[nodeRow + l] - goalToLandmark);
            }
        }
        return best;
    }

    @Override
    public double getCostEstimate(Detector node, Detector goal) {
        return estimate(compact.requireIndex(node.vdsId()), compact.requireIndex(goal.vdsId()));
    }

    /** Lower-bound distances from one detector (to it, on the reversed view), +Infinity if none. */
    private void distances(DijkstraShortestPath<Detector, RoadSegment> dijkstra, int source, double[] into) {
        SingleSourcePaths<Detector, RoadSegment> paths = dijkstra.getPaths(compact.detector(source));
        for (int v = 0; v < into.length; v++) {
            into[v] = paths.getWeight(compact.detector(v));
        }
    }

    /** The detector nearest the mean of all coordinates: a start for the farthest selection. */
    private int nearestToCentroid() {
        int n = compact.size();
        double x = 0;
        double y = 0;
        double z = 0;
        for (int v = 0; v < n; v++) {
            Detector d = compact.detector(v);
            double latitude = Math.toRadians(d.latitude());
            double longitude = Math.toRadians(d.longitude());
            x += Math.cos(latitude) * Math.cos(longitude);
            y += Math.cos(latitude) * Math.sin(longitude);
            z += Math.sin(latitude);
        }
        double centreLatitude = Math.toDegrees(Math.atan2(z, Math.hypot(x, y)));
        double centreLongitude = Math.toDegrees(Math.atan2(y, x));
        int best = 0;
        double bestMeters = Double.POSITIVE_INFINITY;
        for (int v = 0; v < n; v++) {
            Detector d = compact.detector(v);
            double meters = GreatCircle.meters(d.latitude(), d.longitude(), centreLatitude, centreLongitude);
            if (meters < bestMeters) {
                bestMeters = meters;
                best = v;
            }
        }
        return best;
    }

    /**
     * The detector not yet chosen with the largest finite distance to the landmarks so far; when
     * none is left at a finite distance, the first one not yet chosen.
     */
    private static int farthest(double[] nearest, boolean[] chosen) {
        int best = -1;
        double bestDistance = -1;
        for (int v = 0; v < nearest.length; v++) {
            double distance = nearest[v];
            if (!chosen[v] && distance != Double.POSITIVE_INFINITY && distance > bestDistance) {
                bestDistance = distance;
                best = v;
            }
        }
        for (int v = 0; v < nearest.length && best < 0; v++) {
            if (!chosen[v]) {
                best = v;
            }
        }
        return best;
    }
}
