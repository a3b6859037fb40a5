package org.itsrt.readings.pems;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.dhatim.fastexcel.reader.Cell;
import org.dhatim.fastexcel.reader.CellAddress;
import org.dhatim.fastexcel.reader.CellType;
import org.dhatim.fastexcel.reader.ExcelReaderException;
import org.dhatim.fastexcel.reader.ReadableWorkbook;
import org.dhatim.fastexcel.reader.Row;
import org.dhatim.fastexcel.reader.Sheet;
import org.itsrt.readings.BadInputException;
import org.itsrt.readings.Reading;

/**
 * Reads a PeMS "Aggregates > Time Series" report export ({@code .xlsx}, 5-minute granularity).
 *
 * <p>Sheet {@code Report Data} has a header row whose columns are found by name, since the lane
 * columns vary with the station and with the lanes chosen for the report:
 * {@code 5 Minutes}, per lane {@code Lane N Flow (Veh/5 Minutes)} (and {@code Lane N Speed (mph)}),
 * then {@code Flow (Veh/5 Minutes)}, {@code Speed (mph)}, {@code # Lane Points},
 * {@code % Observed}. An export without {@code Speed (mph)} is the flow-only variant. Times are
 * Pacific wall-clock text such as {@code 3/01/2018 0:05}. The station id is the
 * {@code station_id} parameter of the report link on sheet {@code PeMS Report Description}.
 */
final class ReportExportReader {
    static final String DATA_SHEET = "Report Data";
    static final String DESCRIPTION_SHEET = "PeMS Report Description";

    static final String TIME_COLUMN = "5 Minutes";
    static final String FLOW_COLUMN = "Flow (Veh/5 Minutes)";
    static final String SPEED_COLUMN = "Speed (mph)";
    static final String PCT_OBSERVED_COLUMN = "% Observed";
    private static final Pattern LANE_FLOW_COLUMN = Pattern.compile("Lane (\\d+) Flow \\(Veh/5 Minutes\\)");
    private static final Pattern LANE_SPEED_COLUMN = Pattern.compile("Lane (\\d+) Speed \\(mph\\)");
    private static final String REPORT_LINK_LABEL = "Report link";

    private static final DateTimeFormatter TIME_FORMAT =
            DateTimeFormatter.ofPattern("M/d/uuuu H:mm").withResolverStyle(ResolverStyle.STRICT);

    private ReportExportReader() {}

    /** True when the file is a workbook with the two sheets of a PeMS report export. */
    static boolean isReportExport(Path file) {
        try (ReadableWorkbook workbook = new ReadableWorkbook(file.toFile())) {
            return workbook.findSheet(DATA_SHEET).isPresent()
                    && workbook.findSheet(DESCRIPTION_SHEET).isPresent();
        } catch (IOException | RuntimeException notAWorkbook) {
            return false;
        }
    }

    /**
     * Reads one export into the context's sink.
     *
     * @param file the file as the user named it, used in every message
     * @throws BadInputException in strict mode, for a malformed row or a file that is not a
     *                           readable export
     */
    static FileSummary read(Path path, String file, ImportContext context) throws IOException {
        FileTally tally = new FileTally(file, SourceKind.REPORT_EXPORT);
        try (ReadableWorkbook workbook = new ReadableWorkbook(path.toFile())) {
            long stationId = stationId(workbook, file);
            Sheet data = workbook.findSheet(DATA_SHEET)
                    .orElseThrow(() -> new BadInputException(file, null, null, "no sheet '" + DATA_SHEET + "'"));
            try (Stream<Row> rows = data.openStream()) {
                readRows(rows.iterator(), file, stationId, context, tally);
            }
        } catch (BadInputException e) {
            context.problems().fileRejected(e);
        } catch (ExcelReaderException e) {
            context.problems()
                    .fileRejected(
                            new BadInputException(file, null, null, "not a readable xlsx workbook: " + e.getMessage()));
        }
        return tally.summary();
    }

