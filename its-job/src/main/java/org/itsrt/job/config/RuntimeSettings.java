package org.itsrt.job.config;

import java.io.Serializable;
import java.util.Map;

/**
 * The knobs that trade latency for throughput: the operators' parallelism, how long a network
 * buffer may wait before it is flushed, and micro-batching of model calls (docs/job.md, section 4).
 *
 * @param parallelism     every operator's parallelism; 0 = the environment's default
 * @param bufferTimeoutMs 0 = flush every record, -1 = flush only full buffers
 * @param maxBatch        readings predicted in one model call at most; 1 = one call per reading
 * @param maxBatchWaitUs  the longest a reading waits for its batch to fill
 * @param deadlineMs      a record's deadline after its Kafka timestamp; 0 = no deadlines
 *                        (docs/deadlines.md)
 * @param degrade         predict with the cheap engine a reading the LSTM would make late
 */
public record RuntimeSettings(
        int parallelism, long bufferTimeoutMs, int maxBatch, long maxBatchWaitUs, long deadlineMs, boolean degrade)
        implements Serializable {

    /** True when records have deadlines: expired requests are shed and, with {@link #degrade}, readings degraded. */
    public boolean hasDeadlines() {
        return deadlineMs > 0;
    }

    static RuntimeSettings from(Map<String, String> options) {
        return new RuntimeSettings(
                JobOptions.PARALLELISM.read(options).intValue(),
                JobOptions.BUFFER_TIMEOUT_MS.read(options),
                JobOptions.MAX_BATCH.read(options).intValue(),
                JobOptions.MAX_BATCH_WAIT_US.read(options),
                JobOptions.DEADLINE_MS.read(options),
                JobOptions.DEGRADE.read(options));
    }
}
