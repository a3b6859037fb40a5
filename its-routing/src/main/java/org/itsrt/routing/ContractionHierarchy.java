package org.itsrt.routing;

import java.util.Arrays;
import java.util.TreeSet;

/**
 * A customizable contraction hierarchy (Dibbelt, Strasser and Wagner's CCH) over the array form of
 * the graph: the search {@link Router#route} runs. Three phases, of which only the last runs per
 * query:
 *
 * <ol>
 *   <li><b>Structure, once per graph</b>, blind to traffic: detectors are ranked by a nested
 *       dissection ({@link DissectionOrder}) and contracted in that order, each joining all its
 *       higher-ranked neighbours to one another. The result is the graph plus shortcuts, stored as
 *       <em>arcs</em> {low, high} in CSR form by the lower rank; its lower triangles (arcs {v, x}
 *       and {v, y} under the arc {x, y}, v ranked below both) are listed per arc, and so are the
 *       arcs each arc is a lower side of.
 *   <li><b>Customization, per change of costs</b>: each arc's time upwards (low to high) and
 *       downwards is the least of its own segment's cost and, over its lower triangles, the time
 *       through the triangle's third detector. An arc depends only on arcs of lower-ranked
 *       detectors, which come first in the CSR order, so one pass in arc order settles them all.
 *       A cost update only marks its arc; the next query recomputes the marked arcs in order and
 *       marks the arcs above those that changed, so a reading costs the arcs its change reaches and
 *       a burst of readings between two queries is folded into one pass.
 *   <li><b>Query</b>: an arc's upper end is an ancestor of its lower end in the elimination tree
 *       (each detector's parent is its lowest-ranked upper neighbour), so the search from the
 *       start upwards and the one from the goal (upwards over the arcs' downward times) visit just
 *       their detectors' ancestors, in rank order, with no priority queue. The fastest route is the
 *       best sum at a common ancestor; its arcs unpack through the triangle each was customized
 *       from down to segments.
 * </ol>
 *
 * <p>Why. The landmark searches' bounds are taken at free flow, so under heavy or noisy congestion
 * they settle a third to a quarter of the district; the hierarchy's searches visit the same few
 * hundred ancestors whatever the traffic, since customization folds the traffic into the arcs
 * (docs/routing.md, section 3). The route is Dijkstra's: an arc's time is the least time of a path
 * through lower-ranked detectors, and every shortest path has an up-down form through its
 * highest-ranked detector.
 *
 * <p>A query allocates nothing; arrays are sized once and the distances reset along the two chains
 * after each query. The answer's time is summed along the unpacked route from the start, in the
 * order Dijkstra sums it. Not thread-safe: one per router.
 */
final class ContractionHierarchy extends ArrayRouteSearch {

    private static final int NONE = -1;

    private final CompactDetectorGraph graph;
    /** Rank of each detector index, and the detector index at each rank. */
    private final int[] rankOf;

    private final int[] detectorAt;
    /** Elimination tree: the parent rank of each rank, NONE at a root. */
    private final int[] parent;
    /** Arcs of rank r (its higher neighbours, ascending) are firstArc[r] .. firstArc[r + 1] - 1. */
    private final int[] firstArc;

    private final int[] arcLow;
    private final int[] arcHigh;
    /** Lower triangles of arc a are firstTriangle[a] .. firstTriangle[a + 1] - 1: arcs {v, low} and {v, high}. */
    private final int[] firstTriangle;

    private final int[] triangleLowSide;
    private final int[] triangleHighSide;
    /** The arc each triangle lies under. */
    private final int[] triangleOver;
    /** Triangles that arc a is a lower side of: firstDependent[a] .. firstDependent[a + 1] - 1. */
    private final int[] firstDependent;

    private final int[] dependents;
    /** Segments that run along arc a upwards (low to high), and downwards. */
    private final int[] firstUpSegment;

