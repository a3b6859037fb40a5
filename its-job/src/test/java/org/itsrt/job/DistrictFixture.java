package org.itsrt.job;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.itsrt.job.config.RoutingSettings;
import org.itsrt.readings.Reading;
import org.itsrt.readings.pems.StationMeta;
import org.itsrt.records.ReadingRecord;
import org.itsrt.records.RouteRequestRecord;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.SyntheticFreewayNetwork;

/**
 * A small generated district for the district workload's tests: a {@link SyntheticFreewayNetwork}
 * written as a PeMS station metadata file (what {@code --graph-meta} reads), readings of its
 * detectors and route requests between its stations.
 */
final class DistrictFixture {

    /** Two freeways each way across 6 km, a station about every 600 m. */
    static final SyntheticFreewayNetwork.Spec SPEC = new SyntheticFreewayNetwork.Spec(5, 2, 2, 6_000, 600);

    /** When the requests are made; they leave at once. */
    static final Instant REQUESTED_AT = Instant.parse("2018-03-05T16:00:00Z");

    private static final String HEADER = "ID\tFwy\tDir\tDistrict\tCounty\tCity\tState_PM\tAbs_PM\tLatitude\t"
            + "Longitude\tLength\tType\tLanes\tName\tUser_ID_1\tUser_ID_2\tUser_ID_3\tUser_ID_4\n";

    final Path metaFile;
    final DetectorGraph graph;
    /** The graph's detectors, ascending. */
    final long[] detectors;

    private DistrictFixture(Path metaFile) {
        this.metaFile = metaFile;
        RoutingSettings routing = RoutingSettings.forRequests(metaFile.toString());
        this.graph = routing.graph();
        this.detectors = routing.detectorIds();
    }

    /** Writes the district's metadata file into {@code dir}. */
    static DistrictFixture in(Path dir) throws IOException {
        StringBuilder text = new StringBuilder(HEADER);
        for (StationMeta s : SyntheticFreewayNetwork.stations(SPEC)) {
            text.append(String.join(
                            "\t",
                            Long.toString(s.id()),
                            Integer.toString(s.freeway()),
                            Character.toString(s.direction()),
                            Integer.toString(s.district()),
                            s.county(),
                            s.city(),
                            s.statePostmile(),
                            Double.toString(s.absPostmile()),
                            Double.toString(s.latitude()),
                            Double.toString(s.longitude()),
                            Double.isNaN(s.lengthMiles()) ? "" : Double.toString(s.lengthMiles()),
                            s.type(),
                            Integer.toString(s.lanes()),
                            s.name(),
                            "",
                            "",
                            "",
                            ""))
                    .append('\n');
        }
        Path file = dir.resolve("d07_text_meta_2018_03_05.txt");
        Files.writeString(file, text, StandardCharsets.ISO_8859_1);
        return new DistrictFixture(file);
    }

    /**
     * Readings {@code 0..lastSeq} of every detector, detector by detector (so that each stays in one
     * half of an in-memory source read at parallelism 2), with the windows of the study's synthetic
     * day: detector i takes study station i mod 6, from a start of its own, so conditions differ.
     */
    List<ReadingRecord> readings(int lastSeq) {
        List<List<Reading>> stations = new ArrayList<>(JobTestKit.DAY.values());
        List<ReadingRecord> records = new ArrayList<>();
        for (int i = 0; i < detectors.length; i++) {
            List<Reading> station = stations.get(i % stations.size());
            for (int seq = 0; seq <= lastSeq; seq++) {
                ReadingRecord r = JobTestKit.record(station, 96 + 3 * (i % 13) + 7 * seq, seq);
                records.add(
                        new ReadingRecord(detectors[i], r.ts(), r.flow(), r.speed(), seq, r.sentNs(), r.intendedNs()));
            }
        }
        return records;
    }

    /**
     * {@code count} requests between distinct stations drawn with {@code seed}, from 7 travellers
     * (so that each asks several times), stream 0, seq 0 up.
     */
    List<RouteRequestRecord> requests(int count, long seed) {
        Random random = new Random(seed);
        List<RouteRequestRecord> requests = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            long origin = detectors[random.nextInt(detectors.length)];
            long destination;
            do {
                destination = detectors[random.nextInt(detectors.length)];
            } while (destination == origin);
            requests.add(request(1 + k % 7, origin, destination, k));
        }
        return requests;
    }

    static RouteRequestRecord request(long traveller, long origin, long destination, long seq) {
        long now = System.nanoTime();
        return RouteRequestRecord.builder()
                .traveller(traveller)
                .origin(origin)
                .destination(destination)
                .departure(REQUESTED_AT)
                .requestedAt(REQUESTED_AT)
                .stream(0)
                .seq(seq)
                .sentNs(now)
                .intendedNs(now)
                .build();
    }
}
