package org.itsrt.probe.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * p95 latency per fixed time window and the SLO-violation ratio, in the style of the memcached
 * colocation study (docs/study.md, section 4): the share of windows whose p95 exceeds the SLO, over the
 * active span of a run.
 *
 * <p>Time is the arrival stamp, as an offset from the run's first arrival; window {@code i} holds
 * the arrivals in {@code [i * window, (i + 1) * window)}. The active span runs from the first to
 * the last arrival, so it covers windows {@code 0 .. last / window}; the last one is usually
 * partial and counts like any other. A window in the span with no arrival has no p95: it is
 * counted as empty, is part of the ratio's denominator and is never a violation (the records held
 * up in such a gap arrive late in a following window and are judged there).
 *
 * <p>A window's p95 is exact, nearest rank: the {@code ceil(0.95 n)}-th smallest of its {@code n}
 * latencies. It is compared with the SLO and not rounded to histogram buckets, so a window right at
 * the SLO is judged on its true value.
 */
public final class WindowedSlo {

    /**
     * One window that had arrivals.
     *
     * @param index   window number from the run's first arrival
     * @param count   records that arrived in it
     * @param p95Ns   exact nearest-rank p95
     * @param maxNs   largest latency
     * @param overSlo records whose latency exceeded the SLO
     * @param degraded records the job predicted with its cheap engine to meet their deadline
     */
    public record Window(long index, int count, long p95Ns, long maxNs, int overSlo, int degraded) {

        /** The share of the window's records that were degraded, 0..1. */
        public double degradedShare() {
            return count == 0 ? 0 : (double) degraded / count;
        }
    }

    /**
     * The windows of a span and how many broke the SLO.
     *
     * @param windows   windows in the span, empty ones included
     * @param empty     windows in the span without arrivals
     * @param violating windows whose p95 exceeded the SLO
     * @param ratio     {@code violating / windows}; NaN when the span has no window
     * @param records   records in the span
     * @param overSlo   records in the span whose own latency exceeded the SLO
     * @param degraded  records in the span the job degraded (docs/deadlines.md)
     * @param nonEmpty  the windows that had arrivals, in time order
     */
    public record Report(
            long windowNs,
            long sloNs,
            long fromOffsetNs,
            long windows,
            long empty,
            long violating,
            double ratio,
            long records,
            long overSlo,
            long degraded,
            List<Window> nonEmpty) {}

    private final long windowNs;
    private final long sloNs;
    private final List<Window> closed = new ArrayList<>();
    private long currentIndex = -1;
    private long[] current = new long[256];
    private int size;
    private int currentDegraded;

    public WindowedSlo(long windowNs, long sloNs) {
        if (windowNs <= 0) {
            throw new IllegalArgumentException("window must be positive, got " + windowNs + " ns");
        }
        if (sloNs < 0) {
            throw new IllegalArgumentException("SLO cannot be negative, got " + sloNs + " ns");
        }
        this.windowNs = windowNs;
        this.sloNs = sloNs;
    }

    public long windowNs() {
        return windowNs;
    }

    public long sloNs() {
        return sloNs;
    }

    /**
     * Adds one record.
     *
     * @param offsetNs  its arrival minus the run's first arrival; offsets must not decrease (one
     *                  monotonic clock stamps every arrival); a smaller one is kept in the current
     *                  window
     * @param latencyNs its latency
     */
    public void record(long offsetNs, long latencyNs) {
        record(offsetNs, latencyNs, false);
    }

    /** Adds one record, degraded or not (docs/deadlines.md); otherwise as {@link #record(long, long)}. */
    public void record(long offsetNs, long latencyNs, boolean degraded) {
        long index = Math.max(0, offsetNs) / windowNs;
        if (index > currentIndex) {
            closeCurrent();
            currentIndex = index;
        }
        if (size == current.length) {
            current = Arrays.copyOf(current, size * 2);
        }
        current[size++] = latencyNs;
        if (degraded) {
            currentDegraded++;
        }
    }

    private void closeCurrent() {
        if (size > 0) {
            closed.add(window(currentIndex, current, size, currentDegraded));
        }
        size = 0;
        currentDegraded = 0;
    }

    private Window window(long index, long[] values, int n, int degraded) {
        long[] sorted = Arrays.copyOf(values, n);
        Arrays.sort(sorted);
        int over = 0;
        for (int i = n - 1; i >= 0 && sorted[i] > sloNs; i--) {
            over++;
        }
        return new Window(index, n, sorted[p95Rank(n) - 1], sorted[n - 1], over, degraded);
    }

    /** The 1-based nearest rank of p95 among {@code n} values, {@code ceil(95 n / 100)}, in integers. */
    static int p95Rank(int n) {
        return (int) ((95L * n + 99) / 100);
    }

    /**
     * The report over the windows that start at or after {@code fromOffsetNs} (0 for the whole run,
     * the warm-up for steady state) up to the window holding {@code lastOffsetNs}, the run's last
     * arrival.
     */
    public Report report(long fromOffsetNs, long lastOffsetNs) {
        List<Window> all = new ArrayList<>(closed);
        if (size > 0) {
            all.add(window(currentIndex, current, size, currentDegraded));
        }
        long firstIndex = (Math.max(0, fromOffsetNs) + windowNs - 1) / windowNs;
        long lastIndex = lastOffsetNs < 0 ? -1 : lastOffsetNs / windowNs;
        long windows = Math.max(0, lastIndex - firstIndex + 1);
        List<Window> inSpan = new ArrayList<>();
        long violating = 0;
        long records = 0;
        long overSlo = 0;
        long degraded = 0;
        for (Window w : all) {
            if (w.index() < firstIndex || w.index() > lastIndex) {
                continue;
            }
            inSpan.add(w);
            records += w.count();
            overSlo += w.overSlo();
            degraded += w.degraded();
            if (w.p95Ns() > sloNs) {
                violating++;
            }
        }
        double ratio = windows == 0 ? Double.NaN : (double) violating / windows;
        return new Report(
                windowNs,
                sloNs,
                firstIndex * windowNs,
                windows,
                windows - inSpan.size(),
                violating,
                ratio,
                records,
                overSlo,
                degraded,
                List.copyOf(inSpan));
    }
}
