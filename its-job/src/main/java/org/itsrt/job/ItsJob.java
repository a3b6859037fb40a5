package org.itsrt.job;

import java.util.Locale;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.itsrt.job.config.DeliverySettings;
import org.itsrt.job.config.InputPartitionCheck;
import org.itsrt.job.config.JobOptions;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.config.RuntimeSettings;
import org.itsrt.job.kafka.KafkaJobIO;
import org.itsrt.records.Workload;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ITS job (docs/job.md), in one of two workloads ({@code --workload}): the study's advice per
 * reading ({@link StudyPipeline}), or a district's predictions per reading and routes per request
 * ({@link DistrictPipeline}).
 *
 * <p>{@link #main} reads the settings and runs the job between Kafka topics; tests and the demo call
 * {@link #build} or {@link #buildDistrict} with their own environment and ends.
 */
public final class ItsJob {

    private static final Logger LOG = LoggerFactory.getLogger(ItsJob.class);

    /** The name the job is submitted under. */
    public static final String JOB_NAME = "its-rt";

    private ItsJob() {}

    public static void main(String[] args) throws Exception {
        if (JobSettings.isHelp(args)) {
            System.out.print(JobSettings.usage());
            return;
        }
        JobSettings settings = JobSettings.fromArgs(args);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        int parallelism =
                settings.runtime().parallelism() > 0 ? settings.runtime().parallelism() : env.getParallelism();
        InputPartitionCheck.warnings(settings.kafka(), parallelism, InputPartitionCheck.TIMEOUT)
                .forEach(LOG::warn);
        if (settings.workload() == Workload.DISTRICT) {
            InputPartitionCheck.warnings(
                            settings.kafka(),
                            settings.kafka().districtTopics().requests(),
                            parallelism,
                            InputPartitionCheck.TIMEOUT)
                    .forEach(LOG::warn);
        }
        KafkaJobIO io = KafkaJobIO.of(settings);
        switch (settings.workload()) {
            case STUDY -> build(env, settings, io);
            case DISTRICT -> buildDistrict(env, settings, io);
        }
        env.execute(JOB_NAME);
    }

    /**
     * Configures {@code env} for the job (buffer timeout, parallelism, object reuse,
     * checkpointing) and wires the study workload from {@code io}'s readings to its advice and
     * dead-letter sinks.
     *
     * @return the wired streams, sinks attached, for callers that add more
     * @throws IllegalArgumentException when the settings are the district workload's
     */
    public static JobStreams build(StreamExecutionEnvironment env, JobSettings settings, JobIO io) {
        requireWorkload(settings, Workload.STUDY, "buildDistrict");
        configure(env, settings.runtime(), settings.delivery());
        return StudyPipeline.wire(env, settings, io);
    }

    /**
     * Configures {@code env} as {@link #build} does and wires the district workload from
     * {@code io}'s readings and route requests to its predictions, routes and dead-letter sinks.
     *
     * @return the wired streams, sinks attached, for callers that add more
     * @throws IllegalArgumentException when the settings are the study workload's
     */
    public static DistrictStreams buildDistrict(
            StreamExecutionEnvironment env, JobSettings settings, DistrictJobIO io) {
        requireWorkload(settings, Workload.DISTRICT, "build");
        configure(env, settings.runtime(), settings.delivery());
        return DistrictPipeline.wire(env, settings, io);
    }

    private static void requireWorkload(JobSettings settings, Workload expected, String other) {
        if (settings.workload() != expected) {
            throw new IllegalArgumentException(JobOptions.WORKLOAD.flag() + " "
                    + settings.workload().name().toLowerCase(Locale.ROOT) + ": wire it with ItsJob."
                    + other + ", not this method");
        }
    }

    private static void configure(StreamExecutionEnvironment env, RuntimeSettings runtime, DeliverySettings delivery) {
        // 0: every record is flushed to the next task at once. Flink's default of 100 ms held
        // records at the broadcast exchange (docs/design.md, "Floors and targets": p50 102 ms).
        env.setBufferTimeout(runtime.bufferTimeoutMs());
        if (runtime.parallelism() > 0) {
            env.setParallelism(runtime.parallelism());
        }
        // Chained operators hand records on without a defensive copy; no function keeps or
        // changes a record after emitting it.
        env.getConfig().enableObjectReuse();
        if (delivery.checkpointIntervalMs() > 0) {
            env.enableCheckpointing(
                    delivery.checkpointIntervalMs(),
                    delivery.exactlyOnce() ? CheckpointingMode.EXACTLY_ONCE : CheckpointingMode.AT_LEAST_ONCE);
        }
    }
}
