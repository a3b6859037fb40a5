package org.itsrt.routing.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.itsrt.readings.pems.StationMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SyntheticFreewayNetworkTest {

    private static final SyntheticFreewayNetwork.Spec SPEC = SyntheticFreewayNetwork.Spec.defaults(11);
    private static final List<StationMeta> STATIONS = SyntheticFreewayNetwork.stations(SPEC);
    private static final DetectorGraph GRAPH = MetaGraphBuilder.buildDefault(STATIONS);

    private static Map<String, List<StationMeta>> mainlineByCarriageway() {
        return STATIONS.stream()
                .filter(StationMeta::isMainline)
                .collect(Collectors.groupingBy(station -> station.freeway() + "-" + station.direction()));
    }

    private static boolean southNorth(StationMeta station) {
        return station.direction() == 'N' || station.direction() == 'S';
    }

    @Test
    void theDefaultNetworkHasOverAThousandMainlineDetectorsWithUniqueIds() {
        assertThat(GRAPH.detectors()).hasSizeGreaterThan(1000);
        assertThat(GRAPH.segments()).hasSizeGreaterThan(GRAPH.detectors().size());
        assertThat(STATIONS.stream().map(StationMeta::id).distinct().count()).isEqualTo(STATIONS.size());
        assertThat(STATIONS).extracting(StationMeta::type).contains("ML", "HV");
        assertThat(STATIONS).allSatisfy(station -> assertThat(station.name()).startsWith("Synthetic"));
        // 6 south-north and 6 west-east freeways, both directions each.
        assertThat(mainlineByCarriageway()).hasSize(24);
    }

    @Test
    void theSameSeedGivesTheSameRowsAndAnotherSeedOthers() {
        assertThat(SyntheticFreewayNetwork.stations(SyntheticFreewayNetwork.Spec.defaults(11)))
                .isEqualTo(STATIONS);
        assertThat(SyntheticFreewayNetwork.stations(SyntheticFreewayNetwork.Spec.defaults(12)))
                .isNotEqualTo(STATIONS);
    }

    @Test
    void postmilesGrowNorthwardAndEastward() {
        mainlineByCarriageway().forEach((carriageway, stations) -> {
            ToDoubleFunction<StationMeta> northOrEast =
                    southNorth(stations.get(0)) ? StationMeta::latitude : StationMeta::longitude;
            List<StationMeta> byPostmile = stations.stream()
                    .sorted(Comparator.comparingDouble(StationMeta::absPostmile))
                    .toList();
            for (int i = 1; i < byPostmile.size(); i++) {
                assertThat(northOrEast.applyAsDouble(byPostmile.get(i)))
                        .as("%s station %d", carriageway, byPostmile.get(i).id())
                        .isGreaterThan(northOrEast.applyAsDouble(byPostmile.get(i - 1)));
            }
        });
    }

    @Test
    void trafficKeepsRightSoNorthboundLiesEastOfSouthboundAndEastboundSouthOfWestbound() {
        Map<String, List<StationMeta>> carriageways = mainlineByCarriageway();
        for (int freeway : STATIONS.stream().map(StationMeta::freeway).collect(Collectors.toSet())) {
            if (carriageways.containsKey(freeway + "-N")) {
                assertThat(mean(carriageways.get(freeway + "-N"), StationMeta::longitude))
                        .isGreaterThan(mean(carriageways.get(freeway + "-S"), StationMeta::longitude));
            } else {
                assertThat(mean(carriageways.get(freeway + "-E"), StationMeta::latitude))
                        .isLessThan(mean(carriageways.get(freeway + "-W"), StationMeta::latitude));
            }
        }
    }

    @Test
    void stationsAreAboutTheSpecifiedSpacingApart() {
        double[] lengths = GRAPH.segments().stream()
                .filter(segment -> segment.kind() == RoadSegment.Kind.FREEWAY)
                .mapToDouble(RoadSegment::lengthMeters)
                .sorted()
                .toArray();
        double median = lengths[lengths.length / 2];

        assertThat(median).isBetween(0.9 * SPEC.stationSpacingMeters(), 1.2 * SPEC.stationSpacingMeters());
        assertThat(lengths[0]).isGreaterThan(0.5 * SPEC.stationSpacingMeters());
    }

    @Test
    void everySouthNorthFreewayHasInterchangesWithEveryWestEastFreeway() {
        Set<String> crossings = GRAPH.segments().stream()
                .filter(segment -> segment.kind() == RoadSegment.Kind.INTERCHANGE)
                .map(segment -> segment.from().freeway() + "" + segment.from().direction() + ">"
                        + segment.to().freeway() + segment.to().direction())
                .collect(Collectors.toSet());
        List<StationMeta> carriagewayHeads = mainlineByCarriageway().values().stream()
                .map(list -> list.get(0))
                .toList();

        for (StationMeta from : carriagewayHeads) {
            for (StationMeta to : carriagewayHeads) {
                if (southNorth(from) != southNorth(to)) {
                    assertThat(crossings)
                            .contains(from.freeway() + "" + from.direction() + ">" + to.freeway() + to.direction());
                }
            }
        }
    }

    @Test
    void rejectsSpecsThatCannotMakeANetwork() {
        assertThatThrownBy(() -> new SyntheticFreewayNetwork.Spec(1, 0, 3, 30_000, 800))
                .hasMessageContaining("freeway");
        assertThatThrownBy(() -> new SyntheticFreewayNetwork.Spec(1, 3, 3, 1_000, 800))
                .hasMessageContaining("regionSizeMeters");
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 150, 299, 1000, 4800})
    void aDistrictHasExactlyTheAskedMainlineStationsAndIsOneConnectedDistrict(int detectors) {
        List<StationMeta> district = SyntheticFreewayNetwork.district(5, detectors);
        DetectorGraph graph = MetaGraphBuilder.buildDefault(district);

        assertThat(district.stream().filter(StationMeta::isMainline)).hasSize(detectors);
        assertThat(district).extracting(StationMeta::type).contains("HV");
        assertThat(district.stream().map(StationMeta::id).distinct()).hasSize(district.size());
        assertThat(district).allSatisfy(station -> assertThat(station.name()).startsWith("Synthetic"));
        assertThat(graph.detectors()).hasSize(detectors);
        DistrictGraph.Check check = DistrictGraph.check(graph);
        assertThat(check.problem(DistrictGraph.DEFAULT_CORE_SHARE)).isNull();
        // Every freeway crosses every other way's freeways: at least 3 x 3 crossings, both ways.
        assertThat(graph.segments().stream()
                        .filter(segment -> segment.kind() == RoadSegment.Kind.INTERCHANGE)
                        .count())
                .isGreaterThanOrEqualTo(2 * 9);
    }

    @Test
    void aDistrictIsTheSameForTheSameSeedAndTrimsOnlyCarriagewayEnds() {
        List<StationMeta> district = SyntheticFreewayNetwork.district(8, 500);
        assertThat(SyntheticFreewayNetwork.district(8, 500)).isEqualTo(district);
        assertThat(SyntheticFreewayNetwork.district(9, 500)).isNotEqualTo(district);

        // The district is its network less stations at the ends of each carriageway: what is left
        // of a carriageway is a run of consecutive stations of the untrimmed one.
        List<StationMeta> network = SyntheticFreewayNetwork.stations(SyntheticFreewayNetwork.Spec.forDetectors(8, 500));
        assertThat(network).containsAll(district);
        Map<String, List<StationMeta>> untrimmed = byCarriagewayInPostmileOrder(network);
        byCarriagewayInPostmileOrder(district).forEach((carriageway, kept) -> {
            List<StationMeta> all = untrimmed.get(carriageway);
            int first = all.indexOf(kept.get(0));
            assertThat(all.subList(first, first + kept.size())).isEqualTo(kept);
            assertThat(kept.size()).isGreaterThan(all.size() / 2);
        });
    }

    @Test
    void anExistingSpecStillGivesTheNetworkOfItsOwnSize() {
        // forDetectors only adds a way to choose a spec: a spec given outright is generated as before.
        assertThat(SyntheticFreewayNetwork.stations(new SyntheticFreewayNetwork.Spec(11, 6, 6, 60_000, 800)))
                .isEqualTo(STATIONS);
    }

    private static Map<String, List<StationMeta>> byCarriagewayInPostmileOrder(List<StationMeta> stations) {
        return stations.stream()
                .filter(StationMeta::isMainline)
                .sorted(Comparator.comparingDouble(StationMeta::absPostmile).thenComparingLong(StationMeta::id))
                .collect(Collectors.groupingBy(
                        station -> station.freeway() + "-" + station.direction(),
                        java.util.TreeMap::new,
                        Collectors.toList()));
    }

    private static double mean(List<StationMeta> stations, ToDoubleFunction<StationMeta> value) {
        return stations.stream().mapToDouble(value).average().orElseThrow();
    }
}
