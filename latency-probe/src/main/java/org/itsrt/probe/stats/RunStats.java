package org.itsrt.probe.stats;

import java.util.EnumMap;
import java.util.Map;
import org.itsrt.probe.arrival.Arrival;
import org.itsrt.probe.arrival.ArrivalSink;
import org.itsrt.probe.arrival.MalformedRecord;

/**
 * Everything a run's report is computed from, updated record by record: latency histograms for
 * the whole run and for its steady state, stage durations, sequence checks, windowed p95.
 *
 * <p>Warm-up records ({@code "warmup":true}, docs/records.md) are kept out of every measured
 * figure: they count in the sequence checks (loss, duplicates and order cover every record the
 * producers sent) and in a latency histogram of their own, and in the windows that tell how long
 * latency took to settle ({@link #settle}). The measured figures' time axis starts at the first
 * measured arrival; the settle time's at the first arrival of any record.
 */
public final class RunStats implements ArrivalSink {

    /**
     * @param windowNs      width of an SLO window
     * @param sloNs         the SLO a window's p95 is held to
     * @param steadyAfterNs time after the first measured arrival left out of the steady-state
     *                      figures (a cut within the measured records, not a warm-up phase)
     */
    public record Settings(long windowNs, long sloNs, long steadyAfterNs) {
        public Settings {
            if (windowNs <= 0) {
                throw new IllegalArgumentException("window must be positive");
            }
            if (sloNs < 0 || steadyAfterNs < 0) {
                throw new IllegalArgumentException("SLO and steady-state cut cannot be negative");
            }
        }
    }

    /**
     * A window's p95 above this many times the median window p95 of the measured records has not
     * settled: twice the typical p95 is far outside a settled run's window-to-window spread and
     * well inside what cold caches, JIT compilation and class loading cost at start.
     */
    public static final double SETTLE_FACTOR = 2.0;

    /**
     * Latency has settled at a window only if this many windows from it on (or all that remain,
     * if fewer) are within the limit: a short calm stretch inside the warm-up is not yet settled.
     */
    public static final int SETTLE_CALM_WINDOWS = 10;

    /**
     * The share of windows from the settle time on that may still exceed the limit: on a long run
     * a single late spike (a GC pause, a neighbour's burst) says nothing about the start, and must
     * not move the settle time to the end of the run.
     */
    public static final double SETTLE_LATE_SHARE = 0.05;

    /**
     * How long latency took to settle (docs/latency-probe.md, "Warm-up").
     *
     * @param medianWindowP95Ns the median p95 of the windows of the measured records (those from
     *                          the window of the first measured arrival on); -1 without one
     * @param settledAfterNs    from the first arrival of any record, warm-up included, to the start
     *                          of the first window from which latency stays settled: that window
     *                          and the {@link #SETTLE_CALM_WINDOWS} - 1 after it have a p95 within
     *                          {@link #SETTLE_FACTOR} times that median, and at most
     *                          {@link #SETTLE_LATE_SHARE} of all windows from it on exceed it (see
     *                          {@link #settledAfterWindow}); 0 when the run was settled from its
     *                          first window; -1 without a median
     * @param windowsOver       how many windows exceed it, warm-up and measured ones together
     * @param measuredWindowsOver of them, windows of the measured records: a settle time that falls
     *                          among the measured records comes from one of these
     */
    public record Settle(long medianWindowP95Ns, long settledAfterNs, long windowsOver, long measuredWindowsOver) {}

    private final Settings settings;
    private final Map<LatencyKind, LatencyHistogram> all = new EnumMap<>(LatencyKind.class);
    private final Map<LatencyKind, LatencyHistogram> steady = new EnumMap<>(LatencyKind.class);
    private final Map<LatencyKind, WindowedSlo> windows = new EnumMap<>(LatencyKind.class);
    private final Map<Stage, LatencyHistogram> stages = new EnumMap<>(Stage.class);
    private final Map<LatencyKind, LatencyHistogram> warmup = new EnumMap<>(LatencyKind.class);
    /** Windows over every record, warm-up included, from the first arrival of any: the settle time. */
    private final Map<LatencyKind, WindowedSlo> settling = new EnumMap<>(LatencyKind.class);

    private final SequenceTracker sequences = new SequenceTracker();
    private final MalformedCounts malformed = new MalformedCounts();
    private long records;
    private long firstArrivalNs;
    private long lastArrivalNs;
    private long warmupRecords;
    private long warmupDistinct;
    private boolean anyArrival;
    private long firstAnyArrivalNs;
    private long lastAnyArrivalNs;

