package org.itsrt.routing.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.itsrt.readings.StudyStation.ATHENS;
import static org.itsrt.readings.StudyStation.EAST_RANCHO_DOMINGUEZ;
import static org.itsrt.readings.StudyStation.EL_SEGUNDO;
import static org.itsrt.readings.StudyStation.LONG_BEACH;
import static org.itsrt.readings.StudyStation.LYNWOOD_GARDENS;
import static org.itsrt.readings.StudyStation.WILMINGTON;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.itsrt.readings.StudyStation;
import org.jgrapht.alg.shortestpath.AllDirectedPaths;
import org.junit.jupiter.api.Test;

class StudyNetworkTest {

    private final DetectorGraph study = StudyNetwork.build();

    @Test
    void hasTheSixStationsAsDetectors() {
        assertThat(study.detectors())
                .extracting(Detector::vdsId)
                .containsExactly(764598L, 717731L, 774445L, 774614L, 718155L, 716847L);
        assertThat(study.requireDetector(EL_SEGUNDO.vdsId()).lanes()).isEqualTo(5);
    }

    /**
     * Expected lengths, in meters, computed independently of {@link GreatCircle} with the
     * spherical Vincenty formula, d = R * atan2(sqrt((cos p2 sin dl)^2 + (cos p1 sin p2 - sin p1
     * cos p2 cos dl)^2), sin p1 sin p2 + cos p1 cos p2 cos dl), R = 6,371,008.8 m, from the
     * coordinates in the study's Table 1 (double precision, rounded to the millimeter).
     */
    @Test
    void segmentLengthsAreTheGreatCircleDistancesOfThePublishedCoordinates() {
        Map<String, Double> expected = Map.of(
                "764598->717731", 16_477.050, // El Segundo -> Wilmington, 405 S
                "717731->774445", 3_050.305, // Wilmington -> Long Beach, 405 S
                "764598->774614", 7_795.356, // El Segundo -> Athens, 105 E
                "774614->718155", 9_325.256, // Athens -> Lynwood Gardens, 105 E
                "718155->716847", 4_155.081, // Lynwood Gardens -> East Rancho Dominguez, 710 S
                "716847->774445", 6_067.855); // East Rancho Dominguez -> Long Beach, 710 S

        Map<String, Double> actual = study.segments().stream()
                .collect(Collectors.toMap(
                        segment -> segment.from().vdsId() + "->" + segment.to().vdsId(), RoadSegment::lengthMeters));

        assertThat(actual).containsOnlyKeys(expected.keySet());
        expected.forEach((key, meters) -> assertThat(actual.get(key)).as(key).isCloseTo(meters, within(0.001)));
    }

    @Test
    void segmentsRunInTheDirectionOfTravelOnTheirFreeway() {
        assertThat(segment(EL_SEGUNDO, WILMINGTON).freeway()).isEqualTo(405);
        assertThat(segment(WILMINGTON, LONG_BEACH).freeway()).isEqualTo(405);
        assertThat(segment(EL_SEGUNDO, ATHENS).freeway()).isEqualTo(105);
        assertThat(segment(ATHENS, LYNWOOD_GARDENS).freeway()).isEqualTo(105);
        assertThat(segment(LYNWOOD_GARDENS, EAST_RANCHO_DOMINGUEZ).freeway()).isEqualTo(710);
        assertThat(segment(EAST_RANCHO_DOMINGUEZ, LONG_BEACH).freeway()).isEqualTo(710);
        assertThat(study.graph().containsEdge(detector(WILMINGTON), detector(EL_SEGUNDO)))
                .isFalse();
    }

    @Test
    void elSegundoToLongBeachHasExactlyTheTwoStudyRoutes() {
        List<List<Long>> routes = new AllDirectedPaths<>(study.graph())
                .getAllPaths(detector(EL_SEGUNDO), detector(LONG_BEACH), true, null).stream()
                        .map(path -> path.getVertexList().stream()
                                .map(Detector::vdsId)
                                .toList())
                        .toList();

        assertThat(routes)
                .containsExactlyInAnyOrder(
                        List.of(764598L, 717731L, 774445L), List.of(764598L, 774614L, 718155L, 716847L, 774445L));
    }

    private Detector detector(StudyStation station) {
        return study.requireDetector(station.vdsId());
    }

    private RoadSegment segment(StudyStation from, StudyStation to) {
        return study.graph().getEdge(detector(from), detector(to));
    }
}
