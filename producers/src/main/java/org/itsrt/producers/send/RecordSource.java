package org.itsrt.producers.send;

import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One stream of records on the open-loop schedule, such as one detector's readings: it makes its
 * k-th record on demand, so a replay of thousands of streams holds their data, not their records.
 * The sender that owns the source asks for k = 0, 1, 2, ... in order, from one thread.
 */
public interface RecordSource {

    /**
     * Record {@code k} (from 0), stamped with its send and intended times and ready to send. The
     * send time is read just before this call: what the call costs (building and serialising the
     * record, a few microseconds) belongs to the pipeline's latency, as it would in any producer.
     *
     * @param warmup whether the record belongs to the run's warm-up phase and is to be flagged so
     */
    ProducerRecord<byte[], byte[]> record(long k, boolean warmup, long sentNs, long intendedNs);

    /** A short name for logs and client ids, e.g. the detector's id. */
    String name();
}
