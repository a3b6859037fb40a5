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
            policy.lstmCalled(200_000);
        }
        assertThat(policy.degrade(150_000)).isTrue();
        assertThat(policy.degrade(250_000)).isFalse();
        assertThat(policy.degrade(Long.MAX_VALUE)).as("no deadline").isFalse();
    }
}
