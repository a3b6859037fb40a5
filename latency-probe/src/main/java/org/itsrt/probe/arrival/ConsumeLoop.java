package org.itsrt.probe.arrival;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.itsrt.clock.LatencyClock;

/**
 * Polls a topic, stamps each batch on arrival and hands the records to a sink until a limit is
 * reached or {@link #stop()} is called. Written against Kafka's {@code Consumer} interface so that
 * tests drive it with {@code MockConsumer}.
 */
public final class ConsumeLoop {

    /**
     * How long one poll may block when nothing arrives. Poll returns as soon as records are there,
     * so this adds no latency; it only bounds how late a duration or idle limit is noticed.
     */
    static final Duration POLL_TIMEOUT = Duration.ofMillis(100);

    /** Why a run ended. */
    public enum StopReason {
        /** {@code --records} distinct readings arrived. */
        RECORDS,
        /** {@code --duration} elapsed since the loop became ready. */
        DURATION,
        /** Nothing arrived for {@code --idle-timeout} after the first record. */
        IDLE,
        /** {@link #stop()} was called (Ctrl-C). */
        INTERRUPTED
    }

    /**
     * When to stop; zero means no limit.
     *
     * @param records     stop after this many distinct readings (measurable records, a duplicate of
     *                    one already received not counted)
     * @param durationNs  stop this long after the loop became ready
     * @param idleNs      stop when nothing arrived for this long, counted only after the first record
     */
    public record Limits(long records, long durationNs, long idleNs) {
        public Limits {
            if (records < 0 || durationNs < 0 || idleNs < 0) {
                throw new IllegalArgumentException("limits cannot be negative");
            }
        }

        public static Limits none() {
            return new Limits(0, 0, 0);
        }
    }

    /** Told once where reading starts, before the first poll: the moment producers may begin. */
    @FunctionalInterface
    public interface Ready {
        void at(Map<TopicPartition, Long> startOffsets);
    }

    private final Consumer<byte[], byte[]> consumer;
    private final LatencyClock clock;
    private final ArrivalSink sink;
    private final RecordIntake intake;
    private final Limits limits;
    private volatile boolean stopRequested;
    private final java.util.function.LongSupplier distinct;
    private long valid;
    private long malformed;

    /** A loop whose record limit counts every measurable record (a source without duplicates). */
    public ConsumeLoop(Consumer<byte[], byte[]> consumer, LatencyClock clock, ArrivalSink sink, Limits limits) {
        this(consumer, clock, sink, limits, null);
    }

    /**
     * @param distinct the distinct readings the sink has seen so far, which the record limit
     *                 counts: after a failover an at-least-once job sends some readings twice, and
     *                 a run that stopped at N records with duplicates among them would miss the
     *                 last readings and report them lost
     */
    public ConsumeLoop(
            Consumer<byte[], byte[]> consumer,
            LatencyClock clock,
            ArrivalSink sink,
            Limits limits,
            java.util.function.LongSupplier distinct) {
        this(consumer, clock, RecordIntake.stamps(sink), sink, limits, distinct);
    }

    /**
     * A loop that hands each record to {@code intake} (which reads it and passes it on to the sink
     * of its stream) and every tick and the end of the run to {@code sink}.
     *
     * @param distinct as for {@link #ConsumeLoop(Consumer, LatencyClock, ArrivalSink, Limits,
     *                 java.util.function.LongSupplier)}; null counts every measured record
     */
    public ConsumeLoop(
            Consumer<byte[], byte[]> consumer,
            LatencyClock clock,
            RecordIntake intake,
            ArrivalSink sink,
            Limits limits,
            java.util.function.LongSupplier distinct) {
        this.consumer = consumer;
        this.clock = clock;
        this.intake = intake;
        this.sink = sink;
        this.limits = limits;
        this.distinct = distinct;
    }

    /**
     * Assigns {@code partitions}, resolves where reading starts on each (the consumer's
     * {@code auto.offset.reset}: latest or earliest), tells {@code ready} those offsets, then
     * consumes until a limit or {@link #stop()}.
     *
     * <p>Partitions are assigned, not subscribed: a subscription of a new group waits for a group
     * rebalance (seconds, {@code group.initial.rebalance.delay.ms} on the broker) during which a
     * probe reading from the latest offset would silently miss the first records of a run.
     */
    public StopReason run(Collection<TopicPartition> partitions, Ready ready) {
        try {
            consumer.assign(List.copyOf(partitions));
            Map<TopicPartition, Long> start = new LinkedHashMap<>();
            for (TopicPartition partition : partitions) {
                start.put(partition, consumer.position(partition));
            }
            if (stopRequested) {
                return StopReason.INTERRUPTED;
            }
            ready.at(start);
            return consume();
        } catch (WakeupException e) {
            if (stopRequested) {
                return StopReason.INTERRUPTED;
            }
            throw e;
        }
    }

    private StopReason consume() {
        long startNs = clock.nanos();
        long lastRecordNs = 0;
        boolean seenAny = false;
        while (!stopRequested) {
            ConsumerRecords<byte[], byte[]> records;
            try {
                records = consumer.poll(POLL_TIMEOUT);
            } catch (WakeupException e) {
                if (stopRequested) {
                    break;
                }
                throw e;
            }
            // One stamp per poll, taken before any record is looked at: every record of the batch
            // reached the application at this instant. Stamping each record as the loop gets to it
            // would add the probe's own parsing of the records ahead of it to the later ones.
            long arrivalNs = clock.nanos();
            for (ConsumerRecord<byte[], byte[]> record : records) {
                switch (intake.take(record, arrivalNs)) {
                    case MEASURED -> valid++;
                    case MALFORMED -> malformed++;
                    case COUNTED -> {}
                }
                if (limits.records() > 0 && (distinct != null ? distinct.getAsLong() : valid) >= limits.records()) {
                    // The rest of this batch is left unread: the run asked for exactly this many.
                    sink.tick(arrivalNs);
                    return StopReason.RECORDS;
                }
            }
            if (!records.isEmpty()) {
                seenAny = true;
                lastRecordNs = arrivalNs;
            }
            sink.tick(arrivalNs);
            if (limits.durationNs() > 0 && arrivalNs - startNs >= limits.durationNs()) {
                return StopReason.DURATION;
            }
            if (limits.idleNs() > 0 && seenAny && arrivalNs - lastRecordNs >= limits.idleNs()) {
                return StopReason.IDLE;
            }
        }
        return StopReason.INTERRUPTED;
    }

    /** Ends the run from another thread (the shutdown hook): the current poll returns at once. */
    public void stop() {
        stopRequested = true;
        consumer.wakeup();
    }

    /** Records measured so far. */
    public long valid() {
        return valid;
    }

    /** Records that could not be measured so far. */
    public long malformed() {
        return malformed;
    }
}
