package org.itsrt.experiments.online;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.itsrt.experiments.online.BudgetController.Action;
import org.itsrt.experiments.online.BudgetController.Decision;
import org.junit.jupiter.api.Test;

class BudgetControllerTest {

    /** SLO 30 ms, 10,000..100,000 us, x2 on a miss, x0.9 after 2 intervals under 15 ms. */
    private static BudgetController controller() {
        return new BudgetController(BudgetController.Settings.of(30, 10_000, 100_000));
    }

    /** Calm intervals until the budget is at most {@code atMostUs}. */
    private static void calmDownTo(BudgetController c, long atMostUs) {
        for (int i = 0; i < 1000 && c.budgetUs() > atMostUs; i++) {
            c.next(120, 2, 1, 0, Double.NaN);
        }
    }

    @Test
    void startsAtTheCeilingAndStepsDownATenthOnlyAfterTwoCalmIntervals() {
        BudgetController c = controller();
        assertThat(c.budgetUs()).isEqualTo(100_000);
        assertThat(c.next(120, 2, 5, 0, Double.NaN).action()).isEqualTo(Action.HOLD);
        Decision second = c.next(120, 2, 5, 0, Double.NaN);
        assertThat(second.action()).isEqualTo(Action.DECREASE);
        assertThat(second.budgetUs()).isEqualTo(90_000);
        // The count starts again after a step: the next step needs two calm intervals more.
        assertThat(c.next(120, 2, 5, 0, Double.NaN).budgetUs()).isEqualTo(90_000);
        assertThat(c.next(120, 2, 5, 0, Double.NaN).budgetUs()).isEqualTo(81_000);
    }

    @Test
    void anIntervalBetweenCalmAndTheSloBreaksTheCalmCount() {
        BudgetController c = controller();
        c.next(120, 2, 5, 0, Double.NaN);
        assertThat(c.next(120, 2, 20, 0, Double.NaN).action()).isEqualTo(Action.HOLD);
        c.next(120, 2, 5, 0, Double.NaN);
        assertThat(c.budgetUs()).isEqualTo(100_000);
        assertThat(c.next(120, 2, 5, 0, Double.NaN).action()).isEqualTo(Action.DECREASE);
    }

    @Test
    void aMissTheBudgetCausedDoublesItUpToTheCeiling() {
        BudgetController c = controller();
        calmDownTo(c, 25_000);
        long before = c.budgetUs();
        Decision miss = c.next(120, 2, 31, 0.2, Double.NaN);
        assertThat(miss.action()).isEqualTo(Action.INCREASE);
        assertThat(miss.budgetUs()).isEqualTo(2 * before);
        assertThat(miss.why()).contains("throttled in 20% of periods");
        c.next(120, 2, 45, 0.2, Double.NaN);
        assertThat(c.next(120, 2, 45, 0.2, Double.NaN).budgetUs()).isEqualTo(100_000);
        Decision atCeiling = c.next(120, 2, 45, 0.2, Double.NaN);
        assertThat(atCeiling.action()).isEqualTo(Action.HOLD);
        assertThat(atCeiling.why()).contains("at the ceiling");
    }

    @Test
    void aMissWithoutThrottlingIsNotTheBudgetsDoingAndHolds() {
        BudgetController c = controller();
        calmDownTo(c, 50_000);
        long before = c.budgetUs();
        Decision unthrottled = c.next(120, 2, 80, 0, Double.NaN);
        assertThat(unthrottled.action()).isEqualTo(Action.HOLD);
        assertThat(unthrottled.budgetUs()).isEqualTo(before);
        assertThat(unthrottled.why()).contains("not throttled");
        // Throttled in the interval before counts: its backlog can still be arriving.
        c.next(120, 2, 20, 0.3, Double.NaN);
        Decision afterThrottling = c.next(120, 2, 80, 0, Double.NaN);
        assertThat(afterThrottling.action()).isEqualTo(Action.INCREASE);
        assertThat(afterThrottling.budgetUs()).isEqualTo(2 * before);
    }

    @Test
    void neverBelowTheFloor() {
        BudgetController c = controller();
        for (int i = 0; i < 100; i++) {
            c.next(120, 2, 1, 0, Double.NaN);
        }
        assertThat(c.budgetUs()).isEqualTo(10_000);
        Decision atFloor = c.next(120, 2, 1, 0, Double.NaN);
        assertThat(atFloor.budgetUs()).isEqualTo(10_000);
    }

    @Test
    void aRisingLoadScalesTheBudgetBeforeTheSloIsMissed() {
        BudgetController c = controller();
        calmDownTo(c, 30_000);
        long before = c.budgetUs();
        Decision tripled = c.next(360, 2, 10, 0, Double.NaN);
        assertThat(tripled.action()).isEqualTo(Action.FOLLOW_LOAD);
        assertThat(tripled.budgetUs()).isEqualTo(3 * before);
        assertThat(tripled.why()).contains("60 -> 180 records/s");
        assertThat(c.next(1200, 2, 10, 0, Double.NaN).budgetUs())
                .as("bounded by the ceiling")
                .isEqualTo(100_000);
        // A rise of less than 20 % is noise, not load.
        BudgetController d = controller();
        calmDownTo(d, 30_000);
        assertThat(d.next(140, 2, 10, 0, Double.NaN).action()).isEqualTo(Action.HOLD);
    }

    @Test
    void aRisingLoadIsMetWithTwiceTheCpuItWillUseNotWithTheBudgetScaled() {
        BudgetController c = controller();
        calmDownTo(c, 30_000);
        long before = c.budgetUs();
        // 4,000 us of CPU per period at 60 records/s: 12,000 at 180, x2 = 24,000, within the budget.
        Decision within = c.next(360, 2, 10, 0, 4_000);
        assertThat(within.action()).isEqualTo(Action.HOLD);
        assertThat(within.budgetUs()).isEqualTo(before);
        assertThat(within.why()).contains("using 4000 us of the budget: x2 for 24000 us, within the budget");
        // The next rise from 180 to 540 records/s at 12,000 us used: 72,000 us.
        Decision above = c.next(1080, 2, 10, 0, 12_000);
        assertThat(above.action()).isEqualTo(Action.FOLLOW_LOAD);
        assertThat(above.budgetUs()).isEqualTo(72_000);
    }

    @Test
    void noArrivalsIsNoEvidence() {
        BudgetController c = controller();
        c.next(120, 2, 1, 0, Double.NaN);
        Decision quiet = c.next(0, 2, Double.NaN, 0, Double.NaN);
        assertThat(quiet.action()).isEqualTo(Action.HOLD);
        assertThat(quiet.why()).isEqualTo("no arrivals");
        assertThat(c.next(120, 2, 1, 0, Double.NaN).action())
                .as("the calm count began again")
                .isEqualTo(Action.HOLD);
    }

    @Test
    void settingsThatCannotControlAreRefused() {
        assertThatThrownBy(() -> BudgetController.Settings.of(30, 50_000, 20_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("budget 50000..20000 us");
        assertThatThrownBy(() -> new BudgetController.Settings(30, 1, 2, 1.0, 0.9, 0.5, 3, 1.2, 2))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BudgetController.Settings(30, 1, 2, 2, 1.0, 0.5, 3, 1.2, 2))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
