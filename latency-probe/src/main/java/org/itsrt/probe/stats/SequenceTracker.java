package org.itsrt.probe.stats;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Loss, duplication and order per detector, from the producers' {@code seq} (0, 1, 2, ... per
 * detector).
 *
 * <ul>
 *   <li>lost: seqs in [0, highest seen] never received;</li>
 *   <li>duplicated: a seq received again;</li>
 *   <li>reordered: a first arrival of a seq lower than the highest already seen.</li>
 * </ul>
 * A record lost at the very end of a run (after the highest seq that arrived) cannot be told from
 * one not yet sent; {@link #shortfall(long)} compares against the count the producers announced.
 */
public final class SequenceTracker {

    /** What one arrival was, in sequence terms. */
    public enum Outcome {
        IN_ORDER,
        REORDERED,
        DUPLICATE
    }

    /**
     * One detector's counts.
     *
     * @param received   records received, duplicates included
     * @param distinct   distinct seqs received
     * @param maxSeq     the highest seq received
     */
    public record DetectorCounts(
            long detector, long received, long distinct, long maxSeq, long lost, long duplicated, long reordered) {}

    private static final class Detector {
        final BitSet seen = new BitSet();
        long maxSeq = -1;
        long received;
        long distinct;
        long duplicated;
        long reordered;
    }

    private final Map<Long, Detector> detectors = new HashMap<>();
    /** Of all detectors, kept as records arrive: read after every record by the consume loop. */
    private long distinctTotal;

    /**
     * @param seq a seq >= 0; seqs beyond {@code Integer.MAX_VALUE - 1} are beyond any run this probe
     *            is meant for and are rejected
     */
    public Outcome record(long detector, long seq) {
        if (seq < 0 || seq >= Integer.MAX_VALUE) {
            throw new IllegalArgumentException("seq " + seq + " of detector " + detector + " is out of range");
        }
        Detector d = detectors.computeIfAbsent(detector, id -> new Detector());
        d.received++;
        int index = (int) seq;
        if (d.seen.get(index)) {
            d.duplicated++;
            return Outcome.DUPLICATE;
        }
        d.seen.set(index);
        d.distinct++;
        distinctTotal++;
        if (seq < d.maxSeq) {
            d.reordered++;
            return Outcome.REORDERED;
        }
        d.maxSeq = seq;
        return Outcome.IN_ORDER;
    }

    /**
     * Whether {@code seq} of {@code detector} is among the lost: at or below the detector's highest
     * seq received, and never received itself. A seq of a detector that never delivered, or above
     * its highest, is not (it cannot be told from one not sent yet).
     */
    public boolean isLost(long detector, long seq) {
        Detector d = detectors.get(detector);
        return d != null && seq >= 0 && seq <= d.maxSeq && !d.seen.get((int) seq);
    }

    /** Distinct (detector, seq) pairs so far, all detectors together. */
    public long distinctTotal() {
        return distinctTotal;
    }

    /** Per detector, ordered by detector id. */
    public List<DetectorCounts> perDetector() {
        List<DetectorCounts> counts = new ArrayList<>();
        detectors.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            Detector d = e.getValue();
            counts.add(new DetectorCounts(
                    e.getKey(),
                    d.received,
                    d.distinct,
                    d.maxSeq,
                    d.maxSeq + 1 - d.distinct,
                    d.duplicated,
                    d.reordered));
        });
        return counts;
    }

    /** All detectors together; {@code detector} is -1 and {@code maxSeq} the highest of any. */
    public DetectorCounts total() {
        long received = 0;
        long distinct = 0;
        long maxSeq = -1;
        long lost = 0;
        long duplicated = 0;
        long reordered = 0;
        for (DetectorCounts c : perDetector()) {
            received += c.received();
            distinct += c.distinct();
            maxSeq = Math.max(maxSeq, c.maxSeq());
            lost += c.lost();
            duplicated += c.duplicated();
            reordered += c.reordered();
        }
        return new DetectorCounts(-1, received, distinct, maxSeq, lost, duplicated, reordered);
    }

    /** Records the producers sent (all detectors) that never arrived: {@code expected} minus distinct arrivals, at least 0. */
    public long shortfall(long expected) {
        return Math.max(0, expected - total().distinct());
    }
}