    private final int[] upSegments;
    private final int[] firstDownSegment;
    private final int[] downSegments;
    /** The arc of each segment, NONE for a loop from a detector to itself. */
    private final int[] arcOfSegment;

    // The customized times, and what each came from: a triangle, or NONE for the arc's own segment.
    private final double[] up;
    private final double[] down;
    private final int[] upVia;
    private final int[] downVia;
    private final int[] upSegment;
    private final int[] downSegment;
    /** Arcs whose times must be recomputed from their segments and triangles, one bit per arc. */
    private final long[] stale;
    /** Arcs whose times changed and whose dependents have not been told yet, one bit per arc. */
    private final long[] changed;

    private boolean anyStale;
    private boolean allStale;
    private int lastCustomizedArcs;

    // Query scratch, by rank; the distances are +Infinity outside a query.
    private final double[] fromStart;
    private final double[] toGoal;
    private final int[] forwardArc;
    private final int[] backwardArc;
    private final int[] routeSegment;
    private final int[] routePosition;
    private final int[] onRouteIn;
    private int routeStamp;

    /**
     * Settled detectors are those the search visits: each end's ancestors up to where the two
     * chains meet, and every common ancestor twice (both sides visit it, pruned or not).
     */
    ContractionHierarchy(CompactDetectorGraph graph) {
        super(graph.size());
        this.graph = graph;
        int n = graph.size();
        this.rankOf = DissectionOrder.ranks(graph);
        this.detectorAt = new int[n];
        for (int i = 0; i < n; i++) {
            detectorAt[rankOf[i]] = i;
        }

        @SuppressWarnings("unchecked")
        TreeSet<Integer>[] higher = new TreeSet[n];
        for (int r = 0; r < n; r++) {
            higher[r] = new TreeSet<>();
        }
        for (int node = 0; node < n; node++) {
            for (int slot = graph.firstOut(node); slot < graph.endOut(node); slot++) {
                int a = rankOf[node];
                int b = rankOf[graph.head(slot)];
                if (a != b) {
                    higher[Math.min(a, b)].add(Math.max(a, b));
                }
            }
        }
        this.parent = new int[n];
        for (int r = 0; r < n; r++) {
            if (higher[r].isEmpty()) {
                parent[r] = NONE;
                continue;
            }
            int p = higher[r].first();
            parent[r] = p;
            higher[p].addAll(higher[r].tailSet(p, false));
        }
        this.firstArc = new int[n + 1];
        for (int r = 0; r < n; r++) {
            firstArc[r + 1] = firstArc[r] + higher[r].size();
        }
        int arcs = firstArc[n];
        this.arcLow = new int[arcs];
        this.arcHigh = new int[arcs];
        for (int r = 0, a = 0; r < n; r++) {
            for (int h : higher[r]) {
                arcLow[a] = r;
                arcHigh[a++] = h;
            }
        }

        // Lower triangles: for each detector v, each pair of its arcs {v, x}, {v, y} with x < y
        // lies under the arc {x, y}, which contraction made sure exists.
        this.firstTriangle = new int[arcs + 1];
        this.firstDependent = new int[arcs + 1];
        forEachTriangle((over, lowSide, highSide, k) -> {
            firstTriangle[over + 1]++;
            firstDependent[lowSide + 1]++;
            firstDependent[highSide + 1]++;
        });
        for (int a = 0; a < arcs; a++) {
            firstTriangle[a + 1] += firstTriangle[a];
            firstDependent[a + 1] += firstDependent[a];
        }
        this.triangleLowSide = new int[firstTriangle[arcs]];
        this.triangleHighSide = new int[firstTriangle[arcs]];
        this.triangleOver = new int[firstTriangle[arcs]];
        this.dependents = new int[firstDependent[arcs]];
        int[] nextTriangle = Arrays.copyOf(firstTriangle, arcs);
        int[] nextDependent = Arrays.copyOf(firstDependent, arcs);
        forEachTriangle((over, lowSide, highSide, k) -> {
            int t = nextTriangle[over]++;
            triangleLowSide[t] = lowSide;
            triangleHighSide[t] = highSide;
            triangleOver[t] = over;
            dependents[nextDependent[lowSide]++] = t;
            dependents[nextDependent[highSide]++] = t;
        });

        int segments = arcOfSegmentCount(graph);
        this.arcOfSegment = new int[segments];
        boolean[] upwards = new boolean[segments];
        this.firstUpSegment = new int[arcs + 1];
        this.firstDownSegment = new int[arcs + 1];
        Arrays.fill(arcOfSegment, NONE);
        for (int node = 0; node < n; node++) {
            for (int slot = graph.firstOut(node); slot < graph.endOut(node); slot++) {
                int a = rankOf[node];
                int b = rankOf[graph.head(slot)];
                if (a == b) {
                    continue;
                }
                int segment = graph.segment(slot);
                int arc = arc(Math.min(a, b), Math.max(a, b));
                arcOfSegment[segment] = arc;
                upwards[segment] = a < b;
                (a < b ? firstUpSegment : firstDownSegment)[arc + 1]++;
            }
        }
        for (int a = 0; a < arcs; a++) {
            firstUpSegment[a + 1] += firstUpSegment[a];
            firstDownSegment[a + 1] += firstDownSegment[a];
        }
        this.upSegments = new int[firstUpSegment[arcs]];
        this.downSegments = new int[firstDownSegment[arcs]];
        int[] nextUp = Arrays.copyOf(firstUpSegment, arcs);
        int[] nextDown = Arrays.copyOf(firstDownSegment, arcs);
        for (int segment = 0; segment < segments; segment++) {
            int arc = arcOfSegment[segment];
            if (arc != NONE) {
                if (upwards[segment]) {
                    upSegments[nextUp[arc]++] = segment;
                } else {
                    downSegments[nextDown[arc]++] = segment;
                }
            }
        }

        this.up = new double[arcs];
        this.down = new double[arcs];
        this.upVia = new int[arcs];
        this.downVia = new int[arcs];
        this.upSegment = new int[arcs];
        this.downSegment = new int[arcs];
        this.stale = new long[(arcs + 63) / 64];
        this.changed = new long[stale.length];
        markAllStale();

        this.fromStart = new double[n];
        this.toGoal = new double[n];
        Arrays.fill(fromStart, Double.POSITIVE_INFINITY);
        Arrays.fill(toGoal, Double.POSITIVE_INFINITY);
        this.forwardArc = new int[n];
        this.backwardArc = new int[n];
        this.routeSegment = new int[n];
        this.routePosition = new int[n];
        this.onRouteIn = new int[n];
    }

