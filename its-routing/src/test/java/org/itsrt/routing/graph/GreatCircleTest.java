package org.itsrt.routing.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

class GreatCircleTest {

    /** R * pi / 180 with R = 6,371,008.8 m. */
    private static final double METERS_PER_DEGREE_OF_ARC = 111_195.080_233_5;

    @Test
    void oneDegreeAlongAMeridianOrTheEquatorIsOneDegreeOfArc() {
        assertThat(GreatCircle.meters(0, 0, 1, 0)).isCloseTo(METERS_PER_DEGREE_OF_ARC, within(1e-6));
        assertThat(GreatCircle.meters(45, -118, 46, -118)).isCloseTo(METERS_PER_DEGREE_OF_ARC, within(1e-6));
        assertThat(GreatCircle.meters(0, 179.5, 0, -179.5)).isCloseTo(METERS_PER_DEGREE_OF_ARC, within(1e-6));
    }

    @Test
    void antipodesAreHalfACircumferenceApart() {
        assertThat(GreatCircle.meters(33.9, -118.4, -33.9, 61.6))
                .isCloseTo(Math.PI * GreatCircle.EARTH_MEAN_RADIUS_M, within(1e-3));
    }

    @Test
    void aPointIsNowhereFromItself() {
        assertThat(GreatCircle.meters(33.928621, -118.368522, 33.928621, -118.368522))
                .isZero();
    }

    /**
     * A mostly north-south pair: the east-west-only distance the study's code used would be about
     * 11.9 km here instead of 16.5 km. Expected value from the spherical Vincenty formula
     * (atan2 form, independent of the haversine), same radius: 16,477.050 m.
     */
    @Test
    void measuresBothComponentsNotOnlyEastWest() {
        double elSegundoToWilmington = GreatCircle.meters(33.928621, -118.368522, 33.825757, -118.24005);
        assertThat(elSegundoToWilmington).isCloseTo(16_477.050, within(0.001));
    }

    @Property(tries = 500)
    void isSymmetricAndObeysTheTriangleInequality(
            @ForAll @DoubleRange(min = -90, max = 90) double lat1,
            @ForAll @DoubleRange(min = -180, max = 180) double lon1,
            @ForAll @DoubleRange(min = -90, max = 90) double lat2,
            @ForAll @DoubleRange(min = -180, max = 180) double lon2,
            @ForAll @DoubleRange(min = -90, max = 90) double lat3,
            @ForAll @DoubleRange(min = -180, max = 180) double lon3) {
        double ab = GreatCircle.meters(lat1, lon1, lat2, lon2);
        double bc = GreatCircle.meters(lat2, lon2, lat3, lon3);
        double ac = GreatCircle.meters(lat1, lon1, lat3, lon3);
        assertThat(GreatCircle.meters(lat2, lon2, lat1, lon1)).isEqualTo(ab);
        assertThat(ab).isBetween(0.0, Math.PI * GreatCircle.EARTH_MEAN_RADIUS_M + 1e-6);
        assertThat(ac).isLessThanOrEqualTo(ab + bc + 1e-6);
    }
}
