package org.itsrt.probe.report;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.itsrt.probe.arrival.Arrival;
import org.itsrt.probe.arrival.ArrivalSink;

/**
 * {@code latencies.csv}: one row per measured record, written as records arrive (buffered, so a
 * row costs the consume loop a few hundred nanoseconds), in arrival order. Stamps are the clock's
 * raw nanoseconds; durations are exact decimal conversions of them. Optional fields the record
 * lacks are left empty. {@code degraded} is {@code true} or {@code false}; {@code predicted_flow} is
 * the job's prediction exactly as the record held it (the shortest decimal of the same double), so
 * two runs' predictions on the same record compare equal when the same engine made them
 * ({@code its-probe accuracy}).
 */
public final class LatencyCsv implements ArrivalSink {

    public static final String FILE = "latencies.csv";

    public static final String HEADER = "detector,seq,sent_ns,intended_ns,arrival_ns,latency_ms,"
            + "latency_from_intended_ms,parse_us,infer_us,route_us,degraded,predicted_flow";

    /**
     * The header of files written before the job's predictions were kept: still read, so older run
     * folders can be reported and compared again.
     */
    static final String HEADER_WITHOUT_PREDICTIONS = HEADER.substring(0, HEADER.indexOf(",degraded"));

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
        row.append(',').append(a.degraded()).append(',');
        if (a.hasPrediction()) {
            row.append(a.predictedFlow());
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

    /**
     * Hands the records of a finished file to {@code sink}, in the file's (arrival) order, with
     * what the file keeps of them: detector, seq and the stamps (no stage durations). The report
     * reads the run back so rather than keeping every arrival in memory; fault marks from a
     * faults file are only known once the run is over.
     *
     * @throws IOException naming the file and line of a row that is not as this class writes it
     */
    public static void replay(Path file, ArrivalSink sink) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            if (!HEADER.equals(header) && !HEADER_WITHOUT_PREDICTIONS.equals(header)) {
                throw new IOException(file + ": expected the header " + HEADER + ", got " + header);
            }
            List<String> columns = List.of(header.split(","));
            int detectorAt = columns.indexOf("detector");
            int seqAt = columns.indexOf("seq");
            int sentAt = columns.indexOf("sent_ns");
            int intendedAt = columns.indexOf("intended_ns");
            int arrivalAt = columns.indexOf("arrival_ns");
            String line;
            int number = 1;
            while ((line = in.readLine()) != null) {
                number++;
                String[] cells = line.split(",", -1);
                if (cells.length != columns.size()) {
                    throw new IOException(
                            file + ":" + number + ": " + cells.length + " columns, expected " + columns.size());
                }
                try {
                    sink.arrived(new Arrival(
                            Long.parseLong(cells[detectorAt]),
                            Long.parseLong(cells[seqAt]),
                            Long.parseLong(cells[sentAt]),
                            cells[intendedAt].isEmpty() ? Arrival.ABSENT : Long.parseLong(cells[intendedAt]),
                            Arrival.ABSENT,
                            Arrival.ABSENT,
                            Arrival.ABSENT,
                            Long.parseLong(cells[arrivalAt])));
                } catch (NumberFormatException e) {
                    throw new IOException(file + ":" + number + ": expected whole numbers: " + e.getMessage(), e);
                }
            }
        }
        sink.finish();
    }
}
