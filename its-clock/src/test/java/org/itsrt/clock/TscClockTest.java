package org.itsrt.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The TSC clock with the library this module builds into target/classes. These run in the
 * surefire JVM; {@code TscClockIT} repeats the essentials in fresh JVMs from the packaged jar.
 */
class TscClockTest {

    static LatencyClock clock;

    @BeforeAll
    static void open() {
        String problem = TscHost.problem();
        assumeTrue(problem == null, "no invariant TSC on this host: " + problem);
        clock = Clocks.system();
    }

    @Test
    void systemClockIsTheTsc() {
        ClockInfo info = clock.info();
        assertThat(info.name()).as(info.describe()).isEqualTo(TscHost.expectedName());
        assertThat(info.warning()).isEmpty();
        assertThat(info.frequencyHz()).isGreaterThan(1e6);
        assertThat(info.frequencySource()).isNotBlank();
        assertThat(info.describe()).startsWith(TscHost.expectedName() + " at ");
        assertThat(((TscClock) clock).library()).contains("libitsclock.so");
    }

    @Test
    void monotonicWithinEachThreadAndAcrossHandoffs() throws Exception {
        int threads = 4;
        int reads = 2_000_000;
        // The largest stamp any thread has published; a thread that reads it and then stamps
        // must not get less: its read happens-after the other thread's stamp.
        AtomicLong published = new AtomicLong(Long.MIN_VALUE);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(pool.submit((Callable<long[]>) () -> {
                    long ownBackwards = 0;
                    long handoffBackwards = 0;
                    long prev = Long.MIN_VALUE;
                    for (int i = 0; i < reads; i++) {
                        long seen = published.get();
                        long now = clock.nanos();
                        if (now < prev) {
                            ownBackwards++;
                        }
                        if (now < seen) {
                            handoffBackwards++;
                        }
                        prev = now;
                        if ((i & 15) == 0) {
                            published.accumulateAndGet(now, Math::max);
                        }
                    }
                    return new long[] {ownBackwards, handoffBackwards};
                }));
            }
            for (Future<long[]> f : results) {
                long[] r = f.get();
                assertThat(r[0])
                        .as("stamps that went backwards within a thread")
                        .isZero();
                assertThat(r[1])
                        .as("stamps below one published by another thread before")
                        .isZero();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void agreesWithNanoTimeWithinOneTenthOfAPercent() throws InterruptedException {
        long[] start = bracketed();
        Thread.sleep(3_000);
        long[] end = bracketed();
        double tsc = end[0] - start[0];
        double nano = end[1] - start[1];
        assertThat(nano).isGreaterThan(2.9e9);
        assertThat(Math.abs(tsc - nano) / nano)
                .as("tsc %.0f ns vs nanoTime %.0f ns", tsc, nano)
                .isLessThan(1e-3);
    }

    /** {clock.nanos(), System.nanoTime()} read as close together as 200 tries allow. */
    static long[] bracketed() {
        long best = Long.MAX_VALUE;
        long[] r = new long[2];
        for (int i = 0; i < 200; i++) {
            long a = System.nanoTime();
            long s = clock.nanos();
            long b = System.nanoTime();
            if (b - a < best) {
                best = b - a;
                r[0] = s;
                r[1] = a + (b - a) / 2;
            }
        }
        return r;
    }
}
