package org.itsrt.probe.report;

import org.itsrt.probe.arrival.Arrival;
import org.itsrt.probe.arrival.ArrivalSink;
import org.itsrt.probe.stats.SequenceTracker;

/**
 * The points of the latency-over-time plot, in bounded memory: every record while there are few,
 * then every k-th (k doubling whenever the buffer fills), plus every record above the SLO so the
 * tail is always drawn in full (up to a cap of its own), plus every duplicated record (a replay
 * after a failover shows as such), up to a cap of their own.
 */
public final class TimelinePoints implements ArrivalSink {

    /** Most regular points kept; a plot with more shows nothing more. */
    static final int CAPACITY = 50_000;

    /** Most points above the SLO kept. */
    static final int TAIL_CAPACITY = 50_000;

    /** Most duplicated records kept. */
    static final int DUPLICATE_CAPACITY = 50_000;

    /** One point set: arrival offset (s), latency from sent and from intended (ms, NaN when absent). */
    public static final class Points {
        float[] seconds;
        float[] fromSentMs;
        float[] fromIntendedMs;
        int size;

        Points(int capacity) {
            seconds = new float[capacity];
            fromSentMs = new float[capacity];
            fromIntendedMs = new float[capacity];
        }

        void add(float s, float sent, float intended) {
            seconds[size] = s;
            fromSentMs[size] = sent;
            fromIntendedMs[size] = intended;
            size++;
        }

        public int size() {
            return size;
        }

        public float seconds(int i) {
            return seconds[i];
        }

        public float fromSentMs(int i) {
            return fromSentMs[i];
        }

        public float fromIntendedMs(int i) {
            return fromIntendedMs[i];
        }
    }

    private final long sloNs;
    private final Points regular = new Points(CAPACITY);
    private final Points tail = new Points(TAIL_CAPACITY);
    private final Points duplicates = new Points(DUPLICATE_CAPACITY);
    /** Its own tracker: sinks see each arrival independently, and a bit per seq is cheap. */
    private final SequenceTracker sequences = new SequenceTracker();

    private long stride = 1;
    private long seen;
    private long firstArrivalNs;
    private long tailDropped;
    private long duplicatesDropped;

    public TimelinePoints(long sloNs) {
        this.sloNs = sloNs;
    }

    @Override
    public void arrived(Arrival a) {
        if (seen == 0) {
            firstArrivalNs = a.arrivalNs();
        }
        float s = (float) ((a.arrivalNs() - firstArrivalNs) / 1e9);
        float sent = (float) (a.latencyFromSentNs() / 1e6);
        float intended = a.hasIntended() ? (float) (a.latencyFromIntendedNs() / 1e6) : Float.NaN;
        boolean aboveSlo = a.latencyFromSentNs() > sloNs || (a.hasIntended() && a.latencyFromIntendedNs() > sloNs);
        if (sequences.record(a.detector(), a.seq()) == SequenceTracker.Outcome.DUPLICATE) {
            if (duplicates.size < DUPLICATE_CAPACITY) {
                duplicates.add(s, sent, intended);
            } else {
                duplicatesDropped++;
            }
        } else if (aboveSlo) {
            if (tail.size < TAIL_CAPACITY) {
                tail.add(s, sent, intended);
            } else {
                tailDropped++;
            }
        } else if (seen % stride == 0) {
            if (regular.size == CAPACITY) {
                halve();
            }
            if (seen % stride == 0) {
                regular.add(s, sent, intended);
            }
        }
        seen++;
    }

    /** Keeps every other regular point and doubles the stride. */
    private void halve() {
        int kept = 0;
        for (int i = 0; i < regular.size; i += 2) {
            regular.seconds[kept] = regular.seconds[i];
            regular.fromSentMs[kept] = regular.fromSentMs[i];
            regular.fromIntendedMs[kept] = regular.fromIntendedMs[i];
            kept++;
        }
        regular.size = kept;
        stride *= 2;
    }

    /** Points at or below the SLO, one in {@link #stride()} records. */
    public Points regular() {
        return regular;
    }

    /** Points above the SLO, all of them unless more than the cap arrived. */
    public Points tail() {
        return tail;
    }

    /** Records that arrived again (same detector and seq), all of them unless more than the cap arrived. */
    public Points duplicates() {
        return duplicates;
    }

    /** One regular point is kept per this many records at or below the SLO. */
    public long stride() {
        return stride;
    }

    /** Records above the SLO not drawn because the tail cap was reached. */
    public long tailDropped() {
        return tailDropped;
    }

    /** Duplicated records not drawn because their cap was reached. */
    public long duplicatesDropped() {
        return duplicatesDropped;
    }
}
