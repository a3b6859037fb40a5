package org.itsrt.readings.pems;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.itsrt.readings.BadInputException;
import org.itsrt.readings.Reading;
import org.itsrt.readings.StudyStation;

/**
 * Turns PeMS files into one canonical readings table and a quality report.
 *
 * <p>Takes files and directories (searched recursively, in path order) and recognises each file:
 * report exports ({@code .xlsx}) by their sheets, clearinghouse station and metadata files by
 * their names. A file it does not recognise is listed in the report; naming one explicitly is an
 * error. Readings are kept one per station and interval (see {@link ReadingMerger} for which one
 * stays), so flow-only exports fill exactly the intervals the full exports lack.
 *
 * <p>Metadata files, given with {@link Options#meta()} or found among the inputs, give the lane
 * counts of the stations they list. Found ones are read in name order (their names carry the
 * date, so a newer file overrides an older one), the given one last.
 */
public final class PemsImporter {

    /**
     * @param stations the stations to import; empty for all
     * @param meta     a clearinghouse metadata file, or null
     * @param lenient  skip and count malformed rows and files instead of failing
     */
    public record Options(Set<Long> stations, Path meta, boolean lenient) {
        public Options {
            stations = Set.copyOf(stations);
        }

        public static Options strict() {
            return new Options(Set.of(), null, false);
        }
    }

    /**
     * @param readings the canonical table: sorted by station, then time, one reading per interval
     * @param report   what the import found and did
     */
    public record Result(List<Reading> readings, QualityReport report) {
        public Result {
            readings = List.copyOf(readings);
        }
    }

    private record InputFile(Path path, boolean named) {
        String shown() {
            return path.toString();
        }
    }

    private final Options options;
    private final Consumer<String> progress;

    /** @param progress receives one line per file read */
    public PemsImporter(Options options, Consumer<String> progress) {
        this.options = options;
        this.progress = progress;
    }

    /**
     * Imports everything under the given files and directories.
     *
     * @throws BadInputException     in strict mode for the first malformed row or file; in any
     *                               mode for an explicitly named file that is not a PeMS file
     * @throws NoSuchFileException   when an input does not exist
     */
    public Result importFrom(List<Path> inputs) throws IOException {
        List<InputFile> dataFiles = new ArrayList<>();
        List<InputFile> metaFiles = new ArrayList<>();
        Map<InputFile, SourceKind> kinds = new HashMap<>();
        List<QualityReport.UnrecognisedFile> unrecognised = new ArrayList<>();
        for (InputFile file : expand(inputs)) {
            SourceKind kind = recognise(file.path());
            if (kind == null) {
                String why = file.path().getFileName().toString().endsWith(".xlsx")
                        ? "a workbook without the sheets '" + ReportExportReader.DATA_SHEET + "' and '"
                                + ReportExportReader.DESCRIPTION_SHEET + "'"
                        : "not a PeMS report export (.xlsx) or clearinghouse station or metadata file";
                if (file.named()) {
                    throw new BadInputException(file.shown(), null, null, why);
                }
                unrecognised.add(new QualityReport.UnrecognisedFile(file.shown(), why));
                progress.accept("not recognised: " + file.shown() + " (" + why + ")");
            } else if (kind == SourceKind.CLEARINGHOUSE_META) {
                metaFiles.add(file);
            } else {
                dataFiles.add(file);
                kinds.put(file, kind);
            }
        }
        metaFiles.sort(Comparator.comparing(file -> file.path().getFileName().toString()));
        if (options.meta() != null) {
            metaFiles.add(new InputFile(options.meta(), true));
        }
        Map<Long, StationMeta> meta = new HashMap<>();
        for (InputFile file : metaFiles) {
            Map<Long, StationMeta> stations = StationMetaReader.read(file.path());
            meta.putAll(stations);
            progress.accept("read " + file.shown() + ": " + SourceKind.CLEARINGHOUSE_META.description() + ", "
                    + stations.size() + " stations");
        }

        InputProblems problems = new InputProblems(options.lenient());
        ReadingMerger merger = new ReadingMerger();
        ImportContext context = new ImportContext(
                id -> options.stations().isEmpty() || options.stations().contains(id), meta, problems, merger::add);
        List<FileSummary> summaries = new ArrayList<>();
        for (InputFile file : dataFiles) {
            FileSummary summary = kinds.get(file) == SourceKind.REPORT_EXPORT
                    ? ReportExportReader.read(file.path(), file.shown(), context)
                    : ClearinghouseStationReader.read(file.path(), file.shown(), context);
            summaries.add(summary);
            progress.accept(describe(summary));
        }
        return result(merger, problems, meta, summaries, unrecognised, !metaFiles.isEmpty());
    }

