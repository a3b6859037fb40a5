package org.itsrt.routing;

import java.util.Arrays;
import java.util.List;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.RoadSegment;

/**
 * A {@link DetectorGraph} as flat arrays, the form the landmark search runs on: detectors numbered
 * 0..n-1 in the order of {@link DetectorGraph#detectors()} (the <em>detector index</em>), and each
 * detector's outgoing segments in compressed sparse row (CSR) form, as the head's detector index
 * and the segment's {@link RoadSegment#index()} (which addresses the router's cost array); and
 * the incoming segments likewise (tail and segment), for searches that run backwards from the goal.
 *
 * <p>Why not the JGraphT graph: walking its edge sets and hashing detectors per step is most of a
 * search's time on a road graph, and each of those steps allocates. Built once per graph; the
 * graph is immutable, so this copy never goes stale.
 *
 * <p>VDS ids are looked up by binary search in a sorted array rather than in a map keyed by
 * {@code Long}, so that a query by VDS id allocates nothing.
 */
final class CompactDetectorGraph {

    private final Detector[] detectors;
    private final long[] vdsIdsAscending;
    private final int[] indexByAscendingId;
    /** Outgoing segments of detector i are the slots firstOut[i] .. firstOut[i + 1] - 1. */
    private final int[] firstOut;

    private final int[] headBySlot;
    private final int[] segmentBySlot;
    /** Incoming segments of detector i are the in-slots firstIn[i] .. firstIn[i + 1] - 1. */
    private final int[] firstIn;

    private final int[] tailByInSlot;
    private final int[] segmentByInSlot;

    CompactDetectorGraph(DetectorGraph network) {
        List<Detector> detectorList = network.detectors();
        int n = detectorList.size();
        this.detectors = detectorList.toArray(new Detector[0]);

        Integer[] byId = new Integer[n];
        for (int i = 0; i < n; i++) {
            byId[i] = i;
        }
        Arrays.sort(byId, (a, b) -> Long.compare(detectors[a].vdsId(), detectors[b].vdsId()));
        this.vdsIdsAscending = new long[n];
        this.indexByAscendingId = new int[n];
        for (int k = 0; k < n; k++) {
            vdsIdsAscending[k] = detectors[byId[k]].vdsId();
            indexByAscendingId[k] = byId[k];
        }

        List<RoadSegment> segments = network.segments();
        this.firstOut = new int[n + 1];
        int[] tails = new int[segments.size()];
        for (RoadSegment segment : segments) {
            int tail = requireIndex(segment.from().vdsId());
            tails[segment.index()] = tail;
            firstOut[tail + 1]++;
        }
        for (int i = 0; i < n; i++) {
            firstOut[i + 1] += firstOut[i];
        }
        this.headBySlot = new int[segments.size()];
        this.segmentBySlot = new int[segments.size()];
        int[] nextSlot = Arrays.copyOf(firstOut, n);
        for (RoadSegment segment : segments) {
            int slot = nextSlot[tails[segment.index()]]++;
            headBySlot[slot] = requireIndex(segment.to().vdsId());
            segmentBySlot[slot] = segment.index();
        }

        this.firstIn = new int[n + 1];
        int[] heads = new int[segments.size()];
        for (RoadSegment segment : segments) {
            int head = requireIndex(segment.to().vdsId());
            heads[segment.index()] = head;
            firstIn[head + 1]++;
        }
        for (int i = 0; i < n; i++) {
            firstIn[i + 1] += firstIn[i];
        }
        this.tailByInSlot = new int[segments.size()];
        this.segmentByInSlot = new int[segments.size()];
        int[] nextInSlot = Arrays.copyOf(firstIn, n);
        for (RoadSegment segment : segments) {
            int slot = nextInSlot[heads[segment.index()]]++;
            tailByInSlot[slot] = tails[segment.index()];
            segmentByInSlot[slot] = segment.index();
        }
    }

    /** Number of detectors. */
    int size() {
        return detectors.length;
    }

    /** The detector index of a VDS id, or -1 when the graph has no such detector. */
    int indexOf(long vdsId) {
        int found = Arrays.binarySearch(vdsIdsAscending, vdsId);
        return found >= 0 ? indexByAscendingId[found] : -1;
    }

    /** The detector index of a VDS id; an {@link IllegalArgumentException} naming it if absent. */
    int requireIndex(long vdsId) {
        int index = indexOf(vdsId);
        if (index < 0) {
            throw new IllegalArgumentException("no detector with VDS id " + vdsId + " in this graph");
        }
        return index;
    }

    Detector detector(int index) {
        return detectors[index];
    }

    long vdsId(int index) {
        return detectors[index].vdsId();
    }

    /** First slot of a detector's outgoing segments. */
    int firstOut(int detector) {
        return firstOut[detector];
    }

    /** One past the last slot of a detector's outgoing segments. */
    int endOut(int detector) {
        return firstOut[detector + 1];
    }

    /** The detector index a slot's segment leads to. */
    int head(int slot) {
        return headBySlot[slot];
    }

    /** The {@link RoadSegment#index()} of a slot's segment. */
    int segment(int slot) {
        return segmentBySlot[slot];
    }

    /** First in-slot of a detector's incoming segments (the reverse CSR, for backward searches). */
    int firstIn(int detector) {
        return firstIn[detector];
    }

    /** One past the last in-slot of a detector's incoming segments. */
    int endIn(int detector) {
        return firstIn[detector + 1];
    }

    /** The detector index an in-slot's segment comes from. */
    int tail(int inSlot) {
        return tailByInSlot[inSlot];
    }

    /** The {@link RoadSegment#index()} of an in-slot's segment. */
    int inSegment(int inSlot) {
        return segmentByInSlot[inSlot];
    }
}
