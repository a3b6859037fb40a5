package org.itsrt.records;

/**
 * Kafka header names of a record on {@link Topics#DEAD_LETTERS}. The record's value is the
 * original bytes, untouched; these headers (UTF-8 text) say why it was rejected and where it came
 * from, so it can be found and replayed. The job writes them and the demo reads them back.
 */
public final class DeadLetterHeaders {

    /** Why the record was rejected: a {@link RecordFormatException}'s message. */
    public static final String REASON = "reason";

    public static final String SOURCE_TOPIC = "error.source.topic";
    public static final String SOURCE_PARTITION = "error.source.partition";
    public static final String SOURCE_OFFSET = "error.source.offset";

    private DeadLetterHeaders() {}

    /**
     * The category of a reason: the part before the first {@code ": "}, which names the field
     * ({@code field seq}) or the kind of problem ({@code not valid JSON}, {@code duplicate field},
     * {@code unknown detector}); the rest is the detail of one record. Reports count by it.
     */
    public static String category(String reason) {
        if (reason == null) {
            return "(no reason)";
        }
        int colon = reason.indexOf(": ");
        return colon < 0 ? reason : reason.substring(0, colon);
    }
}
