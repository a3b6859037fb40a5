package org.itsrt.producers.send;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.producer.Producer;
import org.itsrt.clock.LatencyClock;
import org.itsrt.producers.replay.DetectorWindows;

/**
 * One replay: a sender thread and a Kafka producer per detector, all on one open-loop clock,
 * until the record budget is sent or {@link #stop()} is called; then every producer is flushed
 * and closed, so what was sent is acknowledged or counted as failed before the run reports.
 */
public final class ReplayRun {

    private final List<DetectorWindows> detectors;
    private final Function<Map<String, Object>, Producer<byte[], byte[]>> producerFactory;
    private final Map<String, Object> producerConfig;
    private final String topic;
    private final LatencyClock clock;
    private final SendStats stats = new SendStats();
    private volatile boolean stopRequested;

    public ReplayRun(
            List<DetectorWindows> detectors,
            Function<Map<String, Object>, Producer<byte[], byte[]>> producerFactory,
            Map<String, Object> producerConfig,
            String topic,
            LatencyClock clock) {
        this.detectors = List.copyOf(detectors);
        this.producerFactory = producerFactory;
        this.producerConfig = producerConfig;
        this.topic = topic;
        this.clock = clock;
    }

    public SendStats stats() {
        return stats;
    }

    /** Asks every sender to stop after its current record (Ctrl-C). */
    public void stop() {
        stopRequested = true;
    }

    /** Splits {@code total} records over the detectors, the first ones taking the remainder. */
    public static long[] share(long total, int detectors) {
        long[] quota = new long[detectors];
        for (int i = 0; i < detectors; i++) {
            quota[i] = total / detectors + (i < total % detectors ? 1 : 0);
        }
        return quota;
    }

    /**
     * Sends at {@code ratePerDetector} records/s each until the quotas are met; {@code progress}
     * is called about every {@code progressEvery} on the calling thread.
     */
    public void run(double ratePerDetector, long[] quota, Duration progressEvery, Consumer<SendStats> progress)
            throws InterruptedException {
        run(ratePerDetector, new long[quota.length], quota, progressEvery, progress);
    }

    /**
     * As {@link #run(double, long[], Duration, Consumer)}, each detector first sending its
     * {@code warmupQuota} of flagged warm-up records and then its {@code quota} of measured ones,
     * on one continuous schedule.
     */
    public void run(
            double ratePerDetector,
            long[] warmupQuota,
            long[] quota,
            Duration progressEvery,
            Consumer<SendStats> progress)
            throws InterruptedException {
        // Start shortly after now, so every producer is connected before its first intended time.
        long start = clock.nanos() + Duration.ofMillis(500).toNanos();
        List<Producer<byte[], byte[]>> producers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try {
            for (int i = 0; i < detectors.size(); i++) {
                DetectorWindows windows = detectors.get(i);
                Map<String, Object> config = new java.util.HashMap<>(producerConfig);
                config.putIfAbsent("client.id", "its-producer-" + windows.detector());
                Producer<byte[], byte[]> producer = producerFactory.apply(config);
                producers.add(producer);
                OpenLoopSchedule schedule = OpenLoopSchedule.staggered(start, ratePerDetector, i, detectors.size());
                Thread t = new Thread(
                        new DetectorSender(
                                windows,
                                producer,
                                topic,
                                schedule,
                                quota[i],
                                warmupQuota[i],
                                clock,
                                stats,
                                () -> stopRequested),
                        "detector-" + windows.detector());
                threads.add(t);
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                while (t.isAlive()) {
                    t.join(progressEvery.toMillis());
                    if (t.isAlive()) {
                        progress.accept(stats);
                    }
                }
            }
        } finally {
            stopRequested = true;
            for (Thread t : threads) {
                t.join();
            }
            for (Producer<byte[], byte[]> producer : producers) {
                producer.flush();
                producer.close(Duration.ofSeconds(30));
            }
        }
    }
}
