package org.itsrt.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TscCalibrationTest {

    @Test
    void keepsTheNarrowestBracketAndItsMidpoint() {
        long[][] samples = {
            {1000, 50, 1400}, // width 400: an interrupt in between
            {2000, 90, 2060}, // width 60: the best
            {3000, 130, 3100}, // width 100
            {4000, 170, 3990}, // ran backwards: ignored
        };
        int[] i = {0};
        TscCalibration.Point p = TscCalibration.narrowest(
                out -> {
                    long[] s = samples[i[0]++];
                    System.arraycopy(s, 0, out, 0, 3);
                },
                samples.length);
        assertThat(p).isEqualTo(new TscCalibration.Point(2030, 90, 60));
    }

    @Test
    void frequencyAndAnchorFromTwoPoints() throws ClockUnavailableException {
        TscCalibration.Result r = TscCalibration.fromPoints(
                new TscCalibration.Point(1_000, 10_000_000, 20),
                new TscCalibration.Point(1_000 + 1_222_702_060L, 510_000_000, 20));
        assertThat(r.frequencyHz()).isEqualTo(2_445_404_120L);
        assertThat(r.anchorTicks()).isEqualTo(1_000 + 1_222_702_060L);
        assertThat(r.anchorRawNanos()).isEqualTo(510_000_000);
        assertThat(r.durationMillis()).isEqualTo(500);
    }

    @Test
    void rejectsACounterThatDoesNotAdvance() {
        assertThatThrownBy(() -> TscCalibration.fromPoints(
                        new TscCalibration.Point(5, 0, 1), new TscCalibration.Point(5, 500_000_000, 1)))
                .isInstanceOf(ClockUnavailableException.class);
        assertThatThrownBy(() -> TscCalibration.fromPoints(
                        new TscCalibration.Point(0, 0, 1), new TscCalibration.Point(10, 500_000_000, 1)))
                .hasMessageContaining("implausible");
    }

    @Test
    void calibratesASimulatedCounter() throws ClockUnavailableException {
        TscCalibration.Result r = TscCalibration.calibrate(new FakeCounter(2_100_000_000L, 77)::sample, 40);
        assertThat(r.frequencyHz()).isBetween(2_099_999_000L, 2_100_001_000L);
        assertThat(r.durationMillis()).isGreaterThanOrEqualTo(40);
    }
}
