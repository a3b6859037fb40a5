package org.itsrt.experiments.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LagTrendTest {

    /** Windows of 1 s whose p95 is {@code base + slope * t} plus noise of +-{@code noise} ms. */
    private static List<LagTrend.Window> windows(int count, double base, double slope, double noise, long seed) {
        Random random = new Random(seed);
        List<LagTrend.Window> windows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            windows.add(new LagTrend.Window(i, base + slope * i + noise * (2 * random.nextDouble() - 1)));
        }
        return windows;
    }

    @Test
    void aConsumerThatKeepsUpHasAFlatTrendDespiteNoise() {
        LagTrend trend = LagTrend.of(windows(30, 12, 0, 8, 1));

        assertThat(trend.windows()).isEqualTo(30);
        assertThat(trend.slopeMsPerS()).isBetween(-1.0, 1.0);
        assertThat(trend.within(5)).isTrue();
    }

    @Test
    void aConsumerFallingBehindHasTheSlopeOfItsBacklog() {
        // serving 98 % of the offered rate: each second adds 20 ms of backlog
        LagTrend trend = LagTrend.of(windows(30, 12, 20, 8, 2));

        assertThat(trend.slopeMsPerS()).isCloseTo(20, within(1.0));
        assertThat(trend.within(5)).isFalse();
    }

    @Test
    void aShrinkingBacklogPassesAndTooFewWindowsDoNot() {
        assertThat(LagTrend.of(windows(10, 400, -30, 0, 3)).within(0)).isTrue();
        LagTrend two = LagTrend.of(windows(2, 10, 0, 0, 4));
        assertThat(two.slopeMsPerS()).isNaN();
        assertThat(two.within(1_000)).isFalse();
    }

    @Test
    void readsTheIntendedLatencyOfAProbesWindowsCsv(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("windows.csv");
        StringBuilder text = new StringBuilder("latency,window,start_s,records,p95_ms,max_ms,over_slo,violates\n");
        for (int i = 0; i < 5; i++) {
            // from sent: flat; from intended: 10 ms more every second
            text.append("from_sent,").append(i).append(',').append(i).append(".000000,100,5.0,6.0,0,false\n");
            text.append("from_intended,")
                    .append(i)
                    .append(',')
                    .append(i)
                    .append(".000000,100,")
                    .append(5 + 10 * i)
                    .append(".0,60.0,0,false\n");
        }
        Files.writeString(csv, text);

        LagTrend trend = LagTrend.read(csv);

        assertThat(trend.windows()).isEqualTo(5);
        assertThat(trend.slopeMsPerS()).isCloseTo(10, within(1e-9));
    }

    @Test
    void aFileThatIsNotAWindowsCsvIsNamed(@TempDir Path dir) throws IOException {
        Path csv = Files.writeString(dir.resolve("windows.csv"), "detector,seq\n");

        assertThatThrownBy(() -> LagTrend.read(csv))
                .hasMessageContaining(csv.toString())
                .hasMessageContaining("not a probe's windows.csv");
    }
}
