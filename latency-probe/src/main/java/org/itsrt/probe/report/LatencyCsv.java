package org.itsrt.probe.report;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.itsrt.probe.arrival.Arrival;
import org.itsrt.probe.arrival.ArrivalSink;

/**
 * {@code latencies.csv}: one row per measured record, written as records arrive (buffered, so a
 * row costs the consume loop a few hundred nanoseconds), in arrival order. Stamps are the clock's
 * raw nanoseconds; durations are exact decimal conversions of them. Optional fields the record
 * lacks are left empty.
 */
public final class LatencyCsv implements ArrivalSink {

    public static final String FILE = "latencies.csv";

    public static final String HEADER = "detector,seq,sent_ns,intended_ns,arrival_ns,latency_ms,"
            + "latency_from_intended_ms,parse_us,infer_us,route_us";

    private final Writer out;
    private final StringBuilder row = new StringBuilder(160);

    public LatencyCsv(Path file) throws IOException {
        this.out = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 20);
        out.write(HEADER);
        out.write('\n');
    }

    @Override
    public void arrived(Arrival a) {
        row.setLength(0);
        row.append(a.detector())
                .append(',')
                .append(a.seq())
                .append(',')
                .append(a.sentNs())
                .append(',');
        if (a.hasIntended()) {
            row.append(a.intendedNs());
        }
        row.append(',')
                .append(a.arrivalNs())
                .append(',')
                .append(Decimals.fixed(a.latencyFromSentNs(), 6))
                .append(',');
        if (a.hasIntended()) {
            row.append(Decimals.fixed(a.latencyFromIntendedNs(), 6));
        }
        for (long stage : new long[] {a.parseNs(), a.inferNs(), a.routeNs()}) {
            row.append(',');
            if (stage != Arrival.ABSENT) {
                row.append(Decimals.fixed(stage, 3));
            }
        }
        row.append('\n');
        try {
            out.append(row);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + FILE, e);
        }
    }

    @Override
    public void finish() throws IOException {
        out.close();
    }
}
