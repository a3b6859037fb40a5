package org.itsrt.probe.report;

import java.io.PrintStream;
import java.util.Locale;
import org.itsrt.probe.arrival.Arrival;
import org.itsrt.probe.arrival.ArrivalSink;
import org.itsrt.probe.arrival.MalformedRecord;
import org.itsrt.probe.stats.LatencyHistogram;
import org.itsrt.probe.stats.LatencyKind;
import org.itsrt.probe.stats.RunStats;
import org.itsrt.probe.stats.SequenceTracker;

/**
 * A progress line every few seconds of a long run: records so far, the rate since the last line,
 * running p50/p99, loss so far, and the time left when a target count is known. Printed from the
 * consume loop between polls, so it reads the statistics without locking.
 */
public final class ArrivalProgress implements ArrivalSink {

    private final RunStats stats;
    private final PrintStream out;
    private final long everyNs;
    private final long target;
    /** What every line starts with: {@code its-probe: }, and the stream's name when a run measures several. */
    private final String prefix;

    private boolean started;
    private long firstArrivalNs;
    private long lastLineNs;
    private long lastLineCount;
    private long malformed;
    private boolean waitingShown;
    private boolean measuring;

    /**
     * @param everyNs time between lines; 0 prints nothing
     * @param target  records the run expects ({@code --records} or {@code --expect}), 0 when unknown
     */
    public ArrivalProgress(RunStats stats, PrintStream out, long everyNs, long target) {
        this(stats, out, everyNs, target, "");
    }

    /**
     * @param stream the stream's name, put after {@code its-probe: } on every line (a run that
     *               measures several streams prints a line per stream); empty for none
     */
    public ArrivalProgress(RunStats stats, PrintStream out, long everyNs, long target, String stream) {
        this.stats = stats;
        this.out = out;
        this.everyNs = everyNs;
        this.target = target;
        this.prefix = stream.isEmpty() ? "its-probe: " : "its-probe: " + stream + ": ";
    }

    @Override
    public void arrived(Arrival arrival) {
        if (!started) {
            started = true;
            lastLineNs = arrival.arrivalNs();
        }
        if (!measuring && !arrival.warmup()) {
            // The ETA is judged on the measured records, the ones the target counts.
            measuring = true;
            firstArrivalNs = arrival.arrivalNs();
        }
    }

    @Override
    public void malformed(MalformedRecord record) {
        malformed++;
    }

    @Override
    public void tick(long nowNs) {
        if (everyNs <= 0) {
            return;
        }
        if (stats.isEmpty() && stats.warmupRecords() == 0) {
            if (!waitingShown && malformed > 0) {
                out.println(prefix + malformed + " malformed records and no measurable one yet");
                waitingShown = true;
            }
            return;
        }
        if (nowNs - lastLineNs >= everyNs) {
            out.println(line(nowNs));
            out.flush();
            lastLineNs = nowNs;
            lastLineCount = stats.isEmpty() ? stats.warmupRecords() : stats.records();
        }
    }

    /** The final line, printed once the run has stopped. */
    public void finalLine(long nowNs) {
        if (everyNs > 0 && !(stats.isEmpty() && stats.warmupRecords() == 0)) {
            out.println(line(nowNs));
            out.flush();
        }
    }

    String line(long nowNs) {
        if (stats.isEmpty()) {
            return warmupLine(nowNs);
        }
        long records = stats.records();
        double sinceLast = Math.max((nowNs - lastLineNs) / 1e9, 1e-9);
        double rate = Math.max(0, records - lastLineCount) / sinceLast;
        LatencyKind kind = stats.primaryKind();
        LatencyHistogram latency = stats.latency(kind);
        SequenceTracker.DetectorCounts total = stats.sequences().total();
        StringBuilder line = new StringBuilder(160);
        line.append(String.format(
                Locale.ROOT,
                prefix + "%,d records, %,.0f/s, p50 %s ms, p99 %s ms (%s)",
                records,
                rate,
                Decimals.ms(latency.percentileNs(50), 3),
                Decimals.ms(latency.percentileNs(99), 3),
                kind.label()));
        line.append(String.format(
                Locale.ROOT, ", lost %d, dup %d, reordered %d", total.lost(), total.duplicated(), total.reordered()));
        if (malformed > 0) {
            line.append(", malformed ").append(malformed);
        }
        if (stats.warmupRecords() > 0) {
            line.append(String.format(Locale.ROOT, ", warm-up %,d apart", stats.warmupRecords()));
        }
        if (target > 0) {
            double elapsed = Math.max((nowNs - firstArrivalNs) / 1e9, 1e-9);
            double averageRate = records / elapsed;
            long left = Math.max(0, target - records);
            line.append(String.format(Locale.ROOT, ", %.1f%% of %,d", 100.0 * records / target, target));
            if (left > 0 && averageRate > 0) {
                line.append(", ETA ").append(org.itsrt.cli.Progress.time(left / averageRate));
            }
        }
        return line.toString();
    }

    /** While only warm-up records have arrived: their count and latency, marked as not measured. */
    private String warmupLine(long nowNs) {
        long records = stats.warmupRecords();
        double sinceLast = Math.max((nowNs - lastLineNs) / 1e9, 1e-9);
        LatencyKind kind = stats.primaryKind();
        LatencyHistogram latency = stats.warmupLatency(kind);
        return String.format(
                Locale.ROOT,
                prefix + "warm-up, %,d records (not measured), %,.0f/s, p50 %s ms, p99 %s ms (%s)%s",
                records,
                Math.max(0, records - lastLineCount) / sinceLast,
                Decimals.ms(latency.percentileNs(50), 3),
                Decimals.ms(latency.percentileNs(99), 3),
                kind.label(),
                malformed > 0 ? ", malformed " + malformed : "");
    }
}
