package org.itsrt.routing.district;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.itsrt.readings.pems.StationMeta;
import org.itsrt.readings.pems.StationMetaReader;

/**
 * Writes PeMS clearinghouse files in the published layouts the importer reads
 * ({@code StationMetaReader}, {@code ClearinghouseStationReader}): the station metadata file
 * {@code dNN_text_meta_YYYY_MM_DD.txt} and the 5-minute station files
 * {@code dNN_text_station_5min_YYYY_MM_DD.txt.gz}. Java's gzip header carries no time, so the
 * same rows give the same bytes.
 */
final class ClearinghouseFormat {

    /** The metadata header as PeMS publishes it: the columns the reader requires, then the user columns. */
    static final String META_HEADER = String.join(
            "\t",
            Stream.concat(StationMetaReader.REQUIRED_COLUMNS.stream(), StationMetaReader.USER_ID_COLUMNS.stream())
                    .toList());

    private static final DateTimeFormatter FILE_DATE = DateTimeFormatter.ofPattern("uuuu_MM_dd");
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("MM/dd/uuuu HH:mm:ss");

    private ClearinghouseFormat() {}

    static String metaFileName(int district, LocalDate date) {
        return String.format(Locale.ROOT, "d%02d_text_meta_%s.txt", district, FILE_DATE.format(date));
    }

    static String stationFileName(int district, LocalDate date) {
        return String.format(Locale.ROOT, "d%02d_text_station_5min_%s.txt.gz", district, FILE_DATE.format(date));
    }

    /**
     * Writes the metadata file: coordinates to 6 decimals and postmiles to 3, as PeMS prints them.
     *
     * @param userId1 what the {@code User_ID_1} column holds for every station
     */
    static void writeMeta(Path file, List<StationMeta> stations, String userId1) throws IOException {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.ISO_8859_1)) {
            out.write(META_HEADER);
            out.write('\n');
            for (StationMeta s : stations) {
                out.write(String.join(
                        "\t",
                        Long.toString(s.id()),
                        Integer.toString(s.freeway()),
                        Character.toString(s.direction()),
                        Integer.toString(s.district()),
                        s.county(),
                        s.city(),
                        s.statePostmile(),
                        String.format(Locale.ROOT, "%.3f", s.absPostmile()),
                        String.format(Locale.ROOT, "%.6f", s.latitude()),
                        String.format(Locale.ROOT, "%.6f", s.longitude()),
                        Double.isNaN(s.lengthMiles()) ? "" : String.format(Locale.ROOT, "%.3f", s.lengthMiles()),
                        s.type(),
                        Integer.toString(s.lanes()),
                        s.name(),
                        userId1,
                        "",
                        "",
                        ""));
                out.write('\n');
            }
        }
    }

    /** A 5-minute station file being written, one row per station and interval. */
    static final class StationFile implements AutoCloseable {

        private final Writer out;
        private final StringBuilder line = new StringBuilder(256);
        private String timestamp;

        StationFile(Path file) throws IOException {
            this.out = new BufferedWriter(
                    new OutputStreamWriter(
                            new GZIPOutputStream(Files.newOutputStream(file), 1 << 16), StandardCharsets.US_ASCII),
                    1 << 16);
        }

        /** The interval the next rows are of, as Pacific wall time. */
        void interval(LocalDateTime wallTime) {
            timestamp = TIMESTAMP.format(wallTime);
        }

        /**
         * One row: Timestamp, Station, District, Freeway #, Direction of Travel, Lane Type, Station
         * Length, Samples, % Observed (empty: not reported, as for every synthetic reading), Total
         * Flow, Avg Occupancy, Avg Speed, then per lane Samples, Flow (the total shared evenly,
         * the remainder to the first lanes), Avg Occ, Avg Speed, Observed.
         */
        void row(StationMeta station, GeneratedDetector.Interval reading) throws IOException {
            line.setLength(0);
            line.append(timestamp)
                    .append(',')
                    .append(station.id())
                    .append(',')
                    .append(station.district())
                    .append(',')
                    .append(station.freeway())
                    .append(',')
                    .append(station.direction())
                    .append(',')
                    .append(station.type())
                    .append(',');
            if (!Double.isNaN(station.lengthMiles())) {
                line.append(String.format(Locale.ROOT, "%.3f", station.lengthMiles()));
            }
            line.append(",,,").append(reading.flow()).append(',');
            appendFixed(reading.occupancy(), 4);
            line.append(',');
            appendFixed(reading.speed(), 1);
            int lanes = station.lanes();
            long perLane = reading.flow() / lanes;
            long remainder = reading.flow() % lanes;
            for (int lane = 0; lane < lanes; lane++) {
                line.append(",,").append(perLane + (lane < remainder ? 1 : 0)).append(",,,");
            }
            line.append('\n');
            out.append(line);
        }

        /** A non-negative number with this many decimals, without String.format's cost per row. */
        private void appendFixed(double value, int decimals) {
            long scale = (long) Math.pow(10, decimals);
            long scaled = Math.round(value * scale);
            line.append(scaled / scale).append('.');
            String fraction = Long.toString(scaled % scale);
            line.append("0".repeat(decimals - fraction.length())).append(fraction);
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
