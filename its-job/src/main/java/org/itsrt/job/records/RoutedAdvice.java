package org.itsrt.job.records;

/**
 * The advice for one reading before it is written as JSON: the input's identity and stamps, the
 * prediction, the route and the stage times. The route is a primitive array (a {@code List}
 * would fall back to Kryo). A Flink POJO.
 */
public class RoutedAdvice {

    public long detector;
    public long seq;
    public long sentNs;
    public long intendedNs;
    /** The reading was a warm-up record. */
    public boolean warmup;

    public double predictedFlow;
    /** VDS ids, origin first; empty from the identity step. */
    public long[] route;

    public double routeCostS;
    public long parseNs;
    public long inferNs;
    /** The prediction was degraded to the cheap engine (docs/deadlines.md). */
    public boolean degraded;

    public long routeNs;

    public RoutedAdvice() {}

    public static RoutedAdvice of(PredictedFlow p, long[] route, double routeCostS, long routeNs) {
        RoutedAdvice a = new RoutedAdvice();
        a.detector = p.detector;
        a.seq = p.seq;
        a.sentNs = p.sentNs;
        a.intendedNs = p.intendedNs;
        a.warmup = p.warmup;
        a.predictedFlow = p.predictedFlow;
        a.route = route;
        a.routeCostS = routeCostS;
        a.parseNs = p.parseNs;
        a.inferNs = p.inferNs;
        a.routeNs = routeNs;
        a.degraded = p.degraded;
        return a;
    }
}
