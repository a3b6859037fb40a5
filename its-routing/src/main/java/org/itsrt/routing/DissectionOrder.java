package org.itsrt.routing;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The contraction order of a {@link ContractionHierarchy}: a nested dissection of the detector graph
 * by the detectors' positions, computed once per graph and independent of traffic.
 *
 * <p>Why nested dissection. A customizable hierarchy's search from a detector visits exactly its
 * ancestors in the elimination tree, and its customization works through the triangles of the
 * contracted graph; both are small when every detector is contracted before the separators that cut
 * its part of the graph from the rest. A freeway district separates well by geography: a line
 * across the district cuts each freeway that crosses it once per carriageway, a few dozen detectors
 * for thousands.
 *
 * <p>How. Each connected part of the (undirected) graph is split on its own: detectors are sorted
 * along both axes and cut at several quantiles (30 to 70 %); a cut's separator is a smallest vertex
 * cover of the segments that cross it (König's theorem on the bipartite crossing graph, so exact
 * for that cut); the cut with the fewest separator detectors per detector of its smaller side
 * wins. The two sides are ordered first, recursively, and the separator last (highest ranks).
 * Parts of {@value #SMALL_PART} detectors or fewer are ordered by degree, fewest neighbours first.
 */
final class DissectionOrder {

    private static final int SMALL_PART = 4;
    private static final double[] CUT_QUANTILES = {0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7};

    /** Undirected neighbours of detector i are adjacency[first[i]] .. adjacency[first[i + 1] - 1]. */
    private final int[] first;

    private final int[] adjacency;
    private final double[] x;
    private final double[] y;
    /** The part each detector currently belongs to, by a part number; -1 once ordered. */
    private final int[] partOf;

    private final int[] order;
    private int ordered;
    private int nextPart;

    // Scratch of one cut, valid where stamped with the cut's number.
    private final int[] inCut;
    private final boolean[] onLeft;
    private final int[] matchOf;
    private final int[] reachedIn;
    private final int[] separatorIn;
    private final int[] visitedIn;
    private int cutStamp;
    private int augmentRound;

    private DissectionOrder(CompactDetectorGraph graph) {
        int n = graph.size();
        int[][] neighbours = undirectedNeighbours(graph);
        this.first = new int[n + 1];
        for (int i = 0; i < n; i++) {
            first[i + 1] = first[i] + neighbours[i].length;
        }
        this.adjacency = new int[first[n]];
        for (int i = 0; i < n; i++) {
            System.arraycopy(neighbours[i], 0, adjacency, first[i], neighbours[i].length);
        }
        this.x = new double[n];
        this.y = new double[n];
        double meanLatitude = 0;
        for (int i = 0; i < n; i++) {
            meanLatitude += graph.detector(i).latitude() / n;
        }
        double shrink = Math.cos(Math.toRadians(meanLatitude));
        for (int i = 0; i < n; i++) {
            x[i] = graph.detector(i).longitude() * shrink;
            y[i] = graph.detector(i).latitude();
        }
        this.partOf = new int[n];
        this.order = new int[n];
        this.inCut = new int[n];
        this.onLeft = new boolean[n];
        this.matchOf = new int[n];
        this.reachedIn = new int[n];
        this.separatorIn = new int[n];
        this.visitedIn = new int[n];
    }

    /**
     * The contraction rank of each detector index: a permutation of 0..n-1, the separators of the
     * whole graph highest.
     */
    static int[] ranks(CompactDetectorGraph graph) {
        DissectionOrder dissection = new DissectionOrder(graph);
        int n = graph.size();
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        dissection.dissect(all);
        int[] rank = new int[n];
        for (int r = 0; r < n; r++) {
            rank[dissection.order[r]] = r;
        }
        return rank;
    }

    /** Orders the given detectors (all still unordered) after everything ordered so far. */
    private void dissect(int[] part) {
        for (int[] component : components(part)) {
            if (component.length <= SMALL_PART) {
                orderByDegree(component);
                continue;
            }
            int[][] sides = bestCut(component);
            int[] separator = sides[2];
            // The separator is ordered last, but taken out of the part now, so that the sides'
            // components are found without it.
            int separatorLabel = -2 - nextPart++;
            for (int node : separator) {
                partOf[node] = separatorLabel;
            }
            dissect(sides[0]);
            dissect(sides[1]);
            orderByDegree(separator);
        }
    }

    /** The connected components of a part, over segments inside it. */
    private List<int[]> components(int[] part) {
        int label = nextPart++;
        for (int node : part) {
            partOf[node] = label;
        }
        List<int[]> components = new ArrayList<>();
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int seed : part) {
            if (partOf[seed] != label) {
                continue;
            }
            int componentLabel = nextPart++;
            partOf[seed] = componentLabel;
            queue.add(seed);
            List<Integer> members = new ArrayList<>();
            while (!queue.isEmpty()) {
                int node = queue.poll();
                members.add(node);
                for (int k = first[node]; k < first[node + 1]; k++) {
                    int next = adjacency[k];
                    if (partOf[next] == label) {
                        partOf[next] = componentLabel;
                        queue.add(next);
                    }
                }
            }
            components.add(members.stream().mapToInt(Integer::intValue).toArray());
        }
        return components;
    }

    /** {left side, right side, separator} of the best cut of a connected part. */
    private int[][] bestCut(int[] component) {
        int[][] best = null;
        double bestScore = Double.POSITIVE_INFINITY;
        for (double[] axis : new double[][] {x, y}) {
            Integer[] sorted = Arrays.stream(component).boxed().toArray(Integer[]::new);
            Arrays.sort(sorted, (a, b) -> Double.compare(axis[a], axis[b]));
            for (double quantile : CUT_QUANTILES) {
                int cut = (int) Math.round(quantile * sorted.length);
                if (cut <= 0 || cut >= sorted.length) {
                    continue;
                }
                int[][] sides = separate(sorted, cut);
                int smaller = Math.min(sides[0].length, sides[1].length);
                double score = smaller == 0 ? Double.POSITIVE_INFINITY : (double) sides[2].length / smaller;
                if (score < bestScore) {
                    bestScore = score;
                    best = sides;
                }
            }
        }
        if (best == null) {
            // Only for degenerate parts (every detector at one point): peel one detector off.
            int[] rest = Arrays.copyOfRange(component, 1, component.length);
            return new int[][] {rest, new int[0], {component[0]}};
        }
        return best;
    }

    /**
     * Cuts the sorted detectors before position cut and separates the two sides by a smallest
     * vertex cover of the segments that cross: a maximum matching of the crossing graph by
     * augmenting paths, then König's construction. Marks are stamped per call, not cleared.
     */
    private int[][] separate(Integer[] sorted, int cut) {
        int stamp = ++cutStamp;
        for (int i = 0; i < sorted.length; i++) {
            inCut[sorted[i]] = stamp;
            onLeft[sorted[i]] = i < cut;
            matchOf[sorted[i]] = -1;
        }
        List<Integer> crossingLeft = new ArrayList<>();
        for (int i = 0; i < cut; i++) {
            int node = sorted[i];
            for (int k = first[node]; k < first[node + 1]; k++) {
                if (isRight(adjacency[k], stamp)) {
                    crossingLeft.add(node);
                    break;
                }
            }
        }
        for (int node : crossingLeft) {
            augmentRound++;
            augment(node, stamp);
        }
        // König: from unmatched left detectors, alternate crossing (unmatched) and matched segments;
        // the cover is the left detectors not reached and the right detectors reached.
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int node : crossingLeft) {
            if (matchOf[node] == -1) {
                reachedIn[node] = stamp;
                queue.add(node);
            }
        }
        while (!queue.isEmpty()) {
            int node = queue.poll();
            for (int k = first[node]; k < first[node + 1]; k++) {
                int next = adjacency[k];
                if (isRight(next, stamp) && reachedIn[next] != stamp) {
                    reachedIn[next] = stamp;
                    int back = matchOf[next];
                    if (back != -1 && reachedIn[back] != stamp) {
                        reachedIn[back] = stamp;
                        queue.add(back);
                    }
                }
            }
        }
        for (int node : crossingLeft) {
            if (reachedIn[node] != stamp) {
                separatorIn[node] = stamp;
            }
            for (int k = first[node]; k < first[node + 1]; k++) {
                int next = adjacency[k];
                if (isRight(next, stamp) && reachedIn[next] == stamp) {
                    separatorIn[next] = stamp;
                }
            }
        }
        List<Integer> leftSide = new ArrayList<>();
        List<Integer> rightSide = new ArrayList<>();
        List<Integer> separator = new ArrayList<>();
        for (int node : sorted) {
            (separatorIn[node] == stamp ? separator : onLeft[node] ? leftSide : rightSide).add(node);
        }
        return new int[][] {toArray(leftSide), toArray(rightSide), toArray(separator)};
    }

    private boolean isRight(int node, int stamp) {
        return inCut[node] == stamp && !onLeft[node];
    }

    /** Kuhn's augmenting path from a left detector over crossing segments. */
    private boolean augment(int node, int stamp) {
        for (int k = first[node]; k < first[node + 1]; k++) {
            int next = adjacency[k];
            if (!isRight(next, stamp) || visitedIn[next] == augmentRound) {
                continue;
            }
            visitedIn[next] = augmentRound;
            if (matchOf[next] == -1 || augment(matchOf[next], stamp)) {
                matchOf[next] = node;
                matchOf[node] = next;
                return true;
            }
        }
        return false;
    }

    private void orderByDegree(int[] nodes) {
        Integer[] sorted = Arrays.stream(nodes).boxed().toArray(Integer[]::new);
        Arrays.sort(sorted, (a, b) -> Integer.compare(first[a + 1] - first[a], first[b + 1] - first[b]));
        for (int node : sorted) {
            order[ordered++] = node;
            partOf[node] = -1;
        }
    }

    private static int[][] undirectedNeighbours(CompactDetectorGraph graph) {
        int n = graph.size();
        List<List<Integer>> sets = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            sets.add(new ArrayList<>());
        }
        for (int node = 0; node < n; node++) {
            for (int slot = graph.firstOut(node); slot < graph.endOut(node); slot++) {
                int head = graph.head(slot);
                if (head != node) {
                    sets.get(node).add(head);
                    sets.get(head).add(node);
                }
            }
        }
        int[][] neighbours = new int[n][];
        for (int i = 0; i < n; i++) {
            neighbours[i] = sets.get(i).stream()
                    .mapToInt(Integer::intValue)
                    .distinct()
                    .sorted()
                    .toArray();
        }
        return neighbours;
    }

    private static int[] toArray(List<Integer> list) {
        return list.stream().mapToInt(Integer::intValue).toArray();
    }
}
