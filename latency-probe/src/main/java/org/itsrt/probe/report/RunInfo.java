package org.itsrt.probe.report;

import java.time.Instant;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.itsrt.records.Workload;

/**
 * What a run report says about the run itself, besides its numbers.
 *
 * @param topic            topic consumed
 * @param bootstrapServers Kafka's address
 * @param groupId          the run's own consumer group
 * @param fromBeginning    whether the topic was read from its earliest offsets
 * @param startOffsets     where reading started on each partition
 * @param consumerOverrides the user's {@code --consumer-prop} settings
 * @param started          when the probe became ready (wall clock)
 * @param ended            when it stopped
 * @param stoppedBy        why it stopped, e.g. {@code --records 20000}
 * @param clock            the latency clock, as {@code ClockInfo.describe()} puts it
 * @param expected         {@code --expect}, 0 when not given
 * @param faultsFile       the faults file ({@code --faults}), null when none
 * @param faultsFileError  why it could not be read, null when it was (or there is none)
 * @param sequenceSource   what a record's {@code seq} counts per, as the delivery tables name it:
 *                         {@code detector}, or {@code request stream} for route answers
 */
public record RunInfo(
        String topic,
        String bootstrapServers,
        String groupId,
        boolean fromBeginning,
        Map<TopicPartition, Long> startOffsets,
        Map<String, String> consumerOverrides,
        Instant started,
        Instant ended,
        String stoppedBy,
        String clock,
        long expected,
        String faultsFile,
        String faultsFileError,
        String sequenceSource) {

    /** What the study's records' {@code seq} counts per. */
    public static final String DETECTOR = Workload.Stream.ADVICE.countedPer();

    /** What the route answers' {@code seq} counts per. */
    public static final String REQUEST_STREAM = Workload.Stream.ROUTES.countedPer();

    /** A run whose {@code seq} counts per detector, as on its.readings, its.advice and its.predictions. */
    public RunInfo(
            String topic,
            String bootstrapServers,
            String groupId,
            boolean fromBeginning,
            Map<TopicPartition, Long> startOffsets,
            Map<String, String> consumerOverrides,
            Instant started,
            Instant ended,
            String stoppedBy,
            String clock,
            long expected,
            String faultsFile,
            String faultsFileError) {
        this(
                topic,
                bootstrapServers,
                groupId,
                fromBeginning,
                startOffsets,
                consumerOverrides,
                started,
                ended,
                stoppedBy,
                clock,
                expected,
                faultsFile,
                faultsFileError,
                DETECTOR);
    }
}
