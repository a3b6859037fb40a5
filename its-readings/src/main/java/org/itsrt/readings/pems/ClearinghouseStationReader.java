package org.itsrt.readings.pems;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.itsrt.readings.Reading;

/**
 * Reads a PeMS clearinghouse station file {@code dNN_text_station_5min_YYYY_MM_DD.txt}, plain
 * or gzip-compressed ({@code .txt.gz}). Published layout: comma-separated, no header, an empty
 * field is a missing value; 12 fields (Timestamp {@code MM/DD/YYYY HH24:MI:SS} in Pacific time,
 * Station, District, Freeway #, Direction of Travel, Lane Type, Station Length, Samples,
 * % Observed, Total Flow, Avg Occupancy, Avg Speed) and then 5 per lane (Lane N Samples, Flow,
 * Avg Occ, Avg Speed, Observed).
 */
final class ClearinghouseStationReader {
    static final List<String> FIELDS = List.of(
            "Timestamp",
            "Station",
            "District",
            "Freeway #",
            "Direction of Travel",
            "Lane Type",
            "Station Length",
            "Samples",
            "% Observed",
            "Total Flow",
            "Avg Occupancy",
            "Avg Speed");
    private static final List<String> LANE_FIELDS = List.of("Samples", "Flow", "Avg Occ", "Avg Speed", "Observed");

    private static final int TIMESTAMP = 0;
    private static final int STATION = 1;
    private static final int PCT_OBSERVED = 8;
    private static final int TOTAL_FLOW = 9;
    private static final int AVG_SPEED = 11;

    private static final DateTimeFormatter TIME_FORMAT =
            DateTimeFormatter.ofPattern("MM/dd/uuuu HH:mm:ss").withResolverStyle(ResolverStyle.STRICT);

    private ClearinghouseStationReader() {}

    /**
     * Reads one file into the context's sink.
     *
     * @param file the file as the user named it, used in every message
     */
    static FileSummary read(Path path, String file, ImportContext context) throws IOException {
        FileTally tally = new FileTally(file, SourceKind.CLEARINGHOUSE_STATION_5MIN);
        PacificTimeResolver times = new PacificTimeResolver();
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(open(path), StandardCharsets.US_ASCII), 1 << 16)) {
            long lineNumber = 0;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                String[] fields = line.split(",", -1);
                Long stationId = null;
                try {
                    stationId = stationId(fields);
                    if (!context.selected().test(stationId)) {
                        tally.otherStation();
                        continue;
                    }
                    Reading reading = reading(fields, stationId, times, context);
                    context.sink().accept(new SourcedReading(reading, file, lineNumber));
                    tally.reading(reading);
                } catch (RowProblem problem) {
                    context.problems().rowRejected(file, "line " + lineNumber, lineNumber, stationId, problem);
                    tally.skipped();
                }
            }
        }
        return tally.summary();
    }

    private static InputStream open(Path path) throws IOException {
        InputStream in = Files.newInputStream(path);
        try {
            return path.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(in, 1 << 16) : in;
        } catch (IOException notGzip) {
            in.close();
            throw notGzip;
        }
    }

    private static long stationId(String[] fields) throws RowProblem {
        if (fields.length < FIELDS.size() || (fields.length - FIELDS.size()) % LANE_FIELDS.size() != 0) {
            throw RowProblem.malformed(
                    null,
                    "wrong field count",
                    "expected " + FIELDS.size() + " fields plus " + LANE_FIELDS.size() + " per lane, got "
                            + fields.length);
        }
        String station = fields[STATION];
        if (!TextFields.isInteger(station) || Long.parseLong(station) <= 0) {
            throw RowProblem.malformed(
                    label(STATION), "bad station id", "expected a positive integer, got '" + station + "'");
        }
        return Long.parseLong(station);
    }

    private static Reading reading(String[] fields, long stationId, PacificTimeResolver times, ImportContext context)
            throws RowProblem {
        Instant tsUtc = times.toInstant(localTime(fields[TIMESTAMP]), label(TIMESTAMP));
        Double flow = number(fields, TOTAL_FLOW);
        if (flow == null) {
            throw new RowProblem(label(TOTAL_FLOW), "no flow", "empty Total Flow: the interval has no reading", false);
        }
        Double speed = number(fields, AVG_SPEED);
        Double pctObserved = number(fields, PCT_OBSERVED);
        if (pctObserved != null && pctObserved > 100) {
            throw RowProblem.malformed(
                    label(PCT_OBSERVED), "out of range", "expected a share in 0..100, got " + fields[PCT_OBSERVED]);
        }
        int lanes = context.lanes(stationId, lanesWithData(fields));
        if (lanes == 0) {
            throw new RowProblem(
                    null,
                    "lanes unknown",
                    "no lane has data and the station is not in the metadata, so its lane count is unknown",
                    false);
        }
        return new Reading(
                stationId,
                tsUtc,
                flow,
                speed,
                pctObserved,
                lanes,
                context.source(stationId, Reading.SOURCE_CLEARINGHOUSE));
    }

    private static LocalDateTime localTime(String field) throws RowProblem {
        LocalDateTime local;
        try {
            local = LocalDateTime.parse(field, TIME_FORMAT);
        } catch (DateTimeParseException e) {
            throw RowProblem.malformed(
                    label(TIMESTAMP),
                    "bad timestamp",
                    "expected a timestamp like 03/11/2018 01:55:00, got '" + field + "'");
        }
        if (local.getMinute() % 5 != 0 || local.getSecond() != 0) {
            throw RowProblem.malformed(
                    label(TIMESTAMP),
                    "not a 5-minute interval",
                    "expected the start of a 5-minute interval, got '" + field + "'");
        }
        return local;
    }

    /** The field's value; null when empty; negative numbers and text are malformed. */
    private static Double number(String[] fields, int index) throws RowProblem {
        String field = fields[index];
        if (field.isEmpty()) {
            return null;
        }
        if (!TextFields.isDecimal(field)) {
            throw RowProblem.malformed(label(index), "not a number", "expected a number, got '" + field + "'");
        }
        double value = Double.parseDouble(field);
        if (value < 0) {
            throw RowProblem.malformed(label(index), "negative", "expected a number >= 0, got '" + field + "'");
        }
        return value;
    }

    /**
     * The highest lane whose fields are not all empty: a line may be padded with empty lane groups
     * beyond the station's own lanes.
     */
    private static int lanesWithData(String[] fields) {
        int laneCount = (fields.length - FIELDS.size()) / LANE_FIELDS.size();
        for (int lane = laneCount; lane >= 1; lane--) {
            int start = FIELDS.size() + (lane - 1) * LANE_FIELDS.size();
            for (int i = start; i < start + LANE_FIELDS.size(); i++) {
                if (!fields[i].isEmpty()) {
                    return lane;
                }
            }
        }
        return 0;
    }

    /** {@code 'Total Flow' (field 10)}: the published name and the 1-based position. */
    private static String label(int index) {
        return "'" + FIELDS.get(index) + "' (field " + (index + 1) + ")";
    }
}
