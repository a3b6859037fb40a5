package org.itsrt.routing.district;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.itsrt.readings.Reading;
import org.itsrt.readings.pems.StationMeta;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.DistrictGraph;
import org.itsrt.routing.graph.MetaGraphBuilder;
import org.itsrt.routing.graph.RoadSegment;
import org.itsrt.routing.graph.SyntheticFreewayNetwork;

/**
 * A seeded synthetic freeway district written as PeMS clearinghouse files, so that it enters the
 * suite through the same importer and graph builder as a real district.
 *
 * <p>The stations are {@link SyntheticFreewayNetwork#district}'s: exactly the asked number of
 * mainline ({@code ML}) stations on a grid of freeways that cross at interchanges, and HOV
 * ({@code HV}) stations beside about a quarter of them. The metadata file lists them all; the
 * station files hold readings of the mainline stations only, so the district's workload is the
 * asked number of detectors. Each carriageway (freeway and direction) follows one of the six study
 * stations' weekly shapes, drawn at random (seeded) for it; its detectors each make that shape
 * their own ({@link GeneratedDetector}).
 *
 * <p>Everything is labelled synthetic: the VDS ids are {@link SyntheticFreewayNetwork}'s (from
 * {@value SyntheticFreewayNetwork#FIRST_VDS_ID}), every {@code Name} starts with "Synthetic", the
 * metadata's {@code User_ID_1} is {@code synthetic:seed=N}, and a {@value #LABEL_FILE} next to
 * the files says what they are and how they were made. The same seed, size, start, days and
 * profiles give the same files, byte for byte.
 */
public final class DistrictGenerator {

    /** The Caltrans district the files are named after: 7, Los Angeles, as the study's. */
    public static final int DISTRICT = 7;

    /** The label file written next to the clearinghouse files. */
    public static final String LABEL_FILE = "README.md";

    /**
     * What was written, and the graph built back from the written metadata file.
     *
     * @param metaFile          the station metadata file
     * @param stationFiles      one 5-minute station file per day, in date order
     * @param mainlineDetectors mainline stations, the detectors with readings
     * @param stations          stations in the metadata, mainline and HOV
     * @param readings          rows in the station files
     * @param bytes             size of the metadata and station files
     * @param graph             the graph {@link MetaGraphBuilder} builds from the metadata file
     * @param check             what {@link DistrictGraph#requireConnected} found in it
     */
    public record Result(
            Path metaFile,
            List<Path> stationFiles,
            int mainlineDetectors,
            int stations,
            long readings,
            long bytes,
            DetectorGraph graph,
            DistrictGraph.Check check) {

        public Result {
            stationFiles = List.copyOf(stationFiles);
        }

        /** The graph's interchange segments. */
        public long interchangeLinks() {
            return graph.segments().stream()
                    .filter(segment -> segment.kind() == RoadSegment.Kind.INTERCHANGE)
                    .count();
        }
    }

    private final long seed;
    private final List<StationMeta> stations;
    private final StudyProfiles profiles;
    private final List<GeneratedDetector> detectors;

    /**
     * @param seed              seed of the network and of every reading
     * @param mainlineDetectors how many mainline detectors the district has
     * @param profiles          the study stations' weekly shapes the detectors follow
     */
    public DistrictGenerator(long seed, int mainlineDetectors, StudyProfiles profiles) {
        this(seed, SyntheticFreewayNetwork.district(seed, mainlineDetectors), profiles);
    }

    private DistrictGenerator(long seed, List<StationMeta> stations, StudyProfiles profiles) {
        this.seed = seed;
        this.stations = List.copyOf(stations);
        this.profiles = profiles;
        this.detectors = detectors(seed, this.stations, profiles);
    }

    /**
     * Readings for a network given outright rather than sized by a detector count, e.g. the
     * stations of a {@link SyntheticFreewayNetwork.Spec} a benchmark keeps its graph on: its
     * mainline stations get detectors as {@link #DistrictGenerator(long, int, StudyProfiles)}'s do.
     *
     * @param seed     seed of every reading (the stations are already made)
     * @param stations the network's stations, mainline and HOV, as a metadata file lists them
     * @param profiles the study stations' weekly shapes the detectors follow
     */
    public static DistrictGenerator over(long seed, List<StationMeta> stations, StudyProfiles profiles) {
        if (stations.stream().noneMatch(StationMeta::isMainline)) {
            throw new IllegalArgumentException("stations: expected at least one mainline (ML) station, found none");
        }
        return new DistrictGenerator(seed, stations, profiles);
    }

