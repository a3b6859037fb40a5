package org.itsrt.producers.send;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What the producer side saw, shared by all detector threads: how late each send was against its
 * intended time, and how long the broker took to acknowledge it. Recorders are safe to write from
 * many threads and to read while they write.
 */
public final class SendStats {

    private final Recorder sendLag = new Recorder(3);
    private final Recorder ackLatency = new Recorder(3);
    private final Histogram sendLagTotal = new Histogram(3);
    private final Histogram ackLatencyTotal = new Histogram(3);
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong warmupSent = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private final AtomicLong firstIntendedNs = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastSentNs = new AtomicLong(Long.MIN_VALUE);

    void recordSend(long intendedNs, long sentNs, boolean warmup) {
        sendLag.recordValue(Math.max(0, sentNs - intendedNs));
        sent.incrementAndGet();
        if (warmup) {
            warmupSent.incrementAndGet();
        }
        firstIntendedNs.accumulateAndGet(intendedNs, Math::min);
        lastSentNs.accumulateAndGet(sentNs, Math::max);
    }

    void recordAck(long latencyNs) {
        ackLatency.recordValue(Math.max(0, latencyNs));
        acked.incrementAndGet();
    }

    void recordFailure(Exception e) {
        failed.incrementAndGet();
        firstError.compareAndSet(null, e.getClass().getSimpleName() + ": " + e.getMessage());
    }

    public long sent() {
        return sent.get();
    }

    /** Of {@link #sent()}, the warm-up records. */
    public long warmupSent() {
        return warmupSent.get();
    }

    public long acked() {
        return acked.get();
    }

    public long failed() {
        return failed.get();
    }

    /** From the first intended send to the last actual one: the span the send rate is judged over. */
    public double activeSeconds() {
        long first = firstIntendedNs.get();
        long last = lastSentNs.get();
        return first == Long.MAX_VALUE || last <= first ? 0 : (last - first) / 1e9;
    }

    public String firstError() {
        return firstError.get();
    }

    /** Folds what was recorded since the last call into the totals and returns the totals (ns). */
    public synchronized Histogram sendLagNs() {
        sendLagTotal.add(sendLag.getIntervalHistogram());
        return sendLagTotal.copy();
    }

    /** As {@link #sendLagNs()}, for the time from send to the broker's acknowledgement. */
    public synchronized Histogram ackLatencyNs() {
        ackLatencyTotal.add(ackLatency.getIntervalHistogram());
        return ackLatencyTotal.copy();
    }
}