    /** Marks the arc of a segment whose cost changed; its times are recomputed before the next query. */
    void segmentChanged(int segment) {
        int arc = arcOfSegment[segment];
        if (arc != NONE) {
            stale[arc >>> 6] |= 1L << arc;
            anyStale = true;
        }
    }

    /** Marks every arc, as when every cost changed at once (a restored state). */
    void markAllStale() {
        Arrays.fill(stale, -1L);
        int arcs = arcLow.length;
        if (arcs % 64 != 0) {
            stale[stale.length - 1] = (1L << (arcs % 64)) - 1;
        }
        anyStale = arcs > 0;
        allStale = true;
    }

    /**
     * Brings the marked arcs and everything above them up to date, in arc order; a no-op when
     * nothing is marked. Runs before every query.
     *
     * <p>After every cost changed (a new router, a restored state) each arc is recomputed from
     * scratch. After a few updates only what they reach is: an arc whose times changed tells each
     * triangle it is a lower side of; the arc over that triangle takes the triangle's new time at
     * once if it is lower, and is recomputed from scratch only if the triangle it had its time
     * from got slower. Either way every time ends as the least over the arc's segments and
     * triangles, the same value a customization from scratch gives.
     */
    void customize(double[] secondsBySegment) {
        lastCustomizedArcs = 0;
        if (!anyStale) {
            return;
        }
        if (allStale) {
            for (int arc = 0; arc < arcLow.length; arc++) {
                recompute(arc, secondsBySegment);
            }
            lastCustomizedArcs = arcLow.length;
            Arrays.fill(stale, 0);
            allStale = false;
            anyStale = false;
            return;
        }
        for (int word = 0; word < stale.length; word++) {
            // Work on an arc only adds marks above it, so later in this word or in later words.
            while ((stale[word] | changed[word]) != 0) {
                int bit = Long.numberOfTrailingZeros(stale[word] | changed[word]);
                long mask = 1L << bit;
                int arc = (word << 6) + bit;
                lastCustomizedArcs++;
                if ((stale[word] & mask) != 0) {
                    stale[word] &= ~mask;
                    if (recompute(arc, secondsBySegment)) {
                        changed[word] |= mask;
                    }
                }
                if ((changed[word] & mask) != 0) {
                    changed[word] &= ~mask;
                    tellTrianglesAbove(arc);
                }
            }
        }
        anyStale = false;
    }

