package org.itsrt.producers.send;

import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.Producer;
import org.itsrt.clock.LatencyClock;

/**
 * One sender thread: sends its slice of the sources ({@link OpenLoopSchedule#slice}) with its own
 * Kafka producer, in the order of their intended times, parking until each is due. With as many
 * threads as sources it is one detector's producer, as each of the study's detectors had its own
 * process.
 */
public final class SliceSender implements Runnable {

    private final List<? extends RecordSource> sources;
    private final Producer<byte[], byte[]> producer;
    private final OpenLoopSchedule.Slice slice;
    private final long[] warmupRecords;
    private final LatencyClock clock;
    private final SendStats stats;
    private final BooleanSupplier stopRequested;

    /**
     * @param sources       every source of the schedule, indexed as it indexes them; the slice
     *                      says which of them this thread sends
     * @param slice         this thread's sends, each source's warm-up and measured records together
     * @param warmupRecords per source, how many of its first records are warm-up records, flagged;
     *                      seq runs on across both phases so the probe tracks loss over all of them
     */
    public SliceSender(
            List<? extends RecordSource> sources,
            Producer<byte[], byte[]> producer,
            OpenLoopSchedule.Slice slice,
            long[] warmupRecords,
            LatencyClock clock,
            SendStats stats,
            BooleanSupplier stopRequested) {
        this.sources = sources;
        this.producer = producer;
        this.slice = slice;
        this.warmupRecords = warmupRecords;
        this.clock = clock;
        this.stats = stats;
        this.stopRequested = stopRequested;
    }

    @Override
    public void run() {
        while (!stopRequested.getAsBoolean() && slice.advance()) {
            long intended = slice.intendedNs();
            if (!waitUntil(intended)) {
                return;
            }
            int source = slice.source();
            long k = slice.k();
            boolean warmup = k < warmupRecords[source];
            // Stamped just before the record is made and sent (RecordSource#record).
            long sent = clock.nanos();
            producer.send(sources.get(source).record(k, warmup, sent, intended), (metadata, error) -> {
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