    private static void readRows(
            Iterator<Row> rows, String file, long stationId, ImportContext context, FileTally tally) {
        Header header = null;
        PacificTimeResolver times = new PacificTimeResolver();
        while (rows.hasNext()) {
            Row row = rows.next();
            if (isBlank(row)) {
                continue;
            }
            if (header == null) {
                header = Header.of(row, file);
                continue;
            }
            if (!context.selected().test(stationId)) {
                tally.otherStation();
                continue;
            }
            try {
                Reading reading = header.reading(row, stationId, times, context);
                context.sink().accept(new SourcedReading(reading, file, row.getRowNum()));
                tally.reading(reading);
            } catch (RowProblem problem) {
                context.problems()
                        .rowRejected(
                                file,
                                "sheet '" + DATA_SHEET + "' row " + row.getRowNum(),
                                row.getRowNum(),
                                stationId,
                                problem);
                tally.skipped();
            }
        }
        if (header == null) {
            throw new BadInputException(file, "sheet '" + DATA_SHEET + "'", null, "no header row");
        }
    }

    private static long stationId(ReadableWorkbook workbook, String file) throws IOException {
        Sheet description = workbook.findSheet(DESCRIPTION_SHEET)
                .orElseThrow(() -> new BadInputException(file, null, null, "no sheet '" + DESCRIPTION_SHEET + "'"));
        String place = "sheet '" + DESCRIPTION_SHEET + "'";
        for (Row row : description.read()) {
            Iterator<Cell> cells = row.stream()
                    .filter(cell -> cell != null && cell.getType() == CellType.STRING)
                    .iterator();
            while (cells.hasNext()) {
                if (REPORT_LINK_LABEL.equals(cells.next().asString().trim()) && cells.hasNext()) {
                    Cell link = cells.next();
                    return stationIdFromLink(link.asString().trim())
                            .orElseThrow(() -> new BadInputException(
                                    file,
                                    place + " row " + row.getRowNum(),
                                    link.getAddress().toString(),
                                    "expected a report link with a numeric station_id= parameter, got '"
                                            + link.asString() + "'"));
                }
            }
        }
        throw new BadInputException(file, place, null, "no '" + REPORT_LINK_LABEL + "' row, so no station id");
    }

