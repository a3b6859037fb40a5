package org.itsrt.job.records;

import java.time.Instant;
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
    /** Time spent parsing and validating this record in the job. */
    public long parseNs;

    public ValidReading() {}

    public static ValidReading of(ReadingRecord record, long parseNs) {
        ValidReading r = new ValidReading();
        r.detector = record.detector();
        r.ts = record.ts();
        r.flow = record.flow();
        r.speed = record.speed();
        r.seq = record.seq();
        r.sentNs = record.sentNs();
        r.intendedNs = record.intendedNs();
        r.parseNs = parseNs;
        return r;
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
