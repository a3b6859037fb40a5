package org.itsrt.job.records;

/**
 * A record the job could not use: its original bytes and why, for the dead-letter topic
 * (docs/records.md). A Flink POJO.
 */
public class DeadLetter {

    /** The input record's value, as it was read; null when it had none. */
    public byte[] value;

    public String reason;
    public String sourceTopic;
    public int sourcePartition;
    public long sourceOffset;

    public DeadLetter() {}

    public DeadLetter(RawReading raw, String reason) {
        this.value = raw.value;
        this.reason = reason;
        this.sourceTopic = raw.topic;
        this.sourcePartition = raw.partition;
        this.sourceOffset = raw.offset;
    }
}