    /** The district's stations, mainline and HOV, as the metadata file lists them. */
    public List<StationMeta> stations() {
        return stations;
    }

    /** The study station whose shape each carriageway ({@code freeway-direction}, e.g. 405-N) follows. */
    public Map<String, String> profileOfCarriageway() {
        Map<String, String> shapes = new TreeMap<>();
        for (GeneratedDetector detector : detectors) {
            shapes.put(
                    detector.station().freeway() + "-" + detector.station().direction(),
                    detector.profile().station().displayName());
        }
        return shapes;
    }

    /**
     * Writes the metadata file (named after {@code start}), one gzipped station file per Pacific
     * calendar day and the label file into {@code dir}, creating it if needed; then builds the
     * graph from the written metadata file, as a workload does, and checks it.
     *
     * @param command  the command line that made the district, for the label file
     * @param profiles where the profiles came from, for the label file
     * @throws org.itsrt.readings.BadInputException naming the metadata file, when its graph is not
     *     one connected district ({@link DistrictGraph#requireConnected})
     */
    public Result write(Path dir, LocalDate start, int days, String command, String profiles) throws IOException {
        if (days < 1) {
            throw new IllegalArgumentException("days must be >= 1: " + days);
        }
        Files.createDirectories(dir);
        Path meta = dir.resolve(ClearinghouseFormat.metaFileName(DISTRICT, start));
        ClearinghouseFormat.writeMeta(meta, stations, Reading.syntheticSource(seed));
        List<Path> stationFiles = new ArrayList<>();
        long readings = 0;
        for (int day = 0; day < days; day++) {
            LocalDate date = start.plusDays(day);
            Path file = dir.resolve(ClearinghouseFormat.stationFileName(DISTRICT, date));
            readings += writeDay(file, date);
            stationFiles.add(file);
        }
        Files.writeString(dir.resolve(LABEL_FILE), label(start, days, command, profiles), StandardCharsets.UTF_8);
        long bytes = Files.size(meta);
        for (Path file : stationFiles) {
            bytes += Files.size(file);
        }
        DetectorGraph graph = new MetaGraphBuilder(MetaGraphBuilder.Options.defaults()).build(meta);
        DistrictGraph.Check check = DistrictGraph.requireConnected(graph, meta.toString());
        return new Result(meta, stationFiles, detectors.size(), stations.size(), readings, bytes, graph, check);
    }

    /**
     * Every mainline detector's reading of the 5-minute interval starting at {@code wallTime}
     * (Pacific), in VDS id order, without writing a file: the readings the importer reads back
     * from the station file of that day when the district is written starting on that day. A
     * detector's readings depend on the days before it (its noise carries over), so each is run
     * afresh from that day's midnight; {@link #write} is unaffected.
     *
     * @throws IllegalArgumentException when {@code wallTime} is not the start of a 5-minute
     *     interval, or falls in the hour a spring DST change skips
     */
    public List<Reading> readingsAt(LocalDateTime wallTime) {
        if (wallTime.getSecond() != 0 || wallTime.getNano() != 0 || wallTime.getMinute() % 5 != 0) {
            throw new IllegalArgumentException(
                    "wall time " + wallTime + ": expected the start of a 5-minute interval (minute a multiple of 5)");
        }
        LocalDate date = wallTime.toLocalDate();
        Instant end = date.plusDays(1).atStartOfDay(Reading.PACIFIC).toInstant();
        List<GeneratedDetector> fresh = detectors(seed, stations, profiles);
        for (Instant ts = date.atStartOfDay(Reading.PACIFIC).toInstant();
                ts.isBefore(end);
                ts = ts.plus(Reading.INTERVAL)) {
            LocalDateTime intervalStart = ts.atZone(Reading.PACIFIC).toLocalDateTime();
            if (!intervalStart.equals(wallTime)) {
                fresh.forEach(detector -> detector.next(intervalStart));
                continue;
            }
            List<Reading> readings = new ArrayList<>(fresh.size());
            for (GeneratedDetector detector : fresh) {
                GeneratedDetector.Interval reading = detector.next(intervalStart);
                readings.add(new Reading(
                        detector.station().id(),
                        ts,
                        reading.flow(),
                        reading.speed(),
                        null,
                        detector.station().lanes(),
                        Reading.syntheticSource(seed)));
            }
            return readings;
        }
        throw new IllegalArgumentException(
                "wall time " + wallTime + ": no such Pacific interval (the hour a spring DST change skips)");
    }

