package org.itsrt.routing.district;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.readings.Reading;
import org.itsrt.readings.StudyStation;
import org.itsrt.readings.pems.PemsImporter;
import org.itsrt.readings.pems.StationMeta;
import org.itsrt.readings.pems.StationMetaReader;
import org.itsrt.readings.pems.StationQuality;
import org.itsrt.routing.graph.Detector;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.DistrictGraph;
import org.itsrt.routing.graph.MetaGraphBuilder;
import org.itsrt.routing.graph.RoadSegment;
import org.itsrt.routing.graph.SyntheticFreewayNetwork;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A small generated district goes through the importer and the graph builder as real files do. */
class DistrictGeneratorTest {

    private static final int DETECTORS = 200;
    private static final long SEED = 3;
    /** A Tuesday with no DST change: 288 intervals. */
    private static final LocalDate DAY = LocalDate.of(2018, 3, 6);

    @TempDir
    static Path temp;

    private static StudyProfiles profiles;
    private static DistrictGenerator generator;
    private static DistrictGenerator.Result written;
    private static PemsImporter.Result imported;

    @BeforeAll
    static void generateAndImport() throws IOException {
        profiles = StudyProfiles.from(ProjectPaths.locate().sampleTable());
        generator = new DistrictGenerator(SEED, DETECTORS, profiles);
        written = generator.write(temp.resolve("district"), DAY, 1, "test", "the sample");
        imported = new PemsImporter(PemsImporter.Options.strict(), line -> {})
                .importFrom(List.of(temp.resolve("district")));
    }

