package org.itsrt.job.records;

import java.time.Instant;

/**
 * A valid reading reduced to what routing and the advice need, with the predicted next flow.
 * The windows are dropped here: this crosses the network to the route operator, so it carries
 * only scalars. A Flink POJO.
 */
public class PredictedFlow {

    public long detector;
    public Instant ts;
    public long seq;
    public long sentNs;
    public long intendedNs;
    /** The reading was a warm-up record. */
    public boolean warmup;
    /** The newest observed speed (mph); NaN = unknown. */
    public double speedMph;
    /** The predicted flow of the next interval (veh/5 min). */
    public double predictedFlow;

    public long parseNs;
    public long inferNs;
    /** Predicted by the cheap engine because the LSTM would have missed the deadline (docs/deadlines.md). */
    public boolean degraded;

    public PredictedFlow() {}

    public static PredictedFlow of(ValidReading reading, double predictedFlow, long inferNs, boolean degraded) {
        PredictedFlow p = of(reading, predictedFlow, inferNs);
        p.degraded = degraded;
        return p;
    }

    public static PredictedFlow of(ValidReading reading, double predictedFlow, long inferNs) {
        PredictedFlow p = new PredictedFlow();
        p.detector = reading.detector;
        p.ts = reading.ts;
        p.seq = reading.seq;
        p.sentNs = reading.sentNs;
        p.intendedNs = reading.intendedNs;
        p.warmup = reading.warmup;
        p.speedMph = reading.lastSpeed();
        p.predictedFlow = predictedFlow;
        p.parseNs = reading.parseNs;
        p.inferNs = inferNs;
        return p;
    }
}
