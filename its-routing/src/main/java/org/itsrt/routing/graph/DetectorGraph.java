package org.itsrt.routing.graph;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jgrapht.Graph;
import org.jgrapht.graph.AsUnmodifiableGraph;
import org.jgrapht.graph.SimpleDirectedGraph;

/**
 * The road network as a directed graph of detectors ({@link Detector}) joined by road segments
 * ({@link RoadSegment}) in the direction of travel, with lookup by VDS id. Immutable once built.
 *
 * <p>Every segment's length is at least the great-circle distance of its ends. This is half of
 * what makes the A* heuristic (great-circle distance over the top speed) admissible and consistent,
 * so {@link Builder#addSegment} <em>rejects</em> a shorter length rather than raising it: a
 * segment shorter than the straight line between its ends means the length or the coordinates are
 * wrong, and silently repairing it would hide bad input. Builders that derive lengths from data
 * known to be approximate (postmiles) take the larger of the two themselves, where the reason is
 * visible ({@link MetaGraphBuilder}).
 *
 * <p>The graph is simple: no segment from a detector to itself, at most one segment per ordered
 * pair of detectors.
 */
public final class DetectorGraph {

    private final Graph<Detector, RoadSegment> graph;
    private final Map<Long, Detector> detectorsById;
    private final List<Detector> detectors;
    private final List<RoadSegment> segments;

    private DetectorGraph(
            Graph<Detector, RoadSegment> graph, Map<Long, Detector> detectorsById, List<RoadSegment> segments) {
        this.graph = new AsUnmodifiableGraph<>(graph);
        this.detectorsById = Collections.unmodifiableMap(detectorsById);
        this.detectors = List.copyOf(detectorsById.values());
        this.segments = List.copyOf(segments);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The network as a read-only JGraphT graph; its edge weights are not meaningful. */
    public Graph<Detector, RoadSegment> graph() {
        return graph;
    }

    /** All detectors, in the order they were added. */
    public List<Detector> detectors() {
        return detectors;
    }

    /** All segments, ordered by {@link RoadSegment#index()}. */
    public List<RoadSegment> segments() {
        return segments;
    }

    public boolean contains(long vdsId) {
        return detectorsById.containsKey(vdsId);
    }

    public Optional<Detector> detector(long vdsId) {
        return Optional.ofNullable(detectorsById.get(vdsId));
    }

    /** The detector with this VDS id; an {@link IllegalArgumentException} naming it if absent. */
    public Detector requireDetector(long vdsId) {
        Detector detector = detectorsById.get(vdsId);
        if (detector == null) {
            throw new IllegalArgumentException("no detector with VDS id " + vdsId + " in this graph");
        }
        return detector;
    }

    /** Collects detectors and segments, checks each as it is added, and builds the graph once. */
    public static final class Builder {

        private final Graph<Detector, RoadSegment> graph = new SimpleDirectedGraph<>(null, null, false);
        private final Map<Long, Detector> detectorsById = new LinkedHashMap<>();
        private final List<RoadSegment> segments = new ArrayList<>();
        private boolean built;

        private Builder() {}

        /** Adds a detector; its VDS id must be new to this graph. */
        public Builder addDetector(Detector detector) {
            requireNotBuilt();
            Detector previous = detectorsById.putIfAbsent(detector.vdsId(), detector);
            if (previous != null) {
                throw new IllegalArgumentException(
                        "duplicate VDS id " + detector.vdsId() + ": " + previous + " and " + detector);
            }
            graph.addVertex(detector);
            return this;
        }

        public boolean hasSegment(long fromVdsId, long toVdsId) {
            Detector from = detectorsById.get(fromVdsId);
            Detector to = detectorsById.get(toVdsId);
            return from != null && to != null && graph.containsEdge(from, to);
        }

        /**
         * Adds a segment between two detectors already added.
         *
         * @param lengthMeters length along the road; must be at least the great-circle distance
         *                     between the two detectors ({@link GreatCircle}), else rejected
         * @param freeway      the freeway the segment runs on; must be the freeway of one of its ends
         * @throws IllegalArgumentException naming the segment, for an unknown detector, a loop, a
         *                                  second segment between the same ordered pair, a length
         *                                  below the great-circle distance, or a foreign freeway
         */
        public Builder addSegment(
                long fromVdsId, long toVdsId, double lengthMeters, RoadSegment.Kind kind, int freeway) {
            requireNotBuilt();
            Objects.requireNonNull(kind, "kind");
            Detector from = requireDetector(fromVdsId, fromVdsId, toVdsId);
            Detector to = requireDetector(toVdsId, fromVdsId, toVdsId);
            String name = "segment " + fromVdsId + " -> " + toVdsId;
            if (fromVdsId == toVdsId) {
                throw new IllegalArgumentException(name + ": a segment must join two different detectors");
            }
            if (graph.containsEdge(from, to)) {
                throw new IllegalArgumentException(name + ": already in the graph");
            }
            if (!Double.isFinite(lengthMeters) || lengthMeters < 0) {
                throw new IllegalArgumentException(
                        name + ": length " + lengthMeters + " m; expected a finite number of meters >= 0");
            }
            double greatCircle = GreatCircle.meters(from, to);
            // Zero passes only between detectors at the same coordinates (co-located stations).
            if (lengthMeters < greatCircle) {
                throw new IllegalArgumentException(name + ": length " + lengthMeters
                        + " m must be finite and at least the great-circle distance of its ends, "
                        + greatCircle + " m");
            }
            if (freeway != from.freeway() && freeway != to.freeway()) {
                throw new IllegalArgumentException(name + ": freeway " + freeway
                        + " is neither the upstream detector's (" + from.freeway()
                        + ") nor the downstream one's (" + to.freeway() + ")");
            }
            RoadSegment segment = new RoadSegment(segments.size(), from, to, lengthMeters, kind, freeway);
            graph.addEdge(from, to, segment);
            segments.add(segment);
            return this;
        }

        public DetectorGraph build() {
            requireNotBuilt();
            built = true;
            return new DetectorGraph(graph, detectorsById, segments);
        }

        private Detector requireDetector(long vdsId, long fromVdsId, long toVdsId) {
            Detector detector = detectorsById.get(vdsId);
            if (detector == null) {
                throw new IllegalArgumentException(
                        "segment " + fromVdsId + " -> " + toVdsId + ": detector " + vdsId + " has not been added");
            }
            return detector;
        }

        private void requireNotBuilt() {
            if (built) {
                throw new IllegalStateException("this builder has already built its graph");
            }
        }
    }
}
