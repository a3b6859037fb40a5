package org.itsrt.routing.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.itsrt.readings.BadInputException;
import org.itsrt.readings.pems.StationMeta;
import org.junit.jupiter.api.Test;

class DistrictGraphTest {

    private static final List<StationMeta> DISTRICT = SyntheticFreewayNetwork.district(4, 150);

    /** A mainline station far north of the synthetic districts, on a freeway of its own. */
    private static StationMeta farAway(long id, int freeway, char direction, double postmile) {
        return new StationMeta(
                id,
                freeway,
                direction,
                7,
                "",
                "",
                Double.toString(postmile),
                postmile,
                35.5 + postmile / 69.0,
                // Northbound east of southbound, 35 m apart.
                -118.2 + (direction == 'N' ? 0.0002 : -0.0002),
                Double.NaN,
                "ML",
                3,
                "station " + id);
    }

    private static List<StationMeta> districtAnd(List<StationMeta> more) {
        List<StationMeta> stations = new ArrayList<>(DISTRICT);
        stations.addAll(more);
        return stations;
    }

    @Test
    void aGeneratedDistrictPassesWithMostDetectorsInItsCore() {
        DetectorGraph graph = MetaGraphBuilder.buildDefault(DISTRICT);

        DistrictGraph.Check check = DistrictGraph.requireConnected(graph, "district.txt");

        assertThat(check.core().size()).isGreaterThanOrEqualTo(graph.detectors().size() / 2);
        assertThat(check.core().size()).isLessThan(graph.detectors().size());
        assertThat(check.offFreeway()).isEmpty();
        assertThat(check.cutOff()).isEmpty();
    }

    @Test
    void aStationAloneOnItsFreewayAndNearNoOtherIsOffEveryFreeway() {
        DetectorGraph graph = MetaGraphBuilder.buildDefault(districtAnd(List.of(farAway(990_001, 9001, 'N', 1))));

        assertThatThrownBy(() -> DistrictGraph.requireConnected(graph, "d07_text_meta_2018_03_01.txt"))
                .isInstanceOf(BadInputException.class)
                .hasMessageStartingWith("d07_text_meta_2018_03_01.txt: not one connected district: ")
                .hasMessageContaining("1 station(s) off every freeway (alone on their freeway and direction, near no "
                        + "other freeway): 990001 (9001-N)")
                .hasMessageNotContaining("neither reach");
    }

    @Test
    void aFreewayWithoutInterchangesIsCutOffAndEveryDetectorOfItIsNamed() {
        List<StationMeta> separate = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            separate.add(farAway(990_100 + i, 9002, 'N', i * 0.5));
            separate.add(farAway(990_200 + i, 9002, 'S', i * 0.5));
        }
        DetectorGraph graph = MetaGraphBuilder.buildDefault(districtAnd(separate));

        DistrictGraph.Check check = DistrictGraph.check(graph);

        assertThat(check.cutOff()).extracting(Detector::vdsId).hasSize(12).allMatch(id -> id >= 990_100);
        assertThat(check.offFreeway()).isEmpty();
        assertThat(check.problem(DistrictGraph.DEFAULT_CORE_SHARE))
                .contains("12 detector(s) that can neither reach nor be reached from the "
                        + check.core().size() + " of the core: 990100 (9002-N), 990101 (9002-N)")
                .endsWith(" and 2 more");
    }

    @Test
    void aChainWithoutInterchangesHasNoCoreWorthTheName() {
        List<StationMeta> chain = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            chain.add(farAway(990_300 + i, 9003, 'N', i * 0.5));
        }
        DetectorGraph graph = MetaGraphBuilder.buildDefault(chain);

        assertThatThrownBy(() -> DistrictGraph.requireConnected(graph, "chain.txt"))
                .hasMessageContaining(
                        "its largest strongly connected set holds 1 of 5 detectors, expected at least " + "50%");
    }

    @Test
    void theStudyNetworkStillBuildsAndIsNoDistrict() {
        DetectorGraph study = StudyNetwork.build();

        assertThat(study.detectors()).hasSize(6);
        // Six stations, one way each: no two reach each other, so it is not a district, and
        // nothing that builds it asks it to be one.
        assertThat(DistrictGraph.check(study).passes(DistrictGraph.DEFAULT_CORE_SHARE))
                .isFalse();
    }
}
