package org.itsrt.records;

/**
 * Every JSON field name of the records on the wire (docs/records.md), spelled once. The codec
 * ({@link RecordJson}) and the probe's measurement view ({@link RecordStampsReader}) both switch on
 * these, so a renamed field cannot leave one reader silently looking for the old name.
 *
 * <p>Compile-time constants on purpose: {@code switch} labels and annotation values may use them.
 */
public final class RecordFields {

    /** Record version; every record carries {@link ReadingRecord#VERSION}. */
    public static final String VERSION = "v";

    public static final String DETECTOR = "detector";
    public static final String SEQ = "seq";
    public static final String SENT_NS = "sent_ns";
    public static final String INTENDED_NS = "intended_ns";
    /** {@code true} on a record of the run's warm-up phase; omitted (never {@code false}) otherwise. */
    public static final String WARMUP = "warmup";
    /** Predicted with the cheap engine to meet the deadline (docs/deadlines.md); absent = false. */
    public static final String DEGRADED = "degraded";

    // its.readings only
    public static final String TS = "ts";
    public static final String FLOW = "flow";
    public static final String SPEED = "speed";

    // its.advice only
    public static final String PREDICTED_FLOW = "predicted_flow";
    public static final String MODEL = "model";
    public static final String ROUTE = "route";
    public static final String ROUTE_COST_S = "route_cost_s";
    public static final String PARSE_NS = "parse_ns";
    public static final String INFER_NS = "infer_ns";
    public static final String ROUTE_NS = "route_ns";

    // its.route-requests and its.routes (ROUTE, PARSE_NS and ROUTE_NS as on its.advice)
    /** The traveller who asked: the record's key. */
    public static final String TRAVELLER = "traveller";
    /** The producer stream a request came from; {@link #SEQ} counts per stream. */
    public static final String STREAM = "stream";

    public static final String ORIGIN = "origin";
    public static final String DESTINATION = "destination";
    public static final String DEPARTURE = "departure";
    /** Wall-clock time the request was made (its.route-requests only). */
    public static final String REQUESTED_AT = "requested_at";
    // its.routes only
    public static final String OUTCOME = "outcome";
    public static final String TRAVEL_TIME_S = "travel_time_s";
    public static final String NETWORK_VERSION = "network_version";

    private RecordFields() {}
}