    public RunStats(Settings settings) {
        this.settings = settings;
        for (LatencyKind kind : LatencyKind.values()) {
            all.put(kind, new LatencyHistogram());
            steady.put(kind, new LatencyHistogram());
            windows.put(kind, new WindowedSlo(settings.windowNs(), settings.sloNs()));
            warmup.put(kind, new LatencyHistogram());
            settling.put(kind, new WindowedSlo(settings.windowNs(), settings.sloNs()));
        }
        for (Stage stage : Stage.values()) {
            stages.put(stage, new LatencyHistogram());
        }
    }

    @Override
    public void arrived(Arrival arrival) {
        if (!anyArrival) {
            anyArrival = true;
            firstAnyArrivalNs = arrival.arrivalNs();
        }
        lastAnyArrivalNs = Math.max(lastAnyArrivalNs, arrival.arrivalNs());
        long sinceFirstAny = arrival.arrivalNs() - firstAnyArrivalNs;
        for (LatencyKind kind : LatencyKind.values()) {
            long latency = kind.of(arrival);
            if (latency != Arrival.ABSENT) {
                settling.get(kind).record(sinceFirstAny, latency);
            }
        }
        if (arrival.warmup()) {
            warmupArrived(arrival);
            return;
        }
        if (records == 0) {
            firstArrivalNs = arrival.arrivalNs();
            lastArrivalNs = arrival.arrivalNs();
        }
        records++;
        lastArrivalNs = Math.max(lastArrivalNs, arrival.arrivalNs());
        long offset = arrival.arrivalNs() - firstArrivalNs;
        boolean inSteadyState = offset >= settings.steadyAfterNs();
        for (LatencyKind kind : LatencyKind.values()) {
            long latency = kind.of(arrival);
            if (latency == Arrival.ABSENT) {
                continue;
            }
            all.get(kind).record(latency);
            if (inSteadyState) {
                steady.get(kind).record(latency);
            }
            windows.get(kind).record(offset, latency, arrival.degraded());
        }
        for (Stage stage : Stage.values()) {
            long duration = stage.of(arrival);
            if (duration != Arrival.ABSENT) {
                stages.get(stage).record(duration);
            }
        }
        sequences.record(arrival.detector(), arrival.seq());
    }

    /** A warm-up record: its own latency histogram and the sequence checks, nothing measured. */
    private void warmupArrived(Arrival arrival) {
        warmupRecords++;
        for (LatencyKind kind : LatencyKind.values()) {
            long latency = kind.of(arrival);
            if (latency != Arrival.ABSENT) {
                warmup.get(kind).record(latency);
            }
        }
        if (sequences.record(arrival.detector(), arrival.seq()) != SequenceTracker.Outcome.DUPLICATE) {
            warmupDistinct++;
        }
    }

    @Override
    public void malformed(MalformedRecord record) {
        malformed.add(record);
    }

    public Settings settings() {
        return settings;
    }

    /** Valid measured records received (warm-up records are not among them), duplicates included. */
    public long records() {
        return records;
    }

    /** Valid warm-up records received, duplicates included. */
    public long warmupRecords() {
        return warmupRecords;
    }

    /** Distinct measured (detector, seq) pairs: what {@code --records} and {@code --expect} count. */
    public long measuredDistinct() {
        return sequences.distinctTotal() - warmupDistinct;
    }

    /** Measured records the producers announced ({@code --expect}) that never arrived, at least 0. */
    public long shortfall(long expected) {
        return Math.max(0, expected - measuredDistinct());
    }

    /** The warm-up records' latencies of one kind. */
    public LatencyHistogram warmupLatency(LatencyKind kind) {
        return warmup.get(kind);
    }

    /** The first arrival of any record, warm-up included: where the settle time is counted from. */
    public long firstAnyArrivalNs() {
        return firstAnyArrivalNs;
    }

