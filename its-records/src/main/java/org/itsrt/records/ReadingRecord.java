package org.itsrt.records;

import java.time.Instant;
import java.util.Objects;

/**
 * A record on {@code its.readings} (docs/design.md, D2; docs/records.md): one detector's last hour of
 * 5-minute readings, stamped by the producer.
 *
 * @param detector   PeMS VDS id
 * @param ts         start of the newest reading's 5-minute interval (UTC)
 * @param flow       the 12 flows, oldest first (veh/5 min)
 * @param speed      the 12 speeds (mph), oldest first; {@code NaN} = unknown (JSON {@code null})
 * @param seq        per-detector sequence number, from 0, so the probe can tell loss from reordering
 * @param sentNs     producer clock just before {@code send}
 * @param intendedNs when the open-loop schedule meant to send it, on the same clock
 * @param warmup     sent in the run's warm-up phase: the probe keeps it out of the measured statistics
 */
public record ReadingRecord(
        long detector,
        Instant ts,
        double[] flow,
        double[] speed,
        long seq,
        long sentNs,
        long intendedNs,
        boolean warmup) {

    public static final int VERSION = 1;
    public static final int WINDOW = 12;

    public ReadingRecord {
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(flow, "flow");
        Objects.requireNonNull(speed, "speed");
    }

    /** A measured reading: not part of a warm-up. */
    public ReadingRecord(
            long detector, Instant ts, double[] flow, double[] speed, long seq, long sentNs, long intendedNs) {
        this(detector, ts, flow, speed, seq, sentNs, intendedNs, false);
    }

    /** The same record flagged as a warm-up record, or not. */
    public ReadingRecord withWarmup(boolean warmup) {
        return new ReadingRecord(detector, ts, flow, speed, seq, sentNs, intendedNs, warmup);
    }

    /** The same record stamped at send time. */
    public ReadingRecord stamped(long sentNs, long intendedNs) {
        return new ReadingRecord(detector, ts, flow, speed, seq, sentNs, intendedNs, warmup);
    }
}