    /** Offers the new time through each triangle the arc is a lower side of to the arc over it. */
    private void tellTrianglesAbove(int arc) {
        for (int d = firstDependent[arc]; d < firstDependent[arc + 1]; d++) {
            int t = dependents[d];
            int over = triangleOver[t];
            int lowSide = triangleLowSide[t];
            int highSide = triangleHighSide[t];
            double throughUp = down[lowSide] + up[highSide];
            if (throughUp < up[over]) {
                up[over] = throughUp;
                upVia[over] = t;
                changed[over >>> 6] |= 1L << over;
            } else if (upVia[over] == t && throughUp != up[over]) {
                stale[over >>> 6] |= 1L << over;
            }
            double throughDown = down[highSide] + up[lowSide];
            if (throughDown < down[over]) {
                down[over] = throughDown;
                downVia[over] = t;
                changed[over >>> 6] |= 1L << over;
            } else if (downVia[over] == t && throughDown != down[over]) {
                stale[over >>> 6] |= 1L << over;
            }
        }
    }

    /**
     * The least travel time from start to goal (detector indexes) under these segment costs, and
     * the route (read with {@link #routeLength()} and {@link #routeDetector(int)}); {@code
     * +Infinity} and an empty route when the goal cannot be reached.
     */
    @Override
    double search(int startDetector, int goalDetector, double[] secondsBySegment) {
        customize(secondsBySegment);
        routeLength = 0;
        settled = 0;
        int start = rankOf[startDetector];
        int goal = rankOf[goalDetector];
        if (start == goal) {
            settled = 1;
            route[0] = startDetector;
            routeLength = 1;
            return 0;
        }
        fromStart[start] = 0;
        toGoal[goal] = 0;
        int x = start;
        int y = goal;
        while (x != y && (x != NONE || y != NONE)) {
            if (x != NONE && (y == NONE || x < y)) {
                relaxUpwards(x);
                x = parent[x];
            } else {
                relaxDownwards(y);
                y = parent[y];
            }
            settled++;
        }
        double best = Double.POSITIVE_INFINITY;
        int meeting = NONE;
        for (int z = x; z != NONE && x == y; z = parent[z]) {
            if (fromStart[z] + toGoal[z] < best) {
                best = fromStart[z] + toGoal[z];
                meeting = z;
            }
            // With non-negative times, a side already at the best can improve nothing above.
            if (fromStart[z] < best) {
                relaxUpwards(z);
            }
            if (toGoal[z] < best) {
                relaxDownwards(z);
            }
            settled += 2;
        }
        double seconds =
                meeting == NONE ? Double.POSITIVE_INFINITY : traceRoute(start, goal, meeting, secondsBySegment);
        for (int z = start; z != NONE; z = parent[z]) {
            fromStart[z] = Double.POSITIVE_INFINITY;
        }
        for (int z = goal; z != NONE; z = parent[z]) {
            toGoal[z] = Double.POSITIVE_INFINITY;
        }
        return seconds;
    }

