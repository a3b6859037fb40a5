package org.itsrt.job.records;

/**
 * A record as it came off an input topic: its bytes, untouched, and where it was read, so that a
 * record that fails validation can be dead-lettered as it was and traced back to its offset. A
 * reading, or in the district workload also a route request (the same bytes-and-offset shape).
 * A Flink POJO (public fields, no-argument constructor): no Kryo on the wire.
 */
public class RawReading {

    public String topic;
    public int partition;
    public long offset;
    /** The Kafka record's value; null for a record without one. */
    public byte[] value;
    /**
     * The Kafka record's timestamp in epoch milliseconds: the producer's create time (the topics'
     * default timestamp type), where a record's deadline counts from (docs/deadlines.md);
     * {@link #NO_TIMESTAMP} when the record has none.
     */
    public long timestampMs = NO_TIMESTAMP;

    /** Kafka's value for a record without a timestamp. */
    public static final long NO_TIMESTAMP = -1;

    public RawReading() {}

    public RawReading(String topic, int partition, long offset, byte[] value) {
        this(topic, partition, offset, value, NO_TIMESTAMP);
    }

    public RawReading(String topic, int partition, long offset, byte[] value, long timestampMs) {
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.value = value;
        this.timestampMs = timestampMs;
    }
}
