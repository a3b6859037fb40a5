package org.itsrt.probe.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.itsrt.probe.arrival.Arrival;
import org.itsrt.probe.arrival.ArrivalSink;
import org.itsrt.probe.stats.LatencyHistogram;
import org.itsrt.probe.stats.LatencyKind;

/**
 * {@code latency.hlog}: HdrHistogram's interval log, one histogram per interval (1 s by default)
 * of arrival time and per latency kind, tagged {@code from_sent} and {@code from_intended}. Values
 * are nanoseconds (the max column shows milliseconds). Adding up a tag's intervals gives the
 * run's whole histogram; HdrHistogram's own tools (HistogramLogProcessor) read the file too.
 * Intervals without arrivals are not written.
 */
public final class HistogramLog implements ArrivalSink {

    public static final String FILE = "latency.hlog";

    private final HistogramLogWriter writer;
    private final PrintStream stream;
    private final long intervalNs;
    private final long clockAnchorNs;
    private final Map<LatencyKind, Histogram> interval = new EnumMap<>(LatencyKind.class);
    private boolean started;
    private long intervalStartNs;

    /**
     * @param epochAnchorMs wall-clock time (ms since the epoch) read together with {@code clockAnchorNs}
     * @param clockAnchorNs the latency clock at that moment: maps arrival stamps to log timestamps
     * @param comments      lines written at the top (topic, clock)
     */
    public HistogramLog(Path file, long intervalNs, long epochAnchorMs, long clockAnchorNs, Iterable<String> comments)
            throws IOException {
        if (intervalNs <= 0) {
            throw new IllegalArgumentException("interval must be positive");
        }
        this.stream = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8);
        this.writer = new HistogramLogWriter(stream);
        this.intervalNs = intervalNs;
        this.clockAnchorNs = clockAnchorNs;
        for (LatencyKind kind : LatencyKind.values()) {
            Histogram histogram = LatencyHistogram.newHistogram();
            histogram.setTag(kind.key());
            interval.put(kind, histogram);
        }
        writer.outputLogFormatVersion();
        for (String comment : comments) {
            writer.outputComment(comment);
        }
        writer.outputStartTime(epochAnchorMs);
        writer.setBaseTime(epochAnchorMs);
        writer.outputBaseTime(epochAnchorMs);
        writer.outputLegend();
    }

    @Override
    public void arrived(Arrival arrival) {
        long now = arrival.arrivalNs();
        if (!started) {
            started = true;
            intervalStartNs = now;
        }
        flushBefore(now);
        for (LatencyKind kind : LatencyKind.values()) {
            long latency = kind.of(arrival);
            if (latency != Arrival.ABSENT && latency >= 0) {
                interval.get(kind).recordValue(latency);
            }
        }
    }

    @Override
    public void tick(long nowNs) {
        if (started) {
            flushBefore(nowNs);
        }
    }

    /** Writes the current interval if {@code nowNs} lies past its end, and moves to the interval holding {@code nowNs}. */
    private void flushBefore(long nowNs) {
        if (nowNs - intervalStartNs < intervalNs) {
            return;
        }
        writeInterval(intervalStartNs + intervalNs);
        intervalStartNs += (nowNs - intervalStartNs) / intervalNs * intervalNs;
    }

    private void writeInterval(long endNs) {
        for (Map.Entry<LatencyKind, Histogram> e : interval.entrySet()) {
            Histogram histogram = e.getValue();
            if (histogram.getTotalCount() > 0) {
                writer.outputIntervalHistogram(
                        secondsSinceBase(intervalStartNs), secondsSinceBase(endNs), histogram, 1e6);
                histogram.reset();
                // reset() forgets the tag too.
                histogram.setTag(e.getKey().key());
            }
        }
    }

    /** Interval timestamps are relative to the log's BaseTime, the wall-clock time read with the clock anchor. */
    private double secondsSinceBase(long clockNs) {
        return (clockNs - clockAnchorNs) / 1e9;
    }

    @Override
    public void finish() throws IOException {
        if (started) {
            writeInterval(intervalStartNs + intervalNs);
        }
        stream.flush();
        boolean failed = stream.checkError();
        writer.close();
        if (failed) {
            throw new IOException("cannot write " + FILE);
        }
    }
}
