package org.itsrt.job.config;

import java.io.Serializable;
import java.util.Map;

/**
 * What the job guarantees about its output: at least once without checkpoints (the latency case),
 * or exactly once with Kafka transactions committed on each checkpoint (docs/job.md, section 6).
 *
 * @param checkpointIntervalMs 0 = no checkpoints
 */
public record DeliverySettings(boolean exactlyOnce, long checkpointIntervalMs, String transactionalIdPrefix)
        implements Serializable {

    /** Flink refuses shorter checkpoint intervals. */
    private static final long FLINK_MINIMUM_INTERVAL_MS = 10;

    static DeliverySettings from(Map<String, String> options) {
        boolean exactlyOnce = JobOptions.EXACTLY_ONCE.read(options);
        long interval = JobOptions.CHECKPOINT_INTERVAL_MS.read(
                options, exactlyOnce ? JobOptions.EXACTLY_ONCE_CHECKPOINT_INTERVAL_MS : 0L);
        String option = JobOptions.CHECKPOINT_INTERVAL_MS.flag();
        if (interval != 0 && interval < FLINK_MINIMUM_INTERVAL_MS) {
            throw new JobSettingsException(
                    option,
                    interval + " is below Flink's minimum of " + FLINK_MINIMUM_INTERVAL_MS
                            + " ms (0 = no checkpoints)");
        }
        if (exactlyOnce && interval == 0) {
            throw new JobSettingsException(
                    option,
                    "--exactly-once commits output on checkpoints and needs an " + "interval of at least "
                            + FLINK_MINIMUM_INTERVAL_MS + " ms");
        }
        return new DeliverySettings(exactlyOnce, interval, JobOptions.TRANSACTIONAL_ID_PREFIX.read(options));
    }
}
