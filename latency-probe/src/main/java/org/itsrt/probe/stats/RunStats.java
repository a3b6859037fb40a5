package org.itsrt.probe.stats;

import java.util.EnumMap;
import java.util.Map;
import org.itsrt.probe.arrival.Arrival;
import org.itsrt.probe.arrival.ArrivalSink;
import org.itsrt.probe.arrival.MalformedRecord;

/**
 * Everything a run's report is computed from, updated record by record: latency histograms for
 * the whole run and for its steady state, stage durations, sequence checks, windowed p95.
 */
public final class RunStats implements ArrivalSink {

    /**
     * @param windowNs width of an SLO window
     * @param sloNs    the SLO a window's p95 is held to
     * @param warmupNs time after the first arrival left out of the steady-state figures
     */
    public record Settings(long windowNs, long sloNs, long warmupNs) {
        public Settings {
            if (windowNs <= 0) {
                throw new IllegalArgumentException("window must be positive");
            }
            if (sloNs < 0 || warmupNs < 0) {
                throw new IllegalArgumentException("SLO and warm-up cannot be negative");
            }
        }
    }

    private final Settings settings;
    private final Map<LatencyKind, LatencyHistogram> all = new EnumMap<>(LatencyKind.class);
    private final Map<LatencyKind, LatencyHistogram> steady = new EnumMap<>(LatencyKind.class);
    private final Map<LatencyKind, WindowedSlo> windows = new EnumMap<>(LatencyKind.class);
    private final Map<Stage, LatencyHistogram> stages = new EnumMap<>(Stage.class);
    private final SequenceTracker sequences = new SequenceTracker();
    private final MalformedCounts malformed = new MalformedCounts();
    private long records;
    private long firstArrivalNs;
    private long lastArrivalNs;

    public RunStats(Settings settings) {
        this.settings = settings;
        for (LatencyKind kind : LatencyKind.values()) {
            all.put(kind, new LatencyHistogram());
            steady.put(kind, new LatencyHistogram());
            windows.put(kind, new WindowedSlo(settings.windowNs(), settings.sloNs()));
        }
        for (Stage stage : Stage.values()) {
            stages.put(stage, new LatencyHistogram());
        }
    }

    @Override
    public void arrived(Arrival arrival) {
        if (records == 0) {
            firstArrivalNs = arrival.arrivalNs();
            lastArrivalNs = arrival.arrivalNs();
        }
        records++;
        lastArrivalNs = Math.max(lastArrivalNs, arrival.arrivalNs());
        long offset = arrival.arrivalNs() - firstArrivalNs;
        boolean inSteadyState = offset >= settings.warmupNs();
        for (LatencyKind kind : LatencyKind.values()) {
            long latency = kind.of(arrival);
            if (latency == Arrival.ABSENT) {
                continue;
            }
            all.get(kind).record(latency);
            if (inSteadyState) {
                steady.get(kind).record(latency);
            }
            windows.get(kind).record(offset, latency);
        }
        for (Stage stage : Stage.values()) {
            long duration = stage.of(arrival);
            if (duration != Arrival.ABSENT) {
                stages.get(stage).record(duration);
            }
        }
        sequences.record(arrival.detector(), arrival.seq());
    }

    @Override
    public void malformed(MalformedRecord record) {
        malformed.add(record);
    }

    public Settings settings() {
        return settings;
    }

    /** Valid records received. */
    public long records() {
        return records;
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

    /** Latencies of records that arrived after the warm-up. */
    public LatencyHistogram steadyLatency(LatencyKind kind) {
        return steady.get(kind);
    }

    /** Whether any steady-state record arrived, i.e. the run outlasted its warm-up. */
    public boolean hasSteadyState() {
        return records > 0 && lastArrivalNs - firstArrivalNs >= settings.warmupNs();
    }

    /** The latency reports lead with: from intended when records carry an intended time, else from sent. */
    public LatencyKind primaryKind() {
        return all.get(LatencyKind.FROM_INTENDED).count() > 0 ? LatencyKind.FROM_INTENDED : LatencyKind.FROM_SENT;
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

    /** Windowed p95 over the windows that start after the warm-up. */
    public WindowedSlo.Report steadySlo(LatencyKind kind) {
        return windows.get(kind).report(settings.warmupNs(), records == 0 ? -1 : lastArrivalNs - firstArrivalNs);
    }
}