    /** Rows in time order, then by VDS id, as the clearinghouse publishes them. */
    private long writeDay(Path file, LocalDate date) throws IOException {
        long rows = 0;
        Instant end = date.plusDays(1).atStartOfDay(Reading.PACIFIC).toInstant();
        try (ClearinghouseFormat.StationFile out = new ClearinghouseFormat.StationFile(file)) {
            for (Instant ts = date.atStartOfDay(Reading.PACIFIC).toInstant();
                    ts.isBefore(end);
                    ts = ts.plus(Reading.INTERVAL)) {
                var wallTime = ts.atZone(Reading.PACIFIC).toLocalDateTime();
                out.interval(wallTime);
                for (GeneratedDetector detector : detectors) {
                    out.row(detector.station(), detector.next(wallTime));
                    rows++;
                }
            }
        }
        return rows;
    }

    private String label(LocalDate start, int days, String command, String profiles) {
        StringBuilder text = new StringBuilder()
                .append("# Synthetic district: not PeMS data\n\n")
                .append("Every file here was generated. The station ids, coordinates and readings are made up;\n")
                .append("they are in the PeMS clearinghouse formats only so that they go through the same\n")
                .append("importer and graph builder as real data (docs/import.md, \"A generated district\").\n\n")
                .append("- command: `")
                .append(command)
                .append("`\n")
                .append("- seed: ")
                .append(seed)
                .append(" (the same command gives the same files, byte for byte)\n")
                .append("- mainline detectors: ")
                .append(detectors.size())
                .append(" (with readings); stations in the metadata: ")
                .append(stations.size())
                .append(" (the others are HOV, without readings)\n")
                .append("- days: ")
                .append(days)
                .append(", Pacific calendar days from ")
                .append(start)
                .append("\n- VDS ids from ")
                .append(SyntheticFreewayNetwork.FIRST_VDS_ID)
                .append(", every Name starting with \"Synthetic\", User_ID_1 = ")
                .append(Reading.syntheticSource(seed))
                .append("\n- profiles: the weekly shapes of the six study stations in ")
                .append(profiles)
                .append("\n\nThe study station each carriageway follows:\n\n");
        profileOfCarriageway().forEach((carriageway, station) -> text.append("- ")
                .append(carriageway)
                .append(": ")
                .append(station)
                .append('\n'));
        return text.toString();
    }

    /**
     * One detector per mainline station, by VDS id. Each carriageway, in freeway and direction
     * order, draws its study station from a generator of its own, seeded from the district's.
     */
    private static List<GeneratedDetector> detectors(long seed, List<StationMeta> stations, StudyProfiles profiles) {
        Map<String, List<StationMeta>> carriageways = new TreeMap<>();
        stations.stream().filter(StationMeta::isMainline).forEach(station -> carriageways
                .computeIfAbsent(
                        String.format(java.util.Locale.ROOT, "%05d-%c", station.freeway(), station.direction()),
                        key -> new ArrayList<>())
                .add(station));
        Random shapes = new Random(seed ^ 0x5DEECE66DL);
        Map<Long, GeneratedDetector> byId = new TreeMap<>();
        carriageways.forEach((carriageway, chain) -> {
            StudyProfiles.Profile profile =
                    profiles.profiles().get(shapes.nextInt(profiles.profiles().size()));
            chain.forEach(station -> byId.put(station.id(), new GeneratedDetector(station, profile, seed)));
        });
        return List.copyOf(byId.values());
    }
}
