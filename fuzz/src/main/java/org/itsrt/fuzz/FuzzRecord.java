package org.itsrt.fuzz;

/**
 * One record of a campaign as sent to the readings topic.
 *
 * @param kind     null for a valid reading; else what kind of hostile or unusual record it is
 * @param key      the Kafka key (a detector id, as the producers key readings), or null
 * @param value    the value; null for a record without one
 * @param detector the reading's detector, where the job must advise it (a valid reading or an
 *                 accepted kind); 0 otherwise
 * @param seq      the reading's seq, where the job must advise it
 */
public record FuzzRecord(FuzzKind kind, byte[] key, byte[] value, long detector, long seq) {

    /** Whether the job must advise this record, once. */
    public boolean advised() {
        return kind == null || kind.accepted();
    }

    /** What the report calls this record's kind. */
    public String label() {
        return kind == null ? "valid reading" : kind.label();
    }

    public int size() {
        return value == null ? 0 : value.length;
    }
}
