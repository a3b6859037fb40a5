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
 */
public record RuntimeSettings(int parallelism, long bufferTimeoutMs, int maxBatch, long maxBatchWaitUs)
        implements Serializable {

    static RuntimeSettings from(Map<String, String> options) {
        return new RuntimeSettings(
                JobOptions.PARALLELISM.read(options).intValue(),
                JobOptions.BUFFER_TIMEOUT_MS.read(options),
                JobOptions.MAX_BATCH.read(options).intValue(),
                JobOptions.MAX_BATCH_WAIT_US.read(options));
    }
}
