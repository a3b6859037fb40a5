package org.itsrt.experiments.online;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.itsrt.experiments.online.BudgetController.Action;
import org.junit.jupiter.api.Test;

class OnlineReportTest {

    private static OnlineStep step(double seconds, long budgetUs, long records, double p99Ms) {
        return new OnlineStep(
                seconds, budgetUs, budgetUs, 100_000, records, records / 2.0, 1, p99Ms, p99Ms, 0, 0.1, Action.HOLD, "");
    }

    @Test
    void theCpuSavedIsTheBudgetInForceAgainstAFixedBudgetAtItsPeak() {
        // Four 2 s intervals, 2 CPUs: 50 %, 50 %, 100 % (the peak), 50 % of a CPU each.
        List<OnlineStep> steps = List.of(
                step(2, 50_000, 100, 10), step(4, 50_000, 100, 40), step(6, 100_000, 300, 20), step(8, 50_000, 0, 0));
        OnlineReport.Figures f = OnlineReport.figures(steps, 30, 100_000, 2);
        assertThat(f.budgetCpuSeconds()).isCloseTo((0.5 + 0.5 + 1 + 0.5) * 2 * 2, within(1e-9));
        assertThat(f.peakBudgetUs()).isEqualTo(100_000);
        assertThat(f.peakCpuSeconds()).isCloseTo(1.0 * 2 * 8, within(1e-9));
        assertThat(f.savedAgainstPeak()).isCloseTo(1 - 10.0 / 16, within(1e-9));
        // The interval without records is no interval of the SLO ratio; one of three missed.
        assertThat(f.intervals()).isEqualTo(3);
        assertThat(f.metSlo()).isEqualTo(2);
        assertThat(f.usedCpuSeconds()).isCloseTo(0.1 * 8, within(1e-9));
    }

    @Test
    void thePeakIsTheLargestBudgetTheControllerRaisedToNotTheCeilingItStartedAt() {
        // 100 % at the start, down to 40 %, raised to 70 % on a miss, down to 60 %.
        List<OnlineStep> steps = List.of(
                new OnlineStep(2, 100_000, 40_000, 100_000, 100, 50, 1, 5, 5, 0, 0.1, Action.DECREASE, ""),
                new OnlineStep(4, 40_000, 70_000, 100_000, 100, 50, 1, 60, 60, 0.3, 0.1, Action.INCREASE, ""),
                new OnlineStep(6, 70_000, 60_000, 100_000, 100, 50, 1, 5, 5, 0, 0.1, Action.DECREASE, ""));
        OnlineReport.Figures f = OnlineReport.figures(steps, 30, 100_000, 1);
        assertThat(f.peakBudgetUs()).isEqualTo(70_000);
        assertThat(f.peakCpuSeconds()).isCloseTo(0.7 * 6, within(1e-9));
        assertThat(f.budgetCpuSeconds()).isCloseTo((1.0 + 0.4 + 0.7) * 2, within(1e-9));
    }

    @Test
    void theCsvHasARowPerIntervalWithItsDecision() {
        String csv = OnlineReport.csv(List.of(new OnlineStep(
                2,
                50_000,
                100_000,
                100_000,
                120,
                60,
                3,
                35.5,
                40,
                0.25,
                Double.NaN,
                Action.INCREASE,
                "p99 35.5 ms over the SLO")));
        assertThat(csv.lines().toList())
                .hasSize(2)
                .last()
                .isEqualTo("2.000,50000,100000,0.5000,120,60.0,3.000,35.500,40.000,0.2500,,increase,100000,"
                        + "\"p99 35.5 ms over the SLO\"");
    }
}
