package org.itsrt.records;

/**
 * The pipeline's Kafka topics by their default names. Producer, job, probe, the local broker and
 * the demo all default to these, so a run started from any of them meets the others on the same
 * topics; each command still takes its topic as an option.
 */
public final class Topics {

    /** What the producers send and the job reads ({@link ReadingRecord}). */
    public static final String READINGS = "its.readings";
    /** What the job writes and the probe measures ({@link AdviceRecord}). */
    public static final String ADVICE = "its.advice";
    /** Input records the job could not read, with {@link DeadLetterHeaders}. */
    public static final String DEAD_LETTERS = "its.dead-letters";

    /**
     * The job's predicted flow per reading, without a route ({@link PredictionRecord}): the
     * district workload's "reading to prediction" output, where routes answer requests instead.
     */
    public static final String PREDICTIONS = "its.predictions";
    /** Travellers' route requests, which the job answers ({@link RouteRequestRecord}). */
    public static final String ROUTE_REQUESTS = "its.route-requests";
    /** The job's answer to each route request ({@link RouteRecord}). */
    public static final String ROUTES = "its.routes";

    /**
     * The study's topics ({@link Workload#topics()} of {@link Workload#STUDY}) as one
     * comma-separated constant, for picocli {@code defaultValue}s.
     */
    public static final String PIPELINE_CSV = READINGS + "," + ADVICE + "," + DEAD_LETTERS;

    private Topics() {}
}
