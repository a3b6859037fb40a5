package org.itsrt.job.deadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class InferenceCostEstimateTest {

    @Test
    void beforeAnyRefreshTheEstimateIsThePrior() {
        InferenceCostEstimate estimate = new InferenceCostEstimate(80, 123_000);
        for (int i = 0; i < 9; i++) {
            estimate.record(5_000_000);
        }
        assertThat(estimate.expectedNanos()).isEqualTo(123_000);
    }

    @Test
    void theEstimateIsTheNinetyNinthPercentileOfTheRecentCalls() {
        InferenceCostEstimate estimate = new InferenceCostEstimate(1_000, 0);
        // 990 calls of 100 us and 10 of 400 us: the 99th percentile is still 100 us, one more slow call lifts it.
        for (int i = 0; i < 990; i++) {
            estimate.record(100_000);
        }
        for (int i = 0; i < 10; i++) {
            estimate.record(400_000);
        }
        assertThat((double) estimate.expectedNanos()).isCloseTo(100_000, within(1_000.0));
        for (int i = 0; i < 125; i++) {
            estimate.record(400_000);
        }
        assertThat((double) estimate.expectedNanos()).isCloseTo(400_000, within(4_000.0));
    }

    @Test
    void itFollowsALoadChangeWithinTwoWindowsAndForgetsTheOldOne() {
        InferenceCostEstimate estimate = new InferenceCostEstimate(200, 0);
        for (int i = 0; i < 400; i++) {
            estimate.record(100_000);
        }
        assertThat((double) estimate.expectedNanos()).isCloseTo(100_000, within(1_000.0));
        // Throttled: every call now takes a millisecond.
        for (int i = 0; i < 200; i++) {
            estimate.record(1_000_000);
        }
        assertThat((double) estimate.expectedNanos()).isCloseTo(1_000_000, within(10_000.0));
        // The budget is back: two windows later nothing of the slow phase is left.
        for (int i = 0; i < 400; i++) {
            estimate.record(100_000);
        }
        assertThat((double) estimate.expectedNanos()).isCloseTo(100_000, within(1_000.0));
    }

    @Test
    void aWindowIsAlsoFullAfterItsTimeSoRareCallsForgetASlowPhase() {
        long ms = 1_000_000;
        InferenceCostEstimate estimate = new InferenceCostEstimate(512, 500 * ms, 0);
        // One call that spanned a throttled period: 60 ms, longer than a 50 ms deadline.
        estimate.record(60 * ms, 0);
        // Then one fast call every 100 ms, far fewer than a window of 512 calls.
        long now = 0;
        for (int i = 0; i < 5; i++) {
            estimate.record(150_000, now += 100 * ms);
        }
        assertThat(estimate.expectedNanos())
                .as("the slow call is in the last full window")
                .isGreaterThan(50 * ms);
        // The estimate is the last full window with the filling one: the slow call's window leaves
        // it when the second window after it is full.
        for (int i = 0; i < 12; i++) {
            estimate.record(150_000, now += 100 * ms);
        }
        assertThat((double) estimate.expectedNanos())
                .as("two windows of time after the slow call's")
                .isCloseTo(150_000, within(2_000.0));
    }

    @Test
    void anEstimateAboveEverySlackIsMeasuredAgainAndStopsDegradingEveryReading() {
        long ms = 1_000_000;
        DegradePolicy policy = DegradePolicy.learning();
        assertThat(policy.remeasureDue(0)).as("the LSTM never ran").isTrue();
        long now = 0;
        // A tight budget: the first calls span throttled periods and the p99 passes the deadline.
        for (int i = 0; i < 64; i++) {
            policy.lstmCalled(70 * ms, now += ms);
        }
        assertThat(policy.degrade(40 * ms))
                .as("40 ms of slack is below a 70 ms call")
                .isTrue();
        // Every reading is degraded now; the LSTM is measured again only every REMEASURE_NANOS.
        assertThat(policy.remeasureDue(now + DegradePolicy.REMEASURE_NANOS - 1)).isFalse();
        int remeasured = 0;
        for (long t = now; t < now + 2_000 * ms; t += 5 * ms) {
            if (policy.degrade(40 * ms) && policy.remeasureDue(t)) {
                // The budget is back: a call takes 150 us again.
                policy.lstmCalled(150_000, t + 150_000);
                remeasured++;
            }
        }
        assertThat(policy.degrade(40 * ms))
                .as("fast calls measured again end the degrading")
                .isFalse();
        assertThat(remeasured).as("about one call per 100 ms until then").isBetween(8, 20);
    }

    @Test
    void aWindowNeedsAtLeastOneCall() {
        assertThatThrownBy(() -> new InferenceCostEstimate(0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
    }

    @Test
    void theDegradePolicyDegradesWhenTheSlackIsBelowTheExpectedCost() {
        InferenceCostEstimate estimate = new InferenceCostEstimate(8, 0);
        DegradePolicy policy = new DegradePolicy(estimate);
        assertThat(policy.degrade(-1)).as("already late, nothing learned yet").isTrue();
        assertThat(policy.degrade(0)).isFalse();
        for (int i = 0; i < 8; i++) {
            policy.lstmCalled(200_000, i);
        }
        assertThat(policy.degrade(150_000)).isTrue();
        assertThat(policy.degrade(250_000)).isFalse();
        assertThat(policy.degrade(Long.MAX_VALUE)).as("no deadline").isFalse();
    }
}
