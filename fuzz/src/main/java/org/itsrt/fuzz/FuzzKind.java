package org.itsrt.fuzz;

/**
 * The kinds of hostile or unusual record a campaign sends (docs/fuzz.md), each with what the job
 * must make of it: a dead letter whose reason has the given category
 * ({@link org.itsrt.records.DeadLetterHeaders#category}), or, for an edge case the format accepts,
 * advice like any valid reading.
 */
public enum FuzzKind {
    NOT_JSON("not JSON", "not valid JSON", false),
    TRUNCATED_JSON("truncated JSON", "truncated JSON", false),
    BINARY_GARBAGE("binary garbage", "not UTF-8", false),
    INVALID_UTF8("invalid UTF-8 in a valid reading", "not UTF-8", false),
    EMPTY_VALUE("empty value (0 bytes)", "empty record", false),
    NULL_VALUE("no value (null)", "record has no value", false),
    RECORD_900KB("900 kB record", "record too large", true),
    ARRAY_100K("100,000-element flow array", "field flow", true),
    NESTED_100K("JSON nested 100,000 levels deep", "JSON nested too deep", true),
    NAN("NaN flow", "non-finite number", false),
    INFINITY("Infinity speed", "non-finite number", false),
    HUGE_NUMBER("1e308 flow", "field flow", false),
    NEGATIVE("negative flow", "field flow", false),
    ABSURD("absurd speed (5,000 mph)", "field speed", false),
    WRONG_TYPE("wrong type (detector as a string)", "field detector", false),
    MISSING_FIELD("missing field (seq)", "field seq", false),
    DUPLICATE_KEY("duplicate key (seq twice)", "duplicate field", false),
    UNKNOWN_DETECTOR("unknown detector", "unknown detector", false),
    WRONG_VERSION("wrong version (v=2)", "field v", false),
    SEQ_BACKWARDS("seq going backwards or repeated", "seq not increasing", false),
    EXTRA_FIELDS("extra unknown fields (accepted)", null, false),
    FUTURE_SEND_TIME("send time in the future (accepted)", null, false);

    private final String label;
    private final String reasonCategory;
    private final boolean large;

    FuzzKind(String label, String reasonCategory, boolean large) {
        this.label = label;
        this.reasonCategory = reasonCategory;
        this.large = large;
    }

    /** What the report calls it. */
    public String label() {
        return label;
    }

    /** Whether the job must accept it as a reading and advise it. */
    public boolean accepted() {
        return reasonCategory == null;
    }

    /** The category the dead letter's reason must have; null for an accepted kind. */
    public String reasonCategory() {
        return reasonCategory;
    }

    /**
     * Records of 100 kB and more: a campaign sends a few of them (one per thousand records, at
     * least one), so that a run's volume stays what a broker on this host takes in minutes.
     */
    public boolean large() {
        return large;
    }
}
