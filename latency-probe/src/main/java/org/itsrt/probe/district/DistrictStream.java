package org.itsrt.probe.district;

import org.itsrt.probe.report.RunInfo;

/**
 * The two streams of the district workload the probe measures apart. Each has its own figures
 * and its own folder in the run folder; they are never mixed.
 */
public enum DistrictStream {
    /**
     * A reading and its prediction on {@code its.predictions}: latency from the reading's stamps
     * to the prediction's arrival, loss and duplicates by {@code seq} per detector.
     */
    PREDICTIONS("predictions", "readings -> predictions", RunInfo.DETECTOR),
    /**
     * A route request and its answer on {@code its.routes}: latency from the request's stamps to
     * the answer's arrival, loss and duplicates by {@code seq} per request stream.
     */
    ROUTES("routes", "requests -> answers", RunInfo.REQUEST_STREAM);

    private final String folder;
    private final String measures;
    private final String source;

    DistrictStream(String folder, String measures, String source) {
        this.folder = folder;
        this.measures = measures;
        this.source = source;
    }

    /** Its folder in the run folder, and its name in reports and progress lines. */
    public String folder() {
        return folder;
    }

    /** What it measures, from what to what, e.g. {@code requests -> answers}. */
    public String measures() {
        return measures;
    }

    /** What its {@code seq} counts per: a detector, or a request stream. */
    public String source() {
        return source;
    }
}