    @Test
    void writesOneMetadataFileAndOneGzippedStationFilePerDayWithTheLabel() throws IOException {
        try (Stream<Path> files = Files.list(temp.resolve("district"))) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder(
                            "d07_text_meta_2018_03_06.txt", "d07_text_station_5min_2018_03_06.txt.gz", "README.md");
        }
        assertThat(Files.readString(temp.resolve("district/README.md")))
                .startsWith("# Synthetic district: not PeMS data")
                .contains("seed: 3", "mainline detectors: 200", "User_ID_1 = synthetic:seed=3");
        assertThat(written.mainlineDetectors()).isEqualTo(DETECTORS);
        assertThat(written.readings()).isEqualTo(DETECTORS * 288L);
    }

    @Test
    void theImporterReadsNStationsOf288ReadingsWithTheLanesOfTheMetadata() throws IOException {
        Map<Long, StationMeta> meta = StationMetaReader.read(written.metaFile());
        Map<Long, List<Reading>> byStation =
                imported.readings().stream().collect(Collectors.groupingBy(Reading::stationId));

        assertThat(byStation).hasSize(DETECTORS);
        assertThat(byStation.values())
                .allSatisfy(readings -> assertThat(readings).hasSize(288));
        assertThat(imported.readings()).allSatisfy(reading -> {
            StationMeta station = meta.get(reading.stationId());
            assertThat(station.isMainline()).isTrue();
            assertThat(reading.lanes()).isEqualTo(station.lanes());
            assertThat(reading.hasSpeed()).isTrue();
            assertThat(reading.pctObserved()).isNull();
            assertThat(reading.source()).isEqualTo("synthetic:seed=3");
        });
        // The labels the importer keeps: the rows' source (from the metadata's User_ID_1), ids of
        // the synthetic range, names in the quality report.
        assertThat(byStation.keySet()).allSatisfy(id -> assertThat(id).isGreaterThanOrEqualTo(900_001L));
        assertThat(imported.report().stations())
                .extracting(StationQuality::name)
                .allSatisfy(name -> assertThat(name).startsWith("Synthetic "));
        assertThat(meta.values()).extracting(StationMeta::type).contains("HV");
        assertThat(imported.report().problems().skippedRows()).isZero();
    }

    @Test
    void theGraphOfTheWrittenMetadataHasNDetectorsInterchangesAndIsOneDistrict() throws IOException {
        DetectorGraph graph = new MetaGraphBuilder(MetaGraphBuilder.Options.defaults()).build(written.metaFile());

        assertThat(graph.detectors()).hasSize(DETECTORS);
        assertThat(graph.segments())
                .filteredOn(segment -> segment.kind() == RoadSegment.Kind.INTERCHANGE)
                .isNotEmpty();
        DistrictGraph.Check check =
                DistrictGraph.requireConnected(graph, written.metaFile().toString());
        assertThat(check.core()).hasSizeGreaterThanOrEqualTo(DETECTORS / 2);
    }

    @Test
    void theSameSeedWritesTheSameBytesAndAnotherSeedOthers() throws IOException {
        Path again = temp.resolve("again");
        new DistrictGenerator(SEED, DETECTORS, profiles).write(again, DAY, 1, "test", "the sample");
        Path other = temp.resolve("other");
        new DistrictGenerator(SEED + 1, DETECTORS, profiles).write(other, DAY, 1, "test", "the sample");

        for (String name : List.of("d07_text_meta_2018_03_06.txt", "d07_text_station_5min_2018_03_06.txt.gz")) {
            byte[] first = Files.readAllBytes(temp.resolve("district").resolve(name));
            assertThat(Files.readAllBytes(again.resolve(name))).as(name).isEqualTo(first);
            assertThat(Files.readAllBytes(other.resolve(name))).as(name).isNotEqualTo(first);
        }
    }

    @Test
    void speedFallsWhereUtilisationIsHigh() {
        List<Reading> byUtilisation = imported.readings().stream()
                .sorted(Comparator.comparingDouble(r -> r.flow() / r.lanes()))
                .toList();
        int n = byUtilisation.size();
        double lowHalf = meanSpeed(byUtilisation.subList(0, n / 2));
        double topTwentieth = meanSpeed(byUtilisation.subList(n - n / 20, n));

        assertThat(lowHalf).isGreaterThan(60);
        assertThat(topTwentieth).isLessThan(lowHalf - 5);
        assertThat(imported.readings()).allSatisfy(r -> assertThat(r.speed()).isBetween(5.0, 80.0));
        assertThat(imported.readings())
                .allSatisfy(r -> assertThat(r.flow() / r.lanes()).isLessThanOrEqualTo(200));
    }

    @Test
    void eachDetectorFollowsTheShapeOfItsCarriagewaysStudyStation() {
        Map<Long, StationMeta> stations =
                generator.stations().stream().collect(Collectors.toMap(StationMeta::id, Function.identity()));
        Map<String, String> shapeOf = generator.profileOfCarriageway();
        Map<String, StudyProfiles.Profile> profileByName = profiles.profiles().stream()
                .collect(Collectors.toMap(p -> p.station().displayName(), Function.identity()));
        int tuesday = 288;
        List<Double> correlations = new ArrayList<>();
        imported.readings().stream()
                .collect(Collectors.groupingBy(Reading::stationId))
                .forEach((id, readings) -> {
                    StationMeta station = stations.get(id);
                    StudyProfiles.Profile own =
                            profileByName.get(shapeOf.get(station.freeway() + "-" + station.direction()));
                    double[] flow = readings.stream()
                            .sorted(Comparator.comparing(Reading::tsUtc))
                            .mapToDouble(r -> r.flow() / r.lanes())
                            .toArray();
                    double[] shape = new double[288];
                    System.arraycopy(own.flowPerLane(), tuesday, shape, 0, 288);
                    correlations.add(correlation(flow, shape));
                });
        // Shifted by up to 45 minutes and noisy, yet plainly the same day.
        assertThat(correlations).allSatisfy(c -> assertThat(c).isGreaterThan(0.9));
        // More than one study station's shape is in use.
        assertThat(shapeOf.values().stream().distinct().count()).isGreaterThan(1);
        assertThat(shapeOf.values()).allSatisfy(name -> assertThat(StudyStation.values())
                .extracting(StudyStation::displayName)
                .contains(name));
    }

    @Test
    void theDistrictsVdsIdsAndNamesAreSynthetic() {
        assertThat(generator.stations()).allSatisfy(station -> {
            assertThat(station.id()).isGreaterThanOrEqualTo(SyntheticFreewayNetwork.FIRST_VDS_ID);
            assertThat(station.name()).startsWith("Synthetic ");
        });
        assertThat(generator.stations().stream().map(StationMeta::id).distinct())
                .hasSize(generator.stations().size());
        assertThat(generator.stations()).extracting(StationMeta::id).doesNotContain(StudyStation.EL_SEGUNDO.vdsId());
        assertThat(new MetaGraphBuilder(MetaGraphBuilder.Options.defaults())
                        .build(generator.stations())
                        .detectors())
                .extracting(Detector::vdsId)
                .hasSize(DETECTORS);
    }

    private static double meanSpeed(List<Reading> readings) {
        return readings.stream().mapToDouble(Reading::speed).average().orElseThrow();
    }

    private static double correlation(double[] a, double[] b) {
        double meanA = java.util.Arrays.stream(a).average().orElseThrow();
        double meanB = java.util.Arrays.stream(b).average().orElseThrow();
        double ab = 0;
        double aa = 0;
        double bb = 0;
        for (int i = 0; i < a.length; i++) {
            ab += (a[i] - meanA) * (b[i] - meanB);
            aa += (a[i] - meanA) * (a[i] - meanA);
            bb += (b[i] - meanB) * (b[i] - meanB);
        }
        return ab / Math.sqrt(aa * bb);
    }

    @Test
    void readingsAtAnIntervalAreTheRowsTheImporterReadsBackForIt() {
        LocalDateTime amPeak = DAY.atTime(8, 0);
        Instant at = amPeak.atZone(Reading.PACIFIC).toInstant();
        List<Reading> fromFiles = imported.readings().stream()
                .filter(reading -> reading.tsUtc().equals(at))
                .sorted(Comparator.comparingLong(Reading::stationId))
                .toList();

        List<Reading> inMemory = new DistrictGenerator(SEED, DETECTORS, profiles).readingsAt(amPeak);

        assertThat(fromFiles).hasSize(DETECTORS);
        assertThat(inMemory).isEqualTo(fromFiles);
    }

    @Test
    void aNetworkGivenOutrightGetsTheDetectorsItsSizedDistrictGets() {
        LocalDateTime pmPeak = DAY.atTime(17, 30);
        List<StationMeta> stations = SyntheticFreewayNetwork.district(SEED, DETECTORS);

        assertThat(DistrictGenerator.over(SEED, stations, profiles).readingsAt(pmPeak))
                .isEqualTo(new DistrictGenerator(SEED, DETECTORS, profiles).readingsAt(pmPeak));
        assertThat(DistrictGenerator.over(SEED + 1, stations, profiles).readingsAt(pmPeak))
                .isNotEqualTo(new DistrictGenerator(SEED, DETECTORS, profiles).readingsAt(pmPeak));
    }

    @Test
    void readingsAtATimeOffTheIntervalsOrInTheSkippedDstHourAreRefused() {
        assertThatThrownBy(() -> generator.readingsAt(DAY.atTime(8, 2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2018-03-06T08:02")
                .hasMessageContaining("5-minute interval");
        // 2018-03-11 02:00-02:55 Pacific does not exist.
        assertThatThrownBy(() -> generator.readingsAt(LocalDate.of(2018, 3, 11).atTime(2, 30)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DST");
    }

    @Test
    void aNetworkWithoutMainlineStationsIsRefused() {
        List<StationMeta> hovOnly = SyntheticFreewayNetwork.district(SEED, DETECTORS).stream()
                .filter(station -> !station.isMainline())
                .toList();

        assertThatThrownBy(() -> DistrictGenerator.over(SEED, hovOnly, profiles))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mainline");
    }
}