    /** The {@code station_id} query parameter of a PeMS report link. */
    static Optional<Long> stationIdFromLink(String link) {
        String query;
        try {
            query = new URI(link).getRawQuery();
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
        if (query == null) {
            return Optional.empty();
        }
        for (String parameter : query.split("&")) {
            if (parameter.startsWith("station_id=")) {
                String value = parameter.substring("station_id=".length());
                return value.matches("[1-9][0-9]{0,17}") ? Optional.of(Long.parseLong(value)) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static boolean isBlank(Row row) {
        return row.stream()
                .allMatch(cell -> cell == null
                        || cell.getType() == CellType.EMPTY
                        || (cell.getType() == CellType.STRING && cell.asString().isBlank()));
    }

    /** Where the columns the importer needs are, found by name in the header row. */
    private record Header(int time, int flow, int speed, int pctObserved, int lanes) {
        private static final int ABSENT = -1;

        static Header of(Row row, String file) {
            Map<String, Integer> columns = new HashMap<>();
            int highestLane = 0;
            boolean laneSpeeds = false;
            String place = "sheet '" + DATA_SHEET + "' row " + row.getRowNum();
            for (Cell cell : row) {
                if (cell == null || cell.getType() == CellType.EMPTY) {
                    continue;
                }
                String name =
                        cell.getType() == CellType.STRING ? cell.asString().trim() : cell.getRawValue();
                if (columns.putIfAbsent(name, cell.getColumnIndex()) != null) {
                    throw new BadInputException(
                            file,
                            place,
                            "'" + name + "' (" + cell.getAddress() + ")",
                            "the header names this column twice");
                }
                Matcher laneFlow = LANE_FLOW_COLUMN.matcher(name);
                if (laneFlow.matches()) {
                    // Lanes are numbered from the median; a report may leave a lane out (e.g. lanes
                    // 1, 3 and 4 of a four-lane station), so the highest number is the lane count.
                    highestLane = Math.max(highestLane, Integer.parseInt(laneFlow.group(1)));
                }
                laneSpeeds |= LANE_SPEED_COLUMN.matcher(name).matches();
            }
            int time = required(columns, TIME_COLUMN, file, place);
            int flow = required(columns, FLOW_COLUMN, file, place);
            int pctObserved = required(columns, PCT_OBSERVED_COLUMN, file, place);
            int speed = columns.getOrDefault(SPEED_COLUMN, ABSENT);
            if (highestLane == 0) {
                throw new BadInputException(
                        file, place, null, "expected at least one 'Lane N Flow (Veh/5 Minutes)' column");
            }
            if (laneSpeeds && speed == ABSENT) {
                throw new BadInputException(
                        file, place, null, "lane speed columns but no '" + SPEED_COLUMN + "' column");
            }
            return new Header(time, flow, speed, pctObserved, highestLane);
        }

        private static int required(Map<String, Integer> columns, String name, String file, String place) {
            Integer index = columns.get(name);
            if (index == null) {
                throw new BadInputException(
                        file,
                        place,
                        null,
                        "no '" + name + "' column (header columns: " + String.join(", ", columns.keySet()) + ")");
            }
            return index;
        }

        Reading reading(Row row, long stationId, PacificTimeResolver times, ImportContext context) throws RowProblem {
            Instant tsUtc = times.toInstant(localTime(row), label(row, time, TIME_COLUMN));
            Double flowValue = number(row, flow, FLOW_COLUMN);
            if (flowValue == null) {
                throw new RowProblem(
                        label(row, flow, FLOW_COLUMN),
                        "no flow",
                        "empty flow cell: the interval has no reading",
                        false);
            }
            boolean flowOnly = speed == ABSENT;
            Double speedValue = flowOnly ? null : number(row, speed, SPEED_COLUMN);
            Double pctValue = number(row, pctObserved, PCT_OBSERVED_COLUMN);
            if (pctValue != null && pctValue > 100) {
                throw RowProblem.malformed(
                        label(row, pctObserved, PCT_OBSERVED_COLUMN),
                        "out of range",
                        "expected a share in 0..100, got " + pctValue);
            }
            return new Reading(
                    stationId,
                    tsUtc,
                    flowValue,
                    speedValue,
                    pctValue,
                    context.lanes(stationId, lanes),
                    flowOnly ? Reading.SOURCE_REPORT_FLOW_ONLY : Reading.SOURCE_REPORT);
        }

        private LocalDateTime localTime(Row row) throws RowProblem {
            String column = label(row, time, TIME_COLUMN);
            Cell cell = row.getOptionalCell(time).orElse(null);
            if (cell == null || cell.getType() != CellType.STRING) {
                throw RowProblem.malformed(
                        column,
                        "bad timestamp",
                        "expected a timestamp text like 3/01/2018 0:05, got " + describe(cell));
            }
            LocalDateTime local;
            try {
                local = LocalDateTime.parse(cell.asString().trim(), TIME_FORMAT);
            } catch (DateTimeParseException e) {
                throw RowProblem.malformed(
                        column,
                        "bad timestamp",
                        "expected a timestamp like 3/01/2018 0:05, got '" + cell.asString() + "'");
            }
            if (local.getMinute() % 5 != 0) {
                throw RowProblem.malformed(
                        column,
                        "not a 5-minute interval",
                        "expected the start of a 5-minute interval, got '" + cell.asString() + "'");
            }
            return local;
        }

        /** The cell's number; null when empty; negative numbers and text are malformed. */
        private static Double number(Row row, int index, String name) throws RowProblem {
            Cell cell = row.getOptionalCell(index).orElse(null);
            if (cell == null || cell.getType() == CellType.EMPTY) {
                return null;
            }
            if (cell.getType() != CellType.NUMBER) {
                throw RowProblem.malformed(
                        label(row, index, name), "not a number", "expected a number, got " + describe(cell));
            }
            double value = cell.asNumber().doubleValue();
            if (value < 0) {
                throw RowProblem.malformed(
                        label(row, index, name), "negative", "expected a number >= 0, got " + cell.getRawValue());
            }
            return value;
        }

        private static String describe(Cell cell) {
            if (cell == null || cell.getType() == CellType.EMPTY) {
                return "an empty cell";
            }
            return cell.getType() == CellType.STRING
                    ? "text '" + cell.asString() + "'"
                    : "a " + cell.getType().name().toLowerCase() + " cell '" + cell.getRawValue() + "'";
        }

        /** {@code 'Speed (mph)' (M7)}: the column's name and the cell's reference. */
        private static String label(Row row, int index, String name) {
            return "'" + name + "' (" + CellAddress.convertNumToColString(index) + row.getRowNum() + ")";
        }
    }
}