    private Result result(
            ReadingMerger merger,
            InputProblems problems,
            Map<Long, StationMeta> meta,
            List<FileSummary> files,
            List<QualityReport.UnrecognisedFile> unrecognised,
            boolean metaGiven) {
        Set<Long> stations = new TreeSet<>(options.stations());
        merger.stations().forEach(stations::add);
        List<Reading> readings = new ArrayList<>();
        List<StationQuality> qualities = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (long stationId : stations) {
            List<Reading> station = merger.readings(stationId).stream()
                    .map(SourcedReading::reading)
                    .toList();
            readings.addAll(station);
            qualities.add(StationQuality.of(
                    stationId,
                    name(stationId, meta),
                    station,
                    merger.duplicates(stationId),
                    merger.conflicts(stationId),
                    problems.skippedRows(stationId)));
            if (station.isEmpty()) {
                notes.add("station " + stationId + " was asked for but no input has readings of it");
            } else if (metaGiven && !meta.containsKey(stationId)) {
                notes.add("station " + stationId + " is not in the metadata; its lane count comes from its files");
            }
        }
        QualityReport report = new QualityReport(
                qualities,
                files,
                unrecognised,
                problems,
                merger.conflictCount(),
                merger.conflictExamples().stream()
                        .map(ReadingMerger.Conflict::describe)
                        .toList(),
                QualityReport.duplicateSources(merger.duplicatesByFiles()),
                notes);
        return new Result(readings, report);
    }

    private static String name(long stationId, Map<Long, StationMeta> meta) {
        return StudyStation.byVdsId(stationId)
                .map(StudyStation::displayName)
                .orElseGet(
                        () -> meta.containsKey(stationId) ? meta.get(stationId).name() : "");
    }

    /** The files named and those under the directories named, each directory's in path order. */
    private static List<InputFile> expand(List<Path> inputs) throws IOException {
        List<InputFile> files = new ArrayList<>();
        for (Path input : inputs) {
            if (Files.isDirectory(input)) {
                try (Stream<Path> tree = Files.walk(input)) {
                    tree.filter(Files::isRegularFile).sorted().forEach(path -> files.add(new InputFile(path, false)));
                }
            } else if (Files.isRegularFile(input)) {
                files.add(new InputFile(input, true));
            } else {
                throw new NoSuchFileException(input.toString(), null, "no such file or directory");
            }
        }
        return files;
    }

    /** The kind of PeMS file, or null when the file is none the importer knows. */
    private static SourceKind recognise(Path file) {
        if (SourceKind.isStation5MinName(file)) {
            return SourceKind.CLEARINGHOUSE_STATION_5MIN;
        }
        if (SourceKind.isMetaName(file)) {
            return SourceKind.CLEARINGHOUSE_META;
        }
        if (file.getFileName().toString().endsWith(".xlsx") && ReportExportReader.isReportExport(file)) {
            return SourceKind.REPORT_EXPORT;
        }
        return null;
    }

    private static String describe(FileSummary file) {
        StringBuilder line = new StringBuilder("read ")
                .append(file.file())
                .append(": ")
                .append(file.kind().description());
        if (file.stations().size() == 1) {
            line.append(", station ").append(file.stations().iterator().next());
        } else if (file.stations().size() > 1) {
            line.append(", ").append(file.stations().size()).append(" stations");
        }
        line.append(", ").append(file.readings()).append(" readings");
        if (file.first() != null) {
            line.append(", ")
                    .append(QualityReport.LOCAL_TIME.format(file.first()))
                    .append(" .. ")
                    .append(QualityReport.LOCAL_TIME.format(file.last()));
        }
        if (file.skipped() > 0) {
            line.append(", ").append(file.skipped()).append(" rows skipped");
        }
        if (file.otherStations() > 0) {
            line.append(", ").append(file.otherStations()).append(" rows of other stations");
        }
        return line.toString();
    }
}
