package org.itsrt.job.records;

import java.time.Instant;
import java.util.Objects;
import org.itsrt.routing.DetectorConditions;
import org.itsrt.routing.RouteAdvisor;

/**
 * One detector's latest conditions as the route operators share them: observed speed and
 * predicted flow, stamped with the reading they came from. Which of two updates is newer is
 * decided by the reading's time, then its sequence number, never by arrival ({@link RouteAdvisor#isNewer}),
 * so that every route subtask ends with the same network view whatever order the updates reached it in.
 * A Flink POJO.
 */
public class ConditionUpdate {

    public long detector;
    public Instant ts;
    public long seq;
    /** mph; NaN = unknown. */
    public double speedMph;
    /** veh/5 min. */
    public double predictedFlow;

    public ConditionUpdate() {}

    public ConditionUpdate(long detector, Instant ts, long seq, double speedMph, double predictedFlow) {
        this.detector = detector;
        this.ts = ts;
        this.seq = seq;
        this.speedMph = speedMph;
        this.predictedFlow = predictedFlow;
    }

    public static ConditionUpdate of(PredictedFlow p) {
        return new ConditionUpdate(p.detector, p.ts, p.seq, p.speedMph, p.predictedFlow);
    }

    /** True when this update comes from a later reading than {@code other} (null counts as oldest). */
    public boolean isNewerThan(ConditionUpdate other) {
        return other == null || RouteAdvisor.isNewer(ts, seq, other.ts, other.seq);
    }

    /** The router's view of these conditions. */
    public DetectorConditions conditions() {
        return new DetectorConditions(speedMph, predictedFlow);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConditionUpdate that
                && detector == that.detector
                && seq == that.seq
                && Objects.equals(ts, that.ts)
                && Double.compare(speedMph, that.speedMph) == 0
                && Double.compare(predictedFlow, that.predictedFlow) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(detector, ts, seq, speedMph, predictedFlow);
    }

    @Override
    public String toString() {
        return "ConditionUpdate[detector=" + detector + ", ts=" + ts + ", seq=" + seq + ", speedMph=" + speedMph
                + ", predictedFlow=" + predictedFlow + "]";
    }
}
