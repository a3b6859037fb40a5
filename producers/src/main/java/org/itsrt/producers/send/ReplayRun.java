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
 * One replay: a few sender threads, each with its own Kafka producer and its slice of the sources,
 * all on one open-loop schedule, until the record budget is sent or {@link #stop()} is called;
 * then every producer is flushed and closed, so what was sent is acknowledged or counted as failed
 * before the run reports.
 *
 * <p>A producer per thread rather than one for all: Kafka's producer is thread-safe, but its
 * record accumulator takes a lock per partition on every send, so threads sharing one would wait
 * on each other, and a thread's own producer batches only its own sends. A thread per source
 * rather than a few does not scale: 4,800 detectors would be 4,800 threads and as many producers,
 * each with its own I/O thread, buffers and broker connection (docs/producers.md, "Many
 * detectors").
 */
public final class ReplayRun {

    /**
     * Up to this many sources, one sender thread and one producer each: the study's six detectors
     * keep the shape the study replicates, one producer per detector.
     */
    public static final int THREAD_PER_SOURCE_UP_TO = 6;

    /**
     * Beyond {@link #THREAD_PER_SOURCE_UP_TO} sources, this many sender threads share them: a
     * thread sends thousands of records per second while mostly parked, and more threads only add
     * producers competing for the host's cores (docs/producers.md, "Many detectors", measures it).
     */
    public static final int SHARED_SENDER_THREADS = 4;

    private final List<? extends RecordSource> sources;
    private final int senderThreads;
    private final Function<Map<String, Object>, Producer<byte[], byte[]>> producerFactory;
    private final Map<String, Object> producerConfig;
    private final LatencyClock clock;
    private final SendStats stats = new SendStats();
    private volatile boolean stopRequested;
    private LoadStep loadStep = LoadStep.NONE;

    /**
     * @param senderThreads how many threads (and producers) send, at most one per source; 0 for
     *                      {@link #defaultSenderThreads}
     */
    public ReplayRun(
            List<? extends RecordSource> sources,
            int senderThreads,
            Function<Map<String, Object>, Producer<byte[], byte[]>> producerFactory,
            Map<String, Object> producerConfig,
            LatencyClock clock) {
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("a replay needs at least one source");
        }
        if (senderThreads < 0) {
            throw new IllegalArgumentException("sender threads must be >= 0 (0: the default), got " + senderThreads);
        }
        this.sources = List.copyOf(sources);
        this.senderThreads =
                Math.min(sources.size(), senderThreads == 0 ? defaultSenderThreads(sources.size()) : senderThreads);
        this.producerFactory = producerFactory;
        this.producerConfig = producerConfig;
        this.clock = clock;
    }

    /** A replay of detectors' windows into {@code topic}, one {@link DetectorSource} each. */
    public static ReplayRun ofDetectors(
            List<DetectorWindows> detectors,
            String topic,
            int senderThreads,
            Function<Map<String, Object>, Producer<byte[], byte[]>> producerFactory,
            Map<String, Object> producerConfig,
            LatencyClock clock) {
        List<DetectorSource> sources = detectors.stream()
                .map(windows -> new DetectorSource(windows, topic))
                .toList();
        return new ReplayRun(sources, senderThreads, producerFactory, producerConfig, clock);
    }

    /**
     * The sender threads for {@code sources} sources by default: one each up to
     * {@value #THREAD_PER_SOURCE_UP_TO}, {@value #SHARED_SENDER_THREADS} beyond.
     */
    public static int defaultSenderThreads(int sources) {
        return sources <= THREAD_PER_SOURCE_UP_TO ? sources : SHARED_SENDER_THREADS;
    }

    /** The sender threads (and producers) this replay runs. */
    public int senderThreads() {
        return senderThreads;
    }

    public SendStats stats() {
        return stats;
    }

    /** Steps the rate of the next {@link #run} for a while (none unless set). */
    public ReplayRun loadStep(LoadStep step) {
        this.loadStep = step == null ? LoadStep.NONE : step;
        return this;
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
     * Sends at {@code ratePerDetector} records/s from each source until the quotas are met; {@code progress}
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
        int n = sources.size();
        if (warmupQuota.length != n || quota.length != n) {
            throw new IllegalArgumentException(
                    "quotas for " + quota.length + " and " + warmupQuota.length + " sources, not " + n);
        }
        long[] counts = new long[n];
        for (int i = 0; i < n; i++) {
            counts[i] = warmupQuota[i] + quota[i];
        }
        // Start shortly after now, so every producer is connected before its first intended time.
        long start = clock.nanos() + Duration.ofMillis(500).toNanos();
        OpenLoopSchedule schedule = OpenLoopSchedule.of(start, ratePerDetector, n, loadStep);
        long[] warmups = warmupQuota.clone();
        List<Producer<byte[], byte[]>> producers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try {
            for (int t = 0; t < senderThreads; t++) {
                // A thread of its own source is named after it, as the study's detector producers were.
                String name = senderThreads == n ? sources.get(t).name() : (t + 1) + "-of-" + senderThreads;
                Map<String, Object> config = new java.util.HashMap<>(producerConfig);
                config.putIfAbsent("client.id", "its-producer-" + name);
                Producer<byte[], byte[]> producer = producerFactory.apply(config);
                producers.add(producer);
                Thread thread = new Thread(
                        new SliceSender(
                                sources,
                                producer,
                                schedule.slice(t, senderThreads, counts),
                                warmups,
                                clock,
                                stats,
                                () -> stopRequested),
                        "sender-" + name);
                threads.add(thread);
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