    /**
     * Arcs the last customization worked on, recomputed or offered a new time (0 when no cost had
     * changed since the query before).
     */
    int lastCustomizedArcs() {
        return lastCustomizedArcs;
    }

    /** Every arc's customized times, upwards then downwards arc by arc: for checks. */
    double[] arcTimes() {
        double[] times = new double[2 * up.length];
        for (int a = 0; a < up.length; a++) {
            times[2 * a] = up[a];
            times[2 * a + 1] = down[a];
        }
        return times;
    }

    /** The hierarchy's size: arcs, triangles and the elimination tree's height. */
    HierarchyShape shape() {
        int height = 0;
        int[] depth = new int[parent.length];
        for (int r = parent.length - 1; r >= 0; r--) {
            depth[r] = parent[r] == NONE ? 1 : depth[parent[r]] + 1;
            height = Math.max(height, depth[r]);
        }
        return new HierarchyShape(parent.length, arcLow.length, triangleLowSide.length, height);
    }

    private void relaxUpwards(int node) {
        double here = fromStart[node];
        for (int a = firstArc[node]; a < firstArc[node + 1]; a++) {
            double there = here + up[a];
            if (there < fromStart[arcHigh[a]]) {
                fromStart[arcHigh[a]] = there;
                forwardArc[arcHigh[a]] = a;
            }
        }
    }

    private void relaxDownwards(int node) {
        double here = toGoal[node];
        for (int a = firstArc[node]; a < firstArc[node + 1]; a++) {
            double there = here + down[a];
            if (there < toGoal[arcHigh[a]]) {
                toGoal[arcHigh[a]] = there;
                backwardArc[arcHigh[a]] = a;
            }
        }
    }

    /** Recomputes an arc's two times from its segments and its lower triangles; true if either changed. */
    private boolean recompute(int arc, double[] secondsBySegment) {
        double bestUp = Double.POSITIVE_INFINITY;
        int bestUpSegment = NONE;
        for (int s = firstUpSegment[arc]; s < firstUpSegment[arc + 1]; s++) {
            if (secondsBySegment[upSegments[s]] < bestUp) {
                bestUp = secondsBySegment[upSegments[s]];
                bestUpSegment = upSegments[s];
            }
        }
        double bestDown = Double.POSITIVE_INFINITY;
        int bestDownSegment = NONE;
        for (int s = firstDownSegment[arc]; s < firstDownSegment[arc + 1]; s++) {
            if (secondsBySegment[downSegments[s]] < bestDown) {
                bestDown = secondsBySegment[downSegments[s]];
                bestDownSegment = downSegments[s];
            }
        }
        int bestUpVia = NONE;
        int bestDownVia = NONE;
        for (int t = firstTriangle[arc]; t < firstTriangle[arc + 1]; t++) {
            int lowSide = triangleLowSide[t];
            int highSide = triangleHighSide[t];
            // Up, low -> high: low -> v down the low side, v -> high up the high side.
            double throughUp = down[lowSide] + up[highSide];
            if (throughUp < bestUp) {
                bestUp = throughUp;
                bestUpVia = t;
            }
            // Down, high -> low: high -> v down the high side, v -> low up the low side.
            double throughDown = down[highSide] + up[lowSide];
            if (throughDown < bestDown) {
                bestDown = throughDown;
                bestDownVia = t;
            }
        }
        boolean changed = Double.compare(bestUp, up[arc]) != 0 || Double.compare(bestDown, down[arc]) != 0;
        up[arc] = bestUp;
        down[arc] = bestDown;
        upVia[arc] = bestUpVia;
        downVia[arc] = bestDownVia;
        upSegment[arc] = bestUpSegment;
        downSegment[arc] = bestDownSegment;
        return changed;
    }

