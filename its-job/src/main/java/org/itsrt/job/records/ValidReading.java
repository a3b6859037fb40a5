package org.itsrt.job.records;

import java.time.Instant;
import org.itsrt.model.ReadingWindow;
import org.itsrt.records.ReadingRecord;

/**
 * A reading record that passed validation, with the time validation took. A Flink POJO; the
 * arrays are the parsed record's own (nothing downstream changes them).
 */
public class ValidReading {

    public long detector;
    /** Start of the newest reading's interval. */
    public Instant ts;
    /** The 12 flows, oldest first (veh/5 min). */
    public double[] flow;
    /** The 12 speeds, oldest first (mph); NaN = unknown. */
    public double[] speed;

    public long seq;
    public long sentNs;
    public long intendedNs;
    /** A warm-up record (docs/records.md); carried to the advice so the probe can keep it apart. */
    public boolean warmup;
    /** Time spent parsing and validating this record in the job. */
    public long parseNs;
    /** The Kafka record's create time (epoch ms), {@link RawReading#NO_TIMESTAMP} if none: the deadline counts from it. */
    public long createdMs = RawReading.NO_TIMESTAMP;

    /**
     * The record as it came off the topic, kept until the sequence check has passed it so that
     * a reading it rejects is dead-lettered with its original bytes; null after that check.
     */
    public RawReading source;

    public ValidReading() {}

    public static ValidReading of(ReadingRecord record, long parseNs) {
        return of(record, parseNs, null);
    }

    /** @param source the record the reading was read from, for a dead letter of a later check */
    public static ValidReading of(ReadingRecord record, long parseNs, RawReading source) {
        ValidReading r = new ValidReading();
        r.detector = record.detector();
        r.ts = record.ts();
        r.flow = record.flow();
        r.speed = record.speed();
        r.seq = record.seq();
        r.sentNs = record.sentNs();
        r.intendedNs = record.intendedNs();
        r.warmup = record.warmup();
        r.parseNs = parseNs;
        r.source = source;
        r.createdMs = source == null ? RawReading.NO_TIMESTAMP : source.timestampMs;
        return r;
    }

    /** The reading's 12-interval window, as the predictors take it. */
    public ReadingWindow window() {
        return new ReadingWindow(flow, speed, ts);
    }

    /** The newest flow of the window. */
    public double lastFlow() {
        return flow[flow.length - 1];
    }

    /** The newest speed of the window; NaN when unknown. */
    public double lastSpeed() {
        return speed[speed.length - 1];
    }
}
