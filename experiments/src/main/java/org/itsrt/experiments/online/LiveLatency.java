package org.itsrt.experiments.online;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.itsrt.probe.arrival.Arrival;
import org.itsrt.probe.arrival.ArrivalSink;

/**
 * The end-to-end latency of the records arriving now, interval by interval, for a controller that
 * acts on it while the run goes. The probe's consuming thread records into an HdrHistogram
 * {@link Recorder} (wait-free for the writer); the controller's thread takes the interval's
 * histogram and starts the next one, so neither waits for the other and no record is counted
 * twice or lost between intervals.
 *
 * <p>Latency is from the intended send time where the record has one (as the probe's report
 * measures it: a stalled producer cannot hide a stalled pipeline), else from the send stamp.
 */
public final class LiveLatency implements ArrivalSink {

    /** Latencies are recorded in microseconds up to an hour: a backlog under a starved budget runs to minutes. */
    private static final long HIGHEST_US = 3_600_000_000L;

    private final Recorder recorder = new Recorder(1, HIGHEST_US, 3);
    private Histogram recycled;

    /** What arrived in one interval. */
    public record Interval(long records, double p50Ms, double p99Ms, double maxMs) {

        public static final Interval EMPTY = new Interval(0, Double.NaN, Double.NaN, Double.NaN);

        static Interval of(Histogram h) {
            if (h.getTotalCount() == 0) {
                return EMPTY;
            }
            return new Interval(
                    h.getTotalCount(),
                    h.getValueAtPercentile(50) / 1e3,
                    h.getValueAtPercentile(99) / 1e3,
                    h.getMaxValue() / 1e3);
        }
    }

    @Override
    public void arrived(Arrival arrival) {
        long ns = arrival.hasIntended() ? arrival.latencyFromIntendedNs() : arrival.latencyFromSentNs();
        recorder.recordValue(Math.max(1, Math.min(HIGHEST_US, ns / 1_000)));
    }

    /** The records that arrived since the last call, and a new interval from now; one caller thread. */
    public Interval take() {
        Histogram interval = recorder.getIntervalHistogram(recycled);
        Interval taken = Interval.of(interval);
        recycled = interval;
        return taken;
    }
}
