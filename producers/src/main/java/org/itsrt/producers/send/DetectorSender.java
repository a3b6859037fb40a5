package org.itsrt.producers.send;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.itsrt.clock.LatencyClock;
import org.itsrt.producers.replay.DetectorWindows;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RecordJson;

/**
 * One detector's producer: sends its windows on the open-loop schedule with its own Kafka
 * producer, as each of the study's detectors had its own process. Runs on its own thread.
 */
public final class DetectorSender implements Runnable {

    private final DetectorWindows windows;
    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final OpenLoopSchedule schedule;
    private final long records;
    private final long warmupRecords;
    private final LatencyClock clock;
    private final SendStats stats;
    private final BooleanSupplier stopRequested;
    private final byte[] key;

    /**
     * @param records       how many measured records to send; the sender also stops early when
     *                      {@code stopRequested} says so
     * @param warmupRecords how many warm-up records to send first, flagged, on the same schedule;
     *                      seq runs on across both phases so the probe tracks loss over all of them
     */
    public DetectorSender(
            DetectorWindows windows,
            Producer<byte[], byte[]> producer,
            String topic,
            OpenLoopSchedule schedule,
            long records,
            long warmupRecords,
            LatencyClock clock,
            SendStats stats,
            BooleanSupplier stopRequested) {
        this.windows = windows;
        this.producer = producer;
        this.topic = topic;
        this.schedule = schedule;
        this.records = records;
        this.warmupRecords = warmupRecords;
        this.clock = clock;
        this.stats = stats;
        this.stopRequested = stopRequested;
        // Keyed by detector: one detector's records stay in one partition, in order.
        this.key = Long.toString(windows.detector()).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void run() {
        long total = warmupRecords + records;
        for (long seq = 0; seq < total && !stopRequested.getAsBoolean(); seq++) {
            long intended = schedule.intendedNs(seq);
            if (!waitUntil(intended)) {
                return;
            }
            boolean warmup = seq < warmupRecords;
            ReadingRecord unstamped = warmup ? windows.next(seq).withWarmup(true) : windows.next(seq);
            // Stamped just before send; serialising after the stamp costs a few microseconds,
            // which belong to the pipeline's latency as they would in any producer.
            long sent = clock.nanos();
            byte[] value = RecordJson.write(unstamped.stamped(sent, intended));
            producer.send(new ProducerRecord<>(topic, key, value), (metadata, error) -> {
                if (error == null) {
                    stats.recordAck(clock.nanos() - sent);
                } else {
                    stats.recordFailure(error);
                }
            });
            stats.recordSend(intended, sent, warmup);
        }
    }

    /** Parks until the intended time; false when asked to stop meanwhile. No spinning: cores are scarce. */
    private boolean waitUntil(long intendedNs) {
        while (true) {
            if (stopRequested.getAsBoolean()) {
                return false;
            }
            long remaining = intendedNs - clock.nanos();
            if (remaining <= 0) {
                return true;
            }
            LockSupport.parkNanos(Math.min(remaining, 100_000_000L));
        }
    }
}
