package org.itsrt.routing.graph;

import org.jgrapht.graph.DefaultEdge;

/**
 * A directed stretch of road between two detectors, an edge of the {@link DetectorGraph}, in the
 * direction of travel.
 *
 * <p>Segments are created only by {@link DetectorGraph.Builder}, which guarantees that
 * {@link #lengthMeters()} is at least the great-circle distance between the two ends.
 * Equality is identity: two segments are the same only if they are the same edge of one graph.
 *
 * <p>It extends JGraphT's {@link DefaultEdge} so that the graph stores each segment's ends in the
 * segment itself; for any other edge class JGraphT looks the ends up in a hash map, which took
 * about a third of a route search's time.
 */
public final class RoadSegment extends DefaultEdge {

    /** What a segment is, which decides how its length was found. */
    public enum Kind {
        /** A stretch of one freeway in one direction, between consecutive stations. */
        FREEWAY,
        /** A connector from one freeway to another where they meet. */
        INTERCHANGE
    }

    private final int index;
    private final Detector from;
    private final Detector to;
    private final double lengthMeters;
    private final Kind kind;
    private final int freeway;

    RoadSegment(int index, Detector from, Detector to, double lengthMeters, Kind kind, int freeway) {
        this.index = index;
        this.from = from;
        this.to = to;
        this.lengthMeters = lengthMeters;
        this.kind = kind;
        this.freeway = freeway;
    }

    /**
     * Position of this segment in {@link DetectorGraph#segments()}, 0-based and dense, so that
     * per-segment values (such as travel times) can live in a plain array.
     */
    public int index() {
        return index;
    }

    /** The upstream end. */
    public Detector from() {
        return from;
    }

    /** The downstream end. */
    public Detector to() {
        return to;
    }

    /** Length along the road in meters, never less than the great-circle distance of the ends. */
    public double lengthMeters() {
        return lengthMeters;
    }

    public Kind kind() {
        return kind;
    }

    /**
     * The freeway this segment runs on: for a freeway segment the freeway of its stretch, for an
     * interchange the freeway it leads onto. Always the freeway of at least one of its ends.
     */
    public int freeway() {
        return freeway;
    }

    @Override
    public String toString() {
        return kind + " " + freeway + " " + from.vdsId() + " -> " + to.vdsId() + " (" + Math.round(lengthMeters)
                + " m)";
    }
}