    /**
     * Unpacks the route: the forward chain's arcs from the start to the meeting rank, then the
     * backward chain's to the goal, each down to segments. Where zero-time segments let the route
     * pass a detector twice, the zero-time loop is cut out.
     */
    private double traceRoute(int start, int goal, int meeting, double[] secondsBySegment) {
        if (++routeStamp == Integer.MAX_VALUE) {
            Arrays.fill(onRouteIn, 0);
            routeStamp = 1;
        }
        routeLength = 0;
        append(detectorAt[start], NONE);
        unpackForwardChain(start, meeting);
        for (int z = meeting; z != goal; ) {
            int a = backwardArc[z];
            unpackDown(a);
            z = arcLow[a];
        }
        double seconds = 0;
        for (int i = 1; i < routeLength; i++) {
            seconds += secondsBySegment[routeSegment[i]];
        }
        return seconds;
    }

    /**
     * The forward chain is linked from the meeting rank down to the start; it is unpacked from the
     * start by recursion along it (as deep as the tree is high, at most).
     */
    private void unpackForwardChain(int start, int z) {
        if (z == start) {
            return;
        }
        int a = forwardArc[z];
        unpackForwardChain(start, arcLow[a]);
        unpackUp(a);
    }

    /** Appends the detectors of arc a walked low to high, the low end already on the route. */
    private void unpackUp(int a) {
        int t = upVia[a];
        if (t == NONE) {
            append(detectorAt[arcHigh[a]], upSegment[a]);
        } else {
            unpackDown(triangleLowSide[t]);
            unpackUp(triangleHighSide[t]);
        }
    }

    /** Appends the detectors of arc a walked high to low, the high end already on the route. */
    private void unpackDown(int a) {
        int t = downVia[a];
        if (t == NONE) {
            append(detectorAt[arcLow[a]], downSegment[a]);
        } else {
            unpackDown(triangleHighSide[t]);
            unpackUp(triangleLowSide[t]);
        }
    }

    private void append(int detector, int segmentInto) {
        int position = routePosition[detector];
        if (onRouteIn[detector] == routeStamp && position < routeLength && route[position] == detector) {
            routeLength = position + 1;
            return;
        }
        route[routeLength] = detector;
        routeSegment[routeLength] = segmentInto;
        routePosition[detector] = routeLength;
        onRouteIn[detector] = routeStamp;
        routeLength++;
    }

    /** The arc {low, high} (ranks, low < high), which must exist. */
    private int arc(int low, int high) {
        int found = Arrays.binarySearch(arcHigh, firstArc[low], firstArc[low + 1], high);
        if (found < 0) {
            throw new IllegalStateException("no arc " + low + " -> " + high + " in the hierarchy");
        }
        return found;
    }

    private interface TriangleVisitor {
        void visit(int over, int lowSide, int highSide, int index);
    }

    private void forEachTriangle(TriangleVisitor visitor) {
        int n = firstArc.length - 1;
        int k = 0;
        for (int v = 0; v < n; v++) {
            for (int i = firstArc[v]; i < firstArc[v + 1]; i++) {
                for (int j = i + 1; j < firstArc[v + 1]; j++) {
                    visitor.visit(arc(arcHigh[i], arcHigh[j]), i, j, k++);
                }
            }
        }
    }

    private static int arcOfSegmentCount(CompactDetectorGraph graph) {
        int max = -1;
        for (int node = 0; node < graph.size(); node++) {
            for (int slot = graph.firstOut(node); slot < graph.endOut(node); slot++) {
                max = Math.max(max, graph.segment(slot));
            }
        }
        return max + 1;
    }
}
