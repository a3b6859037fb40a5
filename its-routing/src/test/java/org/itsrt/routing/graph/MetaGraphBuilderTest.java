package org.itsrt.routing.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.itsrt.readings.BadInputException;
import org.itsrt.readings.pems.StationMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetaGraphBuilderTest {

    private static final double METERS_PER_MILE = 1609.344;
    private static final double METERS_PER_DEGREE = GreatCircle.EARTH_MEAN_RADIUS_M * Math.PI / 180;
    private static final double ORIGIN_LATITUDE = 33.9;
    private static final double ORIGIN_LONGITUDE = -118.3;

    /** A mainline station placed in meters east and north of a point in Los Angeles. */
    private static StationMeta station(
            long id, int freeway, char direction, double absPostmile, double eastMeters, double northMeters) {
        return station(id, freeway, direction, absPostmile, eastMeters, northMeters, "ML");
    }

    private static StationMeta station(
            long id,
            int freeway,
            char direction,
            double absPostmile,
            double eastMeters,
            double northMeters,
            String type) {
        double latitude = ORIGIN_LATITUDE + northMeters / METERS_PER_DEGREE;
        double longitude =
                ORIGIN_LONGITUDE + eastMeters / (METERS_PER_DEGREE * Math.cos(Math.toRadians(ORIGIN_LATITUDE)));
        return new StationMeta(
                id,
                freeway,
                direction,
                7,
                "",
                "",
                Double.toString(absPostmile),
                absPostmile,
                latitude,
                longitude,
                Double.NaN,
                type,
                4,
                "station " + id);
    }

    private static List<String> freewaySegments(DetectorGraph graph) {
        return graph.segments().stream()
                .filter(segment -> segment.kind() == RoadSegment.Kind.FREEWAY)
                .map(segment -> segment.from().vdsId() + "->" + segment.to().vdsId())
                .toList();
    }

    private static RoadSegment segment(DetectorGraph graph, long from, long to) {
        return graph.graph().getEdge(graph.requireDetector(from), graph.requireDetector(to));
    }

    @Test
    void chainsEachDirectionInItsDirectionOfTravelByPostmile() {
        // A south-north freeway 405 (postmiles grow northward) and a west-east freeway 105
        // (postmiles grow eastward), each direction given out of order.
        List<StationMeta> stations = List.of(
                station(12, 405, 'S', 12, 0, 3200),
                station(10, 405, 'S', 10, 0, 0),
                station(11, 405, 'S', 11, 0, 1600),
                station(21, 405, 'N', 11, 30, 1600),
                station(22, 405, 'N', 12, 30, 3200),
                station(20, 405, 'N', 10, 30, 0),
                station(31, 105, 'E', 31, 1600, 20_000),
                station(30, 105, 'E', 30, 0, 20_000),
                station(40, 105, 'W', 30, 0, 20_030),
                station(41, 105, 'W', 31, 1600, 20_030));

        DetectorGraph graph = MetaGraphBuilder.buildDefault(stations);

        assertThat(freewaySegments(graph))
                .containsExactlyInAnyOrder(
                        "12->11", "11->10", // southbound: high to low
                        "20->21", "21->22", // northbound: low to high
                        "30->31", // eastbound: low to high
                        "41->40"); // westbound: high to low
        assertThat(segment(graph, 12, 11).freeway()).isEqualTo(405);
        assertThat(segment(graph, 41, 40).freeway()).isEqualTo(105);
    }

    @Test
    void lengthIsThePostmileDifferenceRaisedToTheGreatCircleDistance() {
        List<StationMeta> stations = List.of(
                // 1 mile of postmile over 1,000 m of straight line: a curve, the postmile wins.
                station(1, 5, 'N', 20.0, 0, 0),
                station(2, 5, 'N', 21.0, 0, 1000),
                // 0.1 mile of postmile over 1,000 m of straight line: postmiles off, raised.
                station(3, 5, 'N', 21.1, 0, 2000));

        DetectorGraph graph = MetaGraphBuilder.buildDefault(stations);

        RoadSegment curve = segment(graph, 1, 2);
        RoadSegment raised = segment(graph, 2, 3);
        assertThat(curve.lengthMeters()).isCloseTo(METERS_PER_MILE, within(1e-6));
        assertThat(raised.lengthMeters()).isEqualTo(GreatCircle.meters(raised.from(), raised.to()));
        assertThat(raised.lengthMeters()).isCloseTo(1000, within(0.01));
    }

    @Test
    void keepsOnlyMainlineStationsUnlessToldOtherwise() {
        List<StationMeta> stations = List.of(
                station(1, 5, 'N', 1, 0, 0), station(2, 5, 'N', 1.5, 0, 800, "HV"),
                station(3, 5, 'N', 2, 0, 1600), station(4, 5, 'N', 2.5, 0, 2400, "OR"));

        DetectorGraph mainline = MetaGraphBuilder.buildDefault(stations);
        DetectorGraph everything =
                new MetaGraphBuilder(MetaGraphBuilder.Options.defaults().withMainlineOnly(false)).build(stations);

        assertThat(mainline.detectors()).extracting(Detector::vdsId).containsExactly(1L, 3L);
        assertThat(freewaySegments(mainline)).containsExactly("1->3");
        assertThat(freewaySegments(everything)).containsExactly("1->2", "2->3", "3->4");
    }

    @Test
    void linksEachStationToTheNearestStationOfEveryOtherFreewayDirectionWithinTheRadiusBothWays() {
        // 405 S runs down x = 0; 105 E and 105 W cross it at y = 0. 405 S station 2 sits 300 m
        // north of the crossing, 405 S station 3 1,500 m south of it.
        List<StationMeta> stations = List.of(
                station(1, 405, 'S', 12, 0, 2500),
                station(2, 405, 'S', 11, 0, 300),
                station(3, 405, 'S', 10, 0, -1500),
                station(10, 105, 'E', 1, -2000, -10),
                station(11, 105, 'E', 2, 200, -10),
                station(12, 105, 'E', 3, 1100, -10),
                station(20, 105, 'W', 3, 1050, 10),
                station(21, 105, 'W', 2, 600, 10));

        DetectorGraph graph = MetaGraphBuilder.buildDefault(stations);
        List<String> interchanges = graph.segments().stream()
                .filter(segment -> segment.kind() == RoadSegment.Kind.INTERCHANGE)
                .map(segment -> segment.from().vdsId() + "->" + segment.to().vdsId())
                .toList();

        // 2's nearest 105 E station is 11 (~370 m), its nearest 105 W station 21 (~670 m);
        // 11's and 21's nearest 405 S station is 2. 12 (~1,140 m from 2) and 20 (~1,090 m) are
        // nearer to 2 than to 1 or 3, but beyond 1 km; 3 is over 1.5 km from every 105 station.
        assertThat(interchanges).containsExactlyInAnyOrder("2->11", "11->2", "2->21", "21->2");
        RoadSegment onto105 = segment(graph, 2, 11);
        assertThat(onto105.freeway()).isEqualTo(105);
        assertThat(onto105.lengthMeters()).isEqualTo(GreatCircle.meters(onto105.from(), onto105.to()));
        assertThat(segment(graph, 11, 2).freeway()).isEqualTo(405);

        DetectorGraph wider = new MetaGraphBuilder(
                        MetaGraphBuilder.Options.defaults().withInterchangeRadiusMeters(1_200))
                .build(stations);
        assertThat(wider.graph().containsEdge(wider.requireDetector(12), wider.requireDetector(2)))
                .isTrue();
        assertThat(wider.graph().containsEdge(wider.requireDetector(20), wider.requireDetector(2)))
                .isTrue();
        assertThat(wider.graph().containsEdge(wider.requireDetector(3), wider.requireDetector(11)))
                .isFalse();
    }

    @Test
    void neverLinksTheTwoDirectionsOfOneFreeway() {
        List<StationMeta> stations = List.of(station(1, 405, 'S', 10, 0, 0), station(2, 405, 'N', 10, 30, 0));

        DetectorGraph graph = MetaGraphBuilder.buildDefault(stations);

        assertThat(graph.detectors()).hasSize(2);
        assertThat(graph.segments()).isEmpty();
    }

    @Test
    void chainsCoLocatedStationsByIdWithZeroLengthAndKeepsLoneStations() {
        List<StationMeta> stations = List.of(
                station(7, 405, 'S', 10, 0, 0),
                station(5, 405, 'S', 10, 0, 0),
                station(6, 405, 'S', 11, 0, 1600),
                station(9, 710, 'N', 3, 40_000, 0)); // the only 710 station, far from the rest

        DetectorGraph graph = MetaGraphBuilder.buildDefault(stations);

        assertThat(freewaySegments(graph)).containsExactly("6->5", "5->7");
        assertThat(segment(graph, 5, 7).lengthMeters()).isZero();
        assertThat(graph.contains(9)).isTrue();
        assertThat(graph.graph().degreeOf(graph.requireDetector(9))).isZero();
    }

    @Test
    void skipsStationsThatCannotBePlacedAndRejectsDuplicateIds() {
        StationMeta noCoordinates =
                new StationMeta(3, 5, 'N', 7, "", "", "3", 3, Double.NaN, Double.NaN, Double.NaN, "ML", 4, "");
        StationMeta noPostmile =
                new StationMeta(4, 5, 'N', 7, "", "", "", Double.NaN, 33.9, -118.3, Double.NaN, "ML", 4, "");
        StationMeta noLanes = new StationMeta(5, 5, 'N', 7, "", "", "5", 5, 33.95, -118.3, Double.NaN, "ML", 0, "");

        DetectorGraph graph = MetaGraphBuilder.buildDefault(List.of(
                station(1, 5, 'N', 1, 0, 0), noCoordinates, noPostmile, noLanes, station(2, 5, 'N', 2, 0, 1600)));

        assertThat(graph.detectors()).extracting(Detector::vdsId).containsExactly(1L, 2L);
        assertThat(freewaySegments(graph)).containsExactly("1->2");
        assertThatThrownBy(() -> MetaGraphBuilder.buildDefault(
                        List.of(station(1, 5, 'N', 1, 0, 0), station(1, 10, 'E', 1, 0, 0))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("duplicate VDS id 1");
    }

    @Test
    void rejectsANegativeRadius() {
        assertThatThrownBy(() -> MetaGraphBuilder.Options.defaults().withInterchangeRadiusMeters(-1))
                .hasMessageContaining("interchangeRadiusMeters");
    }

    /**
     * On random metadata: every freeway segment joins consecutive stations of one freeway
     * direction in travel order with length max(postmile difference, great-circle); every
     * interchange joins different freeways within the radius, both ways; nothing is shorter than
     * the great-circle distance.
     */
    @Property(tries = 200)
    void buildsWhatItDocumentsOnRandomMetadata(@ForAll long seed) {
        Random random = new Random(seed);
        double radius = 200 + random.nextDouble() * 3000;
        List<StationMeta> stations = new ArrayList<>();
        int count = 2 + random.nextInt(60);
        for (int id = 1; id <= count; id++) {
            int freeway = new int[] {5, 10, 405}[random.nextInt(3)];
            char direction = "NSEW".charAt(random.nextInt(4));
            double postmile = Math.round(random.nextDouble() * 20 * 1000) / 1000.0;
            stations.add(station(
                    id, freeway, direction, postmile, random.nextDouble() * 10_000, random.nextDouble() * 10_000));
        }

        DetectorGraph graph = new MetaGraphBuilder(
                        MetaGraphBuilder.Options.defaults().withInterchangeRadiusMeters(radius))
                .build(stations);

        Map<Long, StationMeta> byId = new HashMap<>();
        stations.forEach(station -> byId.put(station.id(), station));
        Map<String, List<StationMeta>> chains = new HashMap<>();
        stations.forEach(station -> chains.computeIfAbsent(
                        station.freeway() + "" + station.direction(), key -> new ArrayList<>())
                .add(station));
        int expectedFreewaySegments =
                chains.values().stream().mapToInt(chain -> chain.size() - 1).sum();

        assertThat(graph.detectors()).hasSize(count);
        assertThat(freewaySegments(graph)).hasSize(expectedFreewaySegments);
        for (RoadSegment segment : graph.segments()) {
            StationMeta from = byId.get(segment.from().vdsId());
            StationMeta to = byId.get(segment.to().vdsId());
            double greatCircle = GreatCircle.meters(segment.from(), segment.to());
            assertThat(segment.lengthMeters()).isGreaterThanOrEqualTo(greatCircle);
            if (segment.kind() == RoadSegment.Kind.FREEWAY) {
                assertThat(to.freeway()).isEqualTo(from.freeway());
                assertThat(to.direction()).isEqualTo(from.direction());
                boolean growing = from.direction() == 'N' || from.direction() == 'E';
                Comparator<StationMeta> travelOrder = Comparator.comparingDouble(
                                (StationMeta station) -> growing ? station.absPostmile() : -station.absPostmile())
                        .thenComparingLong(StationMeta::id);
                assertThat(travelOrder.compare(from, to)).isNegative();
                boolean anyBetween = chains.get(from.freeway() + "" + from.direction()).stream()
                        .anyMatch(other -> travelOrder.compare(from, other) < 0 && travelOrder.compare(other, to) < 0);
                assertThat(anyBetween)
                        .as("a station between %s and %s", from.id(), to.id())
                        .isFalse();
                double postmileMeters = Math.abs(to.absPostmile() - from.absPostmile()) * METERS_PER_MILE;
                assertThat(segment.lengthMeters()).isEqualTo(Math.max(postmileMeters, greatCircle));
            } else {
                assertThat(to.freeway()).isNotEqualTo(from.freeway());
                assertThat(segment.freeway()).isEqualTo(to.freeway());
                assertThat(greatCircle).isLessThanOrEqualTo(radius);
                assertThat(segment.lengthMeters()).isEqualTo(greatCircle);
                assertThat(graph.graph().containsEdge(segment.to(), segment.from()))
                        .isTrue();
            }
        }
    }

    @Test
    void aMetadataFileWithANegativeOrZeroLengthIsRefusedNamingTheFileAndStation(@TempDir java.nio.file.Path temp)
            throws Exception {
        java.nio.file.Path good = java.nio.file.Path.of(MetaGraphBuilderTest.class
                .getResource("/pems/d07_text_meta_2018_03_11.txt")
                .toURI());
        List<String> lines = java.nio.file.Files.readAllLines(good);
        int lengthColumn = List.of(lines.get(0).split("\t")).indexOf("Length");
        for (String length : List.of("-0.5", "0")) {
            List<String> edited = new java.util.ArrayList<>(lines);
            String[] fields = edited.get(1).split("\t", -1);
            fields[lengthColumn] = length;
            edited.set(1, String.join("\t", fields));
            java.nio.file.Path file = temp.resolve("meta" + length + ".txt");
            java.nio.file.Files.write(file, edited);

            assertThatThrownBy(() -> new MetaGraphBuilder(MetaGraphBuilder.Options.defaults()).build(file))
                    .isInstanceOf(BadInputException.class)
                    .hasMessage(file + ", station " + fields[0] + ", column 'Length': expected a positive length "
                            + "in miles, or an empty field when unknown; found " + Double.parseDouble(length));
        }
    }

    @Test
    void aMetadataFileListingAStationTwiceIsRefusedNamingFileLineAndId(@TempDir java.nio.file.Path temp)
            throws Exception {
        java.nio.file.Path good = java.nio.file.Path.of(MetaGraphBuilderTest.class
                .getResource("/pems/d07_text_meta_2018_03_11.txt")
                .toURI());
        List<String> lines = new ArrayList<>(java.nio.file.Files.readAllLines(good));
        // Station 764598 again, on the other carriageway and with another lane count.
        lines.add(lines.get(1).replace("\tS\t", "\tN\t").replace("\t5\t", "\t4\t"));
        java.nio.file.Path file = java.nio.file.Files.write(temp.resolve("d07_text_meta_2018_03_12.txt"), lines);

        assertThatThrownBy(() -> new MetaGraphBuilder(MetaGraphBuilder.Options.defaults()).build(file))
                .isInstanceOf(BadInputException.class)
                .hasMessage(file + ", line " + lines.size()
                        + ", column 'ID': station 764598 is listed twice (first on line 2)");
    }

    @Test
    void buildsFromAClearinghouseMetadataFile() throws Exception {
        java.nio.file.Path file = java.nio.file.Path.of(MetaGraphBuilderTest.class
                .getResource("/pems/d07_text_meta_2018_03_11.txt")
                .toURI());
        DetectorGraph graph = new MetaGraphBuilder(MetaGraphBuilder.Options.defaults()).build(file);

        // Three located 405 S stations chained from the highest postmile down; the fourth row has
        // no coordinates and is left out.
        assertThat(graph.detectors()).extracting(Detector::vdsId).containsExactlyInAnyOrder(764598L, 717731L, 774445L);
        assertThat(graph.segments())
                .extracting(s -> s.from().vdsId() + ">" + s.to().vdsId())
                .containsExactlyInAnyOrder("764598>717731", "717731>774445");
        RoadSegment first = graph.segments().stream()
                .filter(s -> s.from().vdsId() == 764598L)
                .findFirst()
                .orElseThrow();
        // Postmiles 42.1 -> 30.04 give 12.06 mi, longer than the 16,477 m great-circle distance.
        assertThat(first.lengthMeters()).isCloseTo(12.06 * METERS_PER_MILE, within(0.5));
    }
}
