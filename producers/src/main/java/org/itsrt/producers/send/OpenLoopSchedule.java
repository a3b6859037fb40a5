package org.itsrt.producers.send;

/**
 * Intended send times fixed in advance (as in wrk2 and the OpenMessaging Benchmark) for
 * {@code sources} streams at one rate: record k of source i is due at
 * {@code start + offset(i) + k * period} whatever happened to record k-1. A producer that stalls
 * sends late, and the probe sees that lateness by measuring from the intended time: a stall cannot
 * hide latency (coordinated omission).
 *
 * <p>Source i of n is offset by i/n of a period, so the sends of all sources are spread evenly over
 * every period instead of falling on the same instant. Sender thread t of T owns the sources
 * {@code i ≡ t (mod T)} ({@link #slice}): each thread's sources are spread as evenly as all of
 * them, so every thread has the same load at every moment, and with as many threads as sources each
 * thread owns exactly one.
 *
 * <p>A {@link LoadStep} changes the rate for a while by warping these times onto the wall clock;
 * the order of the sends, and so each slice, stays the same.
 */
public record OpenLoopSchedule(long startNs, long periodNs, int sources, LoadStep step) {

    public OpenLoopSchedule {
        if (step == null) {
            step = LoadStep.NONE;
        }
        if (periodNs <= 0) {
            throw new IllegalArgumentException("period must be positive: " + periodNs);
        }
        if (sources < 1) {
            throw new IllegalArgumentException("a schedule needs at least one source, got " + sources);
        }
    }

    /** {@code sources} streams of {@code ratePerSource} records/s each, the first period from {@code startNs}. */
    public static OpenLoopSchedule of(long startNs, double ratePerSource, int sources) {
        return of(startNs, ratePerSource, sources, LoadStep.NONE);
    }

    /** As {@link #of(long, double, int)}, the rate stepped by {@code step} for a while. */
    public static OpenLoopSchedule of(long startNs, double ratePerSource, int sources, LoadStep step) {
        return new OpenLoopSchedule(startNs, Math.round(1e9 / ratePerSource), sources, step);
    }

    /** A constant rate: one record of each source every {@code periodNs}. */
    public OpenLoopSchedule(long startNs, long periodNs, int sources) {
        this(startNs, periodNs, sources, LoadStep.NONE);
    }

    /** Where source {@code i} falls within each period: {@code floor(period * i / sources)}, without overflow. */
    public long offsetNs(int source) {
        if (source < 0 || source >= sources) {
            throw new IndexOutOfBoundsException("source " + source + " of " + sources);
        }
        // period * i / n, split so that the product cannot overflow even for a very long period.
        return periodNs / sources * source + periodNs % sources * source / sources;
    }

    /** When record {@code k} of source {@code source} is due. */
    public long intendedNs(int source, long k) {
        return startNs + step.wallNs(offsetNs(source) + k * periodNs);
    }

    /**
     * The sends of sender thread {@code thread} of {@code threads}, in the order of their intended
     * times: period by period, and within a period its sources in index order (offsets grow with
     * the index and stay below one period, so the times never decrease). Source i sends
     * {@code counts[i]} records; a source whose count is reached is skipped.
     */
    public Slice slice(int thread, int threads, long[] counts) {
        if (threads < 1 || thread < 0 || thread >= threads) {
            throw new IllegalArgumentException("thread " + thread + " of " + threads);
        }
        if (counts.length != sources) {
            throw new IllegalArgumentException(counts.length + " counts for " + sources + " sources");
        }
        return new Slice(thread, threads, counts.clone());
    }

    /**
     * One sender thread's walk through its sends; not thread-safe (one thread owns it). After
     * {@link #advance()} returns true, {@link #source()}, {@link #k()} and {@link #intendedNs()}
     * describe the next send.
     */
    public final class Slice {
        private final int first;
        private final int step;
        private final long[] counts;
        private final long periods;
        private int source;
        private long k;

        private Slice(int first, int step, long[] counts) {
            this.first = first;
            this.step = step;
            this.counts = counts;
            long most = 0;
            for (int i = first; i < counts.length; i += step) {
                most = Math.max(most, counts[i]);
            }
            this.periods = most;
            // One step before the slice's first source: the first advance() lands on it.
            this.source = first - step;
            this.k = 0;
        }

        /** Moves to the next send; false when the thread has sent all its records. */
        public boolean advance() {
            while (k < periods) {
                source += step;
                if (source >= counts.length) {
                    source = first - step;
                    k++;
                    continue;
                }
                if (k < counts[source]) {
                    return true;
                }
            }
            return false;
        }

        public int source() {
            return source;
        }

        public long k() {
            return k;
        }

        public long intendedNs() {
            return OpenLoopSchedule.this.intendedNs(source, k);
        }
    }
}
