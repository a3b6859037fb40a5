package org.itsrt.readings.pems;

import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.itsrt.readings.Reading;

/**
 * What an import did, station by station and file by file: the figures a user checks before
 * trusting a table. Rendered as an aligned text table for the console, and as Markdown and CSV
 * files written next to the table.
 *
 * @param stations           one entry per station, by id
 * @param files              the data files read, in reading order
 * @param unrecognised       files found but not recognised as PeMS files
 * @param problems           skipped rows and files
 * @param conflictCount      all conflicts, of all stations
 * @param conflictExamples   the first conflicts, described
 * @param duplicateSources   where duplicates were dropped from and kept from
 * @param notes              anything else a reader of the table should know
 */
public record QualityReport(
        List<StationQuality> stations,
        List<FileSummary> files,
        List<UnrecognisedFile> unrecognised,
        InputProblems problems,
        int conflictCount,
        List<String> conflictExamples,
        List<DuplicateSource> duplicateSources,
        List<String> notes) {

    /** Pacific wall time with its offset, unambiguous also in the autumn repeated hour. */
    static final DateTimeFormatter LOCAL_TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mmxxx");

    private static final DateTimeFormatter TABLE_TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm");
    private static final int GAPS_LISTED_PER_STATION = 5;

    /** A file the importer found but does not know how to read. */
    public record UnrecognisedFile(String file, String why) {}

    /** Duplicate readings dropped from one file because another file had them already. */
    public record DuplicateSource(String droppedFrom, String keptFrom, int rows) {}

    public QualityReport {
        stations = List.copyOf(stations);
        files = List.copyOf(files);
        unrecognised = List.copyOf(unrecognised);
        conflictExamples = List.copyOf(conflictExamples);
        duplicateSources = List.copyOf(duplicateSources);
        notes = List.copyOf(notes);
    }

    private record Column(
            String title,
            String csvName,
            boolean numeric,
            Function<StationQuality, String> shown,
            Function<StationQuality, String> csv) {
        static Column of(String title, String csvName, boolean numeric, Function<StationQuality, String> value) {
            return new Column(title, csvName, numeric, value, value);
        }
    }

    private static final List<Column> COLUMNS = List.of(
            Column.of("station", "station_id", true, s -> Long.toString(s.stationId())),
            Column.of("name", "name", false, StationQuality::name),
            Column.of("rows", "rows", true, s -> Integer.toString(s.rows())),
            new Column(
                    "first (Pacific)",
                    "first_local",
                    false,
                    s -> time(s.first(), TABLE_TIME),
                    s -> time(s.first(), DateTimeFormatter.ISO_OFFSET_DATE_TIME)),
            new Column(
                    "last (Pacific)",
                    "last_local",
                    false,
                    s -> time(s.last(), TABLE_TIME),
                    s -> time(s.last(), DateTimeFormatter.ISO_OFFSET_DATE_TIME)),
            Column.of("expected", "expected_intervals", true, s -> Long.toString(s.expected())),
            Column.of("missing", "missing_intervals", true, s -> Long.toString(s.missing())),
            Column.of("gaps", "gaps", true, s -> Integer.toString(s.gaps().size())),
            new Column(
                    "longest gap",
                    "longest_gap_intervals",
                    true,
                    s -> duration(s.longestGap()),
                    s -> Long.toString(s.longestGap())),
            Column.of("duplicates", "duplicates_dropped", true, s -> Integer.toString(s.duplicates())),
            Column.of("conflicts", "conflicts", true, s -> Integer.toString(s.conflicts())),
            Column.of("flow-only", "filled_from_flow_only", true, s -> Integer.toString(s.filledFromFlowOnly())),
            Column.of("no speed", "unknown_speed", true, s -> Integer.toString(s.unknownSpeed())),
            new Column(
                    "imputed %",
                    "imputed_pct", true, s -> percent(s.imputedPct(), "-"), s -> percent(s.imputedPct(), "")),
            new Column(
                    "mean observed %",
                    "mean_pct_observed",
                    true,
                    s -> percent(s.meanPctObserved(), "-"),
                    s -> percent(s.meanPctObserved(), "")),
            Column.of("skipped", "skipped_rows", true, s -> Integer.toString(s.skipped())));

    /** The stations as an aligned plain-text table. */
    public String toTextTable() {
        List<List<String>> rows = new ArrayList<>();
        rows.add(COLUMNS.stream().map(Column::title).toList());
        for (StationQuality station : stations) {
            rows.add(COLUMNS.stream()
                    .map(column -> column.shown().apply(station))
                    .toList());
        }
        int[] widths = new int[COLUMNS.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (List<String> row : rows) {
            List<String> cells = new ArrayList<>();
            for (int i = 0; i < widths.length; i++) {
                String format = "%" + (COLUMNS.get(i).numeric() ? "" : "-") + widths[i] + "s";
                cells.add(String.format(Locale.ROOT, format, row.get(i)));
            }
            text.append(String.join("  ", cells).stripTrailing()).append('\n');
        }
        return text.toString();
    }

    /** The stations as CSV, one row per station, machine-readable units (intervals, ISO times). */
    public String toCsv() {
        CsvMapper mapper = CsvMapper.builder()
                .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
                .build();
        StringWriter csv = new StringWriter();
        try (SequenceWriter rows = mapper.writerFor(String[].class)
                .with(CsvSchema.emptySchema().withLineSeparator("\n"))
                .writeValues(csv)) {
            rows.write(COLUMNS.stream().map(Column::csvName).toArray(String[]::new));
            for (StationQuality station : stations) {
                rows.write(COLUMNS.stream()
                        .map(column -> column.csv().apply(station))
                        .toArray(String[]::new));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing to a string", e);
        }
        return csv.toString();
    }

    /** The whole report as Markdown. */
    public String toMarkdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Import quality report\n\n");
        md.append("Times are Pacific (America/Los_Angeles). Import mode: ")
                .append(problems.isLenient() ? "lenient (malformed rows skipped and counted)" : "strict")
                .append(".\n\n## Stations\n\n");
        md.append(markdownTable(
                COLUMNS.stream().map(Column::title).toList(),
                COLUMNS.stream().map(Column::numeric).toList(),
                stations.stream()
                        .map(s -> COLUMNS.stream().map(c -> c.shown().apply(s)).toList())
                        .toList()));
        md.append(
                """

                *expected*: 5-minute intervals from first to last reading; *missing*: expected intervals \
                without a reading, in *gaps* runs; *duplicates*: readings dropped because another reading \
                of the interval said the same; *conflicts*: readings dropped because a richer reading of the \
                interval disagreed; *flow-only*: readings from flow-only exports; *no speed*: readings with \
                unknown speed; *imputed %*: share of readings with pct_observed = 0; *mean observed %*: mean \
                pct_observed; *skipped*: rows skipped (see below).
                """);

        md.append("\n## Files read (").append(files.size()).append(")\n\n");
        md.append(markdownTable(
                List.of("file", "kind", "stations", "readings", "skipped", "other stations", "first", "last"),
                List.of(false, false, false, true, true, true, false, false),
                files.stream()
                        .map(f -> List.of(
                                f.file(),
                                f.kind().description(),
                                f.stations().stream().map(String::valueOf).collect(Collectors.joining(" ")),
                                Integer.toString(f.readings()),
                                Integer.toString(f.skipped()),
                                Integer.toString(f.otherStations()),
                                time(f.first(), LOCAL_TIME),
                                time(f.last(), LOCAL_TIME)))
                        .toList()));

        md.append("\n## Files not recognised (").append(unrecognised.size()).append(")\n\n");
        bullets(
                md,
                unrecognised.stream().map(u -> "`" + u.file() + "`: " + u.why()).toList());
        if (problems.isLenient()) {
            md.append("\n## Files skipped (")
                    .append(problems.skippedFiles().size())
                    .append(")\n\n");
            bullets(
                    md,
                    problems.skippedFiles().stream()
                            .map(InputProblems.SkippedFile::reason)
                            .toList());
        }

        md.append("\n## Duplicates by file\n\n");
        if (duplicateSources.isEmpty()) {
            md.append("None.\n");
        } else {
            md.append(markdownTable(
                    List.of("dropped from", "kept from", "readings"),
                    List.of(false, false, true),
                    duplicateSources.stream()
                            .map(d -> List.of(d.droppedFrom(), d.keptFrom(), Integer.toString(d.rows())))
                            .toList()));
        }

        md.append("\n## Conflicts (").append(conflictCount).append(")\n\n");
        if (conflictCount > conflictExamples.size()) {
            md.append("The first ").append(conflictExamples.size()).append(":\n\n");
        }
        bullets(md, conflictExamples);

        md.append("\n## Skipped rows (").append(problems.skippedRows()).append(")\n\n");
        if (problems.skippedRows() > 0) {
            md.append(markdownTable(
                    List.of("reason", "rows"),
                    List.of(false, true),
                    problems.skippedByReason().entrySet().stream()
                            .map(e -> List.of(e.getKey(), Integer.toString(e.getValue())))
                            .toList()));
            md.append("\nThe first ").append(problems.examples().size()).append(":\n\n");
        }
        bullets(
                md,
                problems.examples().stream()
                        .map(InputProblems.SkippedRow::describe)
                        .toList());

        md.append("\n## Gaps\n\n");
        List<String> gapLines = new ArrayList<>();
        for (StationQuality station : stations) {
            List<StationQuality.Gap> gaps = station.gaps();
            gaps.stream()
                    .limit(GAPS_LISTED_PER_STATION)
                    .forEach(gap -> gapLines.add(station.stationId() + ": "
                            + time(gap.firstMissing(), LOCAL_TIME) + " .. " + time(gap.lastMissing(), LOCAL_TIME)
                            + " (" + gap.intervals() + " intervals, " + duration(gap.intervals()) + ")"));
            if (gaps.size() > GAPS_LISTED_PER_STATION) {
                gapLines.add(station.stationId() + ": and " + (gaps.size() - GAPS_LISTED_PER_STATION) + " more");
            }
        }
        bullets(md, gapLines);

        if (!notes.isEmpty()) {
            md.append("\n## Notes\n\n");
            bullets(md, notes);
        }
        return md.toString();
    }

    /**
     * Writes {@code NAME.quality.md} and {@code NAME.quality.csv} next to the table {@code NAME.csv}
     * or {@code NAME.csv.gz}.
     *
     * @return the two files written
     */
    public List<Path> writeNextTo(Path table) throws IOException {
        String name = table.getFileName().toString().replaceFirst("\\.csv(\\.gz)?$", "");
        Path markdown = table.resolveSibling(name + ".quality.md");
        Path csv = table.resolveSibling(name + ".quality.csv");
        Path parent = table.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(markdown, toMarkdown(), StandardCharsets.UTF_8);
        Files.writeString(csv, toCsv(), StandardCharsets.UTF_8);
        return List.of(markdown, csv);
    }

    /** Merges the per-file-pair counts into the report's form. */
    static List<DuplicateSource> duplicateSources(Map<ReadingMerger.FilePair, Integer> byFiles) {
        return byFiles.entrySet().stream()
                .map(e ->
                        new DuplicateSource(e.getKey().droppedFrom(), e.getKey().keptFrom(), e.getValue()))
                .toList();
    }

    private static String markdownTable(List<String> header, List<Boolean> numeric, List<List<String>> rows) {
        StringBuilder md = new StringBuilder();
        md.append("| ").append(String.join(" | ", header)).append(" |\n|");
        for (boolean right : numeric) {
            md.append(right ? "---:|" : "---|");
        }
        md.append('\n');
        for (List<String> row : rows) {
            md.append("| ")
                    .append(row.stream().map(cell -> cell.replace("|", "\\|")).collect(Collectors.joining(" | ")))
                    .append(" |\n");
        }
        return md.toString();
    }

    private static void bullets(StringBuilder md, List<String> lines) {
        if (lines.isEmpty()) {
            md.append("None.\n");
        }
        lines.forEach(line -> md.append("- ").append(line).append('\n'));
    }

    private static String time(OffsetDateTime time, DateTimeFormatter format) {
        return time == null ? "" : format.format(time);
    }

    private static String percent(Double value, String absent) {
        return value == null ? absent : String.format(Locale.ROOT, "%.1f", value);
    }

    /** A number of 5-minute intervals as a readable duration: 25m, 1h05m, 6d23h55m; "-" for none. */
    static String duration(long intervals) {
        if (intervals == 0) {
            return "-";
        }
        long minutes = intervals * Reading.INTERVAL.toMinutes();
        long days = minutes / (24 * 60);
        long hours = minutes / 60 % 24;
        long rest = minutes % 60;
        if (days > 0) {
            return String.format(Locale.ROOT, "%dd%02dh%02dm", days, hours, rest);
        }
        return hours > 0 ? String.format(Locale.ROOT, "%dh%02dm", hours, rest) : rest + "m";
    }
}
