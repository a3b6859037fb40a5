package org.itsrt.probe.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SortedSampleTest {

    @Test
    void interpolatesLinearlyBetweenNearestRanks() {
        double[] values = new double[100];
        for (int i = 0; i < 100; i++) {
            values[99 - i] = i + 1;
        }
        SortedSample s = SortedSample.of(values);

        assertThat(s.count()).isEqualTo(100);
        assertThat(s.min()).isEqualTo(1);
        assertThat(s.max()).isEqualTo(100);
        assertThat(s.mean()).isEqualTo(50.5);
        assertThat(s.percentile(0)).isEqualTo(1);
        assertThat(s.percentile(50)).isEqualTo(50.5);
        assertThat(s.percentile(90)).isCloseTo(90.1, within(1e-12));
        assertThat(s.percentile(99)).isCloseTo(99.01, within(1e-12));
        assertThat(s.percentile(99.9)).isCloseTo(99.901, within(1e-12));
        assertThat(s.percentile(100)).isEqualTo(100);
    }

    @Test
    void aWholeIndexLandsOnTheValueItself() {
        double[] values = new double[1001];
        for (int i = 0; i <= 1000; i++) {
            values[i] = i * 0.5;
        }
        SortedSample s = SortedSample.of(values);
        assertThat(s.percentile(99.9)).isEqualTo(499.5);
        assertThat(s.percentile(50)).isEqualTo(250);
    }

    @Test
    void emptyHasNoPercentiles() {
        assertThat(SortedSample.of(new double[0]).percentile(50)).isNaN();
    }
}
