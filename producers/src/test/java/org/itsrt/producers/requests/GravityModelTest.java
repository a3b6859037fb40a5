package org.itsrt.producers.requests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.itsrt.readings.pems.StationMeta;
import org.itsrt.routing.graph.GreatCircle;
import org.junit.jupiter.api.Test;

class GravityModelTest {

    static StationMeta station(long id, int lanes, double latitude, double longitude) {
        return new StationMeta(id, 405, 'S', 7, "37", "", "1.0", 1.0, latitude, longitude, 0.5, "ML", lanes, "");
    }

    /** Five stations within about 20 km of each other, of 2 to 5 lanes. */
    static List<StationMeta> smallDistrict() {
        return List.of(
                station(764598, 5, 33.928621, -118.368522),
                station(717731, 4, 33.842000, -118.290000),
                station(774445, 3, 33.990000, -118.420000),
                station(716847, 2, 33.900000, -118.250000),
                station(718155, 4, 34.010000, -118.300000));
    }

    @Test
    void theProbabilitiesAreTheGravityFormulaNormalized() {
        List<StationMeta> stations = smallDistrict();
        GravityModel model = GravityModel.of(stations, 8_000);

        double sum = 0;
        double[][] weight = new double[5][5];
        double total = 0;
        for (int o = 0; o < 5; o++) {
            for (int d = 0; d < 5; d++) {
                if (o != d) {
                    StationMeta a = stations.get(o);
                    StationMeta b = stations.get(d);
                    double meters = GreatCircle.meters(a.latitude(), a.longitude(), b.latitude(), b.longitude());
                    weight[o][d] = a.lanes() * b.lanes() * Math.exp(-meters / 8_000);
                    total += weight[o][d];
                }
                sum += model.probability(o, d);
            }
        }
        assertThat(sum).isCloseTo(1.0, within(1e-12));
        for (int o = 0; o < 5; o++) {
            assertThat(model.probability(o, o)).isZero();
            for (int d = 0; d < 5; d++) {
                assertThat(model.probability(o, d)).isCloseTo(weight[o][d] / total, within(1e-15));
            }
        }
        assertThat(model.size()).isEqualTo(5);
        assertThat(model.station(2)).isEqualTo(774445);
    }

    /**
     * 200,000 pairs drawn with uniforms of a seeded generator, against the model's probabilities:
     * Pearson's chi-square over the 20 pairs (19 degrees of freedom) stays below 43.8, the 0.1 %
     * critical value; a sampler off by a few percent on any pair would exceed it by far.
     */
    @Test
    void drawnPairsFollowTheModel() {
        GravityModel model = GravityModel.of(smallDistrict(), 8_000);
        java.util.SplittableRandom random = new java.util.SplittableRandom(41);
        int draws = 200_000;
        long[][] count = new long[5][5];
        for (int i = 0; i < draws; i++) {
            int o = model.sampleOrigin(random.nextDouble());
            int d = model.sampleDestination(o, random.nextDouble());
            count[o][d]++;
        }
        double chiSquare = 0;
        for (int o = 0; o < 5; o++) {
            assertThat(count[o][o])
                    .as("origin %d drawn as its own destination", o)
                    .isZero();
            for (int d = 0; d < 5; d++) {
                if (o != d) {
                    double expected = draws * model.probability(o, d);
                    assertThat(expected)
                            .as("enough expected draws for the test")
                            .isGreaterThan(50);
                    chiSquare += (count[o][d] - expected) * (count[o][d] - expected) / expected;
                }
            }
        }
        assertThat(chiSquare).isLessThan(43.8);
    }

    @Test
    void theEdgesOfTheUniformRangeStillDrawAnotherStation() {
        GravityModel model = GravityModel.of(smallDistrict());
        double justBelowOne = Math.nextDown(1.0);
        for (int o = 0; o < model.size(); o++) {
            assertThat(model.sampleDestination(o, 0.0)).isNotEqualTo(o).isBetween(0, 4);
            assertThat(model.sampleDestination(o, justBelowOne)).isNotEqualTo(o).isBetween(0, 4);
        }
        assertThat(model.sampleOrigin(0.0)).isBetween(0, 4);
        assertThat(model.sampleOrigin(justBelowOne)).isBetween(0, 4);
    }

    @Test
    void shorterTripsAreLikelierByTheDeterrence() {
        // Three stations on a meridian, 0, 10 and 20 km north, all of 2 lanes.
        double degreesPer10Km = 10_000 / (GreatCircle.EARTH_MEAN_RADIUS_M * Math.PI / 180);
        GravityModel model = GravityModel.of(
                List.of(
                        station(1, 2, 34.0, -118.0),
                        station(2, 2, 34.0 + degreesPer10Km, -118.0),
                        station(3, 2, 34.0 + 2 * degreesPer10Km, -118.0)),
                10_000);
        assertThat(model.probability(0, 1) / model.probability(0, 2)).isCloseTo(Math.E, within(1e-6));
    }

    @Test
    void invalidDistrictsAreRefusedNamingTheProblem() {
        assertThatThrownBy(() -> GravityModel.of(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("gravity model: needs at least 2 stations (a trip has an origin and another "
                        + "destination), got 0");
        assertThatThrownBy(() -> GravityModel.of(List.of(station(1, 2, 34, -118))))
                .hasMessageEndingWith("got 1");
        assertThatThrownBy(() -> GravityModel.of(List.of(station(1, 2, 34, -118), station(2, 0, 34.1, -118))))
                .hasMessage(
                        "gravity model: station 2 has 0 lanes, expected at least 1 (lanes weigh a station's trips)");
        assertThatThrownBy(
                        () -> GravityModel.of(List.of(station(1, 2, 34, -118), station(2, 3, Double.NaN, Double.NaN))))
                .hasMessageStartingWith("gravity model: station 2 has no coordinates");
        assertThatThrownBy(() -> GravityModel.of(List.of(station(1, 2, 34, -118), station(1, 3, 34.1, -118))))
                .hasMessage("gravity model: station 1 is listed twice");
        assertThatThrownBy(() -> GravityModel.of(smallDistrict(), 0))
                .hasMessage("gravity model: deterrence length must be a positive number of meters, got 0.0");
        assertThatThrownBy(() -> GravityModel.of(smallDistrict(), Double.NaN))
                .hasMessageContaining("deterrence length");
        assertThatThrownBy(() -> GravityModel.of(List.of(station(1, 2, 0, 0), station(2, 2, 0, 90)), 1))
                .hasMessageStartingWith("gravity model: every pair's weight is 0");
    }
}