    /**
     * How long latency of one kind took to settle, over the windows of every record: see
     * {@link Settle}.
     */
    public Settle settle(LatencyKind kind) {
        if (records == 0) {
            return new Settle(-1, -1, 0, 0);
        }
        WindowedSlo.Report all = settling.get(kind).report(0, lastAnyArrivalNs - firstAnyArrivalNs);
        long firstMeasuredWindow = (firstArrivalNs - firstAnyArrivalNs) / settings.windowNs();
        long[] measuredP95 = all.nonEmpty().stream()
                .filter(w -> w.index() >= firstMeasuredWindow)
                .mapToLong(WindowedSlo.Window::p95Ns)
                .sorted()
                .toArray();
        if (measuredP95.length == 0) {
            return new Settle(-1, -1, 0, 0);
        }
        long median = measuredP95[(measuredP95.length - 1) / 2];
        double limit = SETTLE_FACTOR * median;
        long over = 0;
        long measuredOver = 0;
        for (WindowedSlo.Window w : all.nonEmpty()) {
            if (w.p95Ns() > limit) {
                over++;
                if (w.index() >= firstMeasuredWindow) {
                    measuredOver++;
                }
            }
        }
        long settledAfter = settledAfterWindow(all.nonEmpty(), limit) * settings.windowNs();
        return new Settle(median, settledAfter, over, measuredOver);
    }

    /**
     * The index of the window at whose start latency had settled: the first window that is within
     * {@code limit}, followed by windows within it up to {@link #SETTLE_CALM_WINDOWS} in all (or
     * to the end of the run), with at most {@link #SETTLE_LATE_SHARE} of the windows from it on
     * over it. When no window qualifies (latency was still above the limit at the end), the
     * window after the last one over it: the run never settled before it ended.
     *
     * @param windows the non-empty windows in time order
     */
    static long settledAfterWindow(java.util.List<WindowedSlo.Window> windows, double limit) {
        int n = windows.size();
        // From the end: how many of the windows from i on are over, and how many in a row from i
        // are within the limit.
        int[] overFrom = new int[n + 1];
        int[] calmRunFrom = new int[n + 1];
        for (int i = n - 1; i >= 0; i--) {
            boolean over = windows.get(i).p95Ns() > limit;
            overFrom[i] = overFrom[i + 1] + (over ? 1 : 0);
            calmRunFrom[i] = over ? 0 : calmRunFrom[i + 1] + 1;
        }
        for (int i = 0; i < n; i++) {
            int remaining = n - i;
            if (calmRunFrom[i] >= Math.min(SETTLE_CALM_WINDOWS, remaining)
                    && overFrom[i] <= SETTLE_LATE_SHARE * remaining) {
                return windows.get(i).index();
            }
        }
        return n == 0 ? 0 : windows.get(n - 1).index() + 1;
    }

    public boolean isEmpty() {
        return records == 0;
    }

    public long firstArrivalNs() {
        return firstArrivalNs;
    }

    public long lastArrivalNs() {
        return lastArrivalNs;
    }

    /** The whole run's latencies of one kind. */
    public LatencyHistogram latency(LatencyKind kind) {
        return all.get(kind);
    }

    /** Latencies of measured records that arrived after the steady-state cut. */
    public LatencyHistogram steadyLatency(LatencyKind kind) {
        return steady.get(kind);
    }

    /** Whether any steady-state record arrived, i.e. the measured records outlasted the steady-state cut. */
    public boolean hasSteadyState() {
        return records > 0 && lastArrivalNs - firstArrivalNs >= settings.steadyAfterNs();
    }

    /** The latency reports lead with: from intended when records carry an intended time, else from sent. */
    public LatencyKind primaryKind() {
        return all.get(LatencyKind.FROM_INTENDED).count() > 0
                        || warmup.get(LatencyKind.FROM_INTENDED).count() > 0
                ? LatencyKind.FROM_INTENDED
                : LatencyKind.FROM_SENT;
    }

    public LatencyHistogram stage(Stage stage) {
        return stages.get(stage);
    }

    /** Whether any record carried stage durations (false on its.readings). */
    public boolean hasStages() {
        return stages.values().stream().anyMatch(h -> h.count() > 0);
    }

    public SequenceTracker sequences() {
        return sequences;
    }

    public MalformedCounts malformed() {
        return malformed;
    }

    /** Windowed p95 over the whole active span. */
    public WindowedSlo.Report slo(LatencyKind kind) {
        return windows.get(kind).report(0, records == 0 ? -1 : lastArrivalNs - firstArrivalNs);
    }

    /** Windowed p95 over the windows that start after the steady-state cut. */
    public WindowedSlo.Report steadySlo(LatencyKind kind) {
        return windows.get(kind).report(settings.steadyAfterNs(), records == 0 ? -1 : lastArrivalNs - firstArrivalNs);
    }
}
