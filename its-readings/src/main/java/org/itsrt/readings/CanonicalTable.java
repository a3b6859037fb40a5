package org.itsrt.readings;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Writes and reads the canonical readings table exactly as docs/canonical-table.md specifies:
 * RFC 4180 CSV in UTF-8 with {@code \n} line ends, gzip-compressed when the file name ends in
 * {@code .gz}. Reading checks the header and every cell, and the table's order and key, and
 * fails on the first violation with the file, line and column named.
 */
public final class CanonicalTable {

    public static final List<String> HEADER =
            List.of("station_id", "ts_utc", "ts_local", "flow", "speed", "pct_observed", "lanes", "source");

    /** The table's order: by station, then time. */
    public static final Comparator<Reading> ORDER =
            Comparator.comparingLong(Reading::stationId).thenComparing(Reading::tsUtc);

    private static final DateTimeFormatter UTC_FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC)
            .withResolverStyle(ResolverStyle.STRICT);
    private static final DateTimeFormatter LOCAL_FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssXXX");

    private static final Pattern POSITIVE_INTEGER = Pattern.compile("[1-9][0-9]{0,17}");
    private static final Pattern PLAIN_DECIMAL = Pattern.compile("[0-9]+(\\.[0-9]+)?");

    private static final CsvMapper WRITER_MAPPER = CsvMapper.builder()
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING) // quote only where RFC 4180 needs it
            .build();
    private static final CsvFactory READER_FACTORY =
            CsvFactory.builder().disable(CsvParser.Feature.ALLOW_TRAILING_COMMA).build();

    private CanonicalTable() {}

    /**
     * Writes the readings in the table's order.
     *
     * @throws IllegalArgumentException when the file name ends in neither {@code .csv} nor
     *                                  {@code .csv.gz}, or two readings share station and time
     */
    public static void write(Path file, Collection<Reading> readings) throws IOException {
        String name = file.getFileName().toString();
        if (!name.endsWith(".csv") && !name.endsWith(".csv.gz")) {
            throw new IllegalArgumentException("a readings table is named *.csv or *.csv.gz: " + file);
        }
        List<Reading> sorted = new ArrayList<>(readings);
        sorted.sort(ORDER);
        for (int i = 1; i < sorted.size(); i++) {
            if (ORDER.compare(sorted.get(i - 1), sorted.get(i)) == 0) {
                throw new IllegalArgumentException("two readings for station "
                        + sorted.get(i).stationId() + " at " + sorted.get(i).tsUtc());
            }
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        CsvSchema schema = CsvSchema.emptySchema().withLineSeparator("\n");
        try (Writer writer = new BufferedWriter(new OutputStreamWriter(openOutput(file), StandardCharsets.UTF_8));
                SequenceWriter rows =
                        WRITER_MAPPER.writerFor(String[].class).with(schema).writeValues(writer)) {
            rows.write(HEADER.toArray(String[]::new));
            for (Reading reading : sorted) {
                rows.write(cells(reading));
            }
        }
    }

    /**
     * Reads and validates a whole table.
     *
     * @throws BadInputException naming file, line and column of the first cell that breaks the
     *                           format, or of the first row out of order
     */
    public static List<Reading> read(Path file) throws IOException {
        List<Reading> readings = new ArrayList<>();
        forEach(file, readings::add);
        return List.copyOf(readings);
    }

    /**
     * Reads and validates a table row by row, handing each reading on in the table's order without
     * holding them: a district's table of millions of rows is read without a {@link Reading} object
     * per row staying in memory. Rows before a bad one have been handed on when it fails.
     *
     * @throws BadInputException as {@link #read(Path)}
     */
    public static void forEach(Path file, Consumer<? super Reading> each) throws IOException {
        String fileName = file.toString();
        try (Reader reader = new BufferedReader(new InputStreamReader(openInput(file), StandardCharsets.UTF_8));
                JsonParser parser = READER_FACTORY.createParser(reader)) {
            List<String> cells = new ArrayList<>();
            long line = 0;
            long previousLine = 0;
            Reading previous = null;
            boolean headerSeen = false;
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                switch (token) {
                    case START_ARRAY -> cells.clear();
                    case VALUE_STRING -> {
                        // The row's first cell knows the row's line; at START_ARRAY the parser
                        // has not yet passed the previous row's line end.
                        if (cells.isEmpty()) {
                            line = parser.currentTokenLocation().getLineNr();
                        }
                        cells.add(parser.getText());
                    }
                    case END_ARRAY -> {
                        if (!headerSeen) {
                            checkHeader(fileName, line, cells);
                            headerSeen = true;
                        } else {
                            Reading reading = parseRow(fileName, line, cells);
                            if (previous != null) {
                                checkOrder(fileName, line, previousLine, previous, reading);
                            }
                            each.accept(reading);
                            previous = reading;
                            previousLine = line;
                        }
                    }
                    default ->
                        throw new BadInputException(
                                fileName, "line " + line, null, "not a CSV row (unexpected " + token + ")");
                }
            }
            if (!headerSeen) {
                throw new BadInputException(
                        fileName, null, null, "empty file: expected the header " + String.join(",", HEADER));
            }
        }
    }

    /** Writes a number in plain decimal with no trailing zeros: 137, 71.4, never 1.37E2. */
    public static String formatNumber(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    private static String[] cells(Reading reading) {
        return new String[] {
            Long.toString(reading.stationId()),
            UTC_FORMAT.format(reading.tsUtc()),
            LOCAL_FORMAT.format(reading.tsLocal()),
            formatNumber(reading.flow()),
            reading.speed() == null ? "" : formatNumber(reading.speed()),
            reading.pctObserved() == null ? "" : formatNumber(reading.pctObserved()),
            Integer.toString(reading.lanes()),
            reading.source()
        };
    }

    private static void checkHeader(String file, long line, List<String> cells) {
        for (int i = 0; i < Math.max(cells.size(), HEADER.size()); i++) {
            String found = i < cells.size() ? cells.get(i) : null;
            String expected = i < HEADER.size() ? HEADER.get(i) : null;
            if (expected == null || !expected.equals(found)) {
                String column = "#" + (i + 1) + (expected == null ? "" : " ('" + expected + "')");
                throw new BadInputException(
                        file,
                        "line " + line,
                        column,
                        "expected the header " + String.join(",", HEADER) + ", got " + String.join(",", cells));
            }
        }
    }

    private static Reading parseRow(String file, long line, List<String> cells) {
        String place = "line " + line;
        if (cells.size() != HEADER.size()) {
            throw new BadInputException(
                    file, place, null, "expected " + HEADER.size() + " columns, got " + cells.size());
        }
        long stationId = positiveInteger(file, place, 0, cells.get(0));
        Instant tsUtc = utcInstant(file, place, cells.get(1));
        String expectedLocal = LOCAL_FORMAT.format(tsUtc.atZone(Reading.PACIFIC));
        if (!expectedLocal.equals(cells.get(2))) {
            throw new BadInputException(
                    file,
                    place,
                    column(2),
                    "expected " + expectedLocal + " (ts_utc as Pacific time), got '" + cells.get(2) + "'");
        }
        double flow = plainDecimal(file, place, 3, cells.get(3));
        Double speed = cells.get(4).isEmpty() ? null : plainDecimal(file, place, 4, cells.get(4));
        Double pctObserved = cells.get(5).isEmpty() ? null : plainDecimal(file, place, 5, cells.get(5));
        if (pctObserved != null && pctObserved > 100) {
            throw new BadInputException(
                    file, place, column(5), "expected empty or a number in 0..100, got '" + cells.get(5) + "'");
        }
        long lanes = positiveInteger(file, place, 6, cells.get(6));
        if (lanes > Integer.MAX_VALUE) {
            throw new BadInputException(file, place, column(6), "lane count too large: " + cells.get(6));
        }
        String source = cells.get(7);
        if (!Reading.isKnownSource(source)) {
            throw new BadInputException(
                    file,
                    place,
                    column(7),
                    "expected one of " + Reading.SOURCE_REPORT
                            + ", " + Reading.SOURCE_REPORT_FLOW_ONLY + ", " + Reading.SOURCE_CLEARINGHOUSE
                            + " or synthetic:seed=N, got '" + source + "'");
        }
        return new Reading(stationId, tsUtc, flow, speed, pctObserved, (int) lanes, source);
    }

    private static void checkOrder(String file, long line, long previousLine, Reading previous, Reading current) {
        int order = ORDER.compare(previous, current);
        if (order == 0) {
            throw new BadInputException(
                    file,
                    "line " + line,
                    null,
                    "station " + current.stationId() + " at " + current.tsUtc() + " repeats line " + previousLine
                            + " (the key must be unique)");
        }
        if (order > 0) {
            throw new BadInputException(
                    file,
                    "line " + line,
                    null,
                    "out of order: rows are sorted by station_id, then ts_utc, and this row sorts before line "
                            + previousLine);
        }
    }

    private static long positiveInteger(String file, String place, int column, String cell) {
        if (!POSITIVE_INTEGER.matcher(cell).matches()) {
            throw new BadInputException(file, place, column(column), "expected a positive integer, got '" + cell + "'");
        }
        return Long.parseLong(cell);
    }

    private static double plainDecimal(String file, String place, int column, String cell) {
        if (!PLAIN_DECIMAL.matcher(cell).matches()) {
            throw new BadInputException(
                    file,
                    place,
                    column(column),
                    "expected a plain decimal number >= 0 (like 137 or 71.4), got '" + cell + "'");
        }
        return Double.parseDouble(cell);
    }

    private static Instant utcInstant(String file, String place, String cell) {
        Instant instant;
        try {
            instant = Instant.from(UTC_FORMAT.parse(cell));
        } catch (DateTimeParseException e) {
            throw new BadInputException(
                    file, place, column(1), "expected a UTC instant like 2018-03-11T10:00:00Z, got '" + cell + "'");
        }
        if (instant.getEpochSecond() % Reading.INTERVAL.toSeconds() != 0) {
            throw new BadInputException(
                    file, place, column(1), "expected the start of a 5-minute interval, got '" + cell + "'");
        }
        return instant;
    }

    private static String column(int index) {
        return "'" + HEADER.get(index) + "'";
    }

    private static OutputStream openOutput(Path file) throws IOException {
        OutputStream out = Files.newOutputStream(file);
        return file.getFileName().toString().endsWith(".gz") ? new GZIPOutputStream(out, 1 << 16) : out;
    }

    private static InputStream openInput(Path file) throws IOException {
        InputStream in = Files.newInputStream(file);
        if (!file.getFileName().toString().endsWith(".gz")) {
            return in;
        }
        try {
            return new GZIPInputStream(in, 1 << 16);
        } catch (IOException notGzip) {
            in.close();
            throw notGzip;
        }
    }
}
