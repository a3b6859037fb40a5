package org.itsrt.job.records;

/**
 * A record the job could not use: its original bytes and why, for the dead-letter topic
 * (docs/records.md). A Flink POJO.
 *
 * <p>A dead letter must always fit the sink's requests, or writing it would fail the job: a value
 * above {@link #MAX_VALUE_BYTES} is cut to that length and the reason says so with the original's
 * size, and a reason is at most {@link #MAX_REASON_CHARS} long.
 */
public class DeadLetter {

    /**
     * The largest value a dead letter carries whole. Kafka's producer and broker take requests and
     * records of up to 1 MiB by default ({@code max.request.size}, {@code message.max.bytes}); this
     * leaves room for the headers and the record batch's own overhead within that.
     */
    public static final int MAX_VALUE_BYTES = 1_000_000;

    /** Reasons are short; a longer one (a parser quoting a long token) is cut. */
    public static final int MAX_REASON_CHARS = 1_000;

    /** The input record's value, as it was read; null when it had none. */
    public byte[] value;

    public String reason;
    public String sourceTopic;
    public int sourcePartition;
    public long sourceOffset;

    public DeadLetter() {}

    public DeadLetter(RawReading raw, String reason) {
        String why = reason.length() <= MAX_REASON_CHARS ? reason : reason.substring(0, MAX_REASON_CHARS) + "...";
        if (raw.value != null && raw.value.length > MAX_VALUE_BYTES) {
            this.value = java.util.Arrays.copyOf(raw.value, MAX_VALUE_BYTES);
            why += " (dead letter truncated to its first " + MAX_VALUE_BYTES + " of " + raw.value.length + " bytes)";
        } else {
            this.value = raw.value;
        }
        this.reason = why;
        this.sourceTopic = raw.topic;
        this.sourcePartition = raw.partition;
        this.sourceOffset = raw.offset;
    }
}
