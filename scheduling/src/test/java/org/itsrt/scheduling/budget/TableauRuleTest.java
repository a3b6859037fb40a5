package org.itsrt.scheduling.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableauRuleTest {

    private static TableauRule.Choice choose(String u, long latencyUs, PeriodCandidates candidates)
            throws BudgetRefusal {
        return TableauRule.choose(new BigDecimal(u), latencyUs, candidates);
    }

    @Test
    void theStudysUtilizationWithA50msBoundTakesTheLargestDefaultPeriod() throws BudgetRefusal {
        // 2 x 0.2325 x T <= 50000 allows T <= 107526 us; the largest divisor of 100800 is 100800 itself.
        TableauRule.Choice c = choose("0.7675", 50_000, PeriodCandidates.defaults());
        assertThat(c.reservation()).isEqualTo(new Reservation(77_364, 100_800));
        assertThat(c.delayBoundUs()).isEqualByComparingTo("46872");
        assertThat(c.reservation().worstCaseDelayUs()).isEqualTo(46_872);
        assertThat(c.notes()).isEmpty();
    }

    @Test
    void aTighterBoundFallsToTheLargestPeriodThatMeetsIt() throws BudgetRefusal {
        // T <= 20000 / (2 x 0.2325) = 43010.75; 100800 / 2 = 50400 is too long, 100800 / 3 = 33600 fits.
        TableauRule.Choice c = choose("0.7675", 20_000, PeriodCandidates.defaults());
        assertThat(c.reservation().periodUs()).isEqualTo(33_600);
        assertThat(c.reservation().budgetUs()).isEqualTo(25_788); // 0.7675 x 33600 = 25788 exactly
        assertThat(c.reservation().worstCaseDelayUs()).isLessThanOrEqualTo(20_000);
    }

    @Test
    void theStudysOwnPeriodGivesTheStudysBudgetExactly() throws BudgetRefusal {
        // In binary floating point 0.7675 x 100000 is 76749.99999999999; exact decimals keep it 76750.
        TableauRule.Choice c = choose("0.7675", 50_000, PeriodCandidates.of(List.of(100_000L)));
        assertThat(c.reservation()).isEqualTo(new Reservation(76_750, 100_000));
        assertThat(c.reservation().worstCaseDelayUs()).isEqualTo(46_500);
    }

    @Test
    void aBoundMetExactlyCounts() throws BudgetRefusal {
        TableauRule.Choice c = choose("0.5", 100_000, PeriodCandidates.of(List.of(50_000L, 100_000L, 200_000L)));
        assertThat(c.reservation()).isEqualTo(new Reservation(50_000, 100_000));
        assertThat(c.reservation().worstCaseDelayUs()).isEqualTo(100_000);
    }

    @Test
    void fullUtilizationMeetsAnyBoundWithTheLargestPeriod() throws BudgetRefusal {
        TableauRule.Choice c = choose("1", 0, PeriodCandidates.defaults());
        assertThat(c.reservation()).isEqualTo(new Reservation(100_800, 100_800));
        assertThat(c.reservation().worstCaseDelayUs()).isZero();
        assertThat(choose("1.00", 0, PeriodCandidates.of(List.of(10L, 2_000_000L)))
                        .reservation()
                        .periodUs())
                .isEqualTo(2_000_000);
    }

    @Test
    void theBudgetIsRoundedUpSoNoUtilizationIsLost() throws BudgetRefusal {
        TableauRule.Choice c = choose("0.3333", 10_000, PeriodCandidates.of(List.of(1_000L)));
        assertThat(c.reservation().budgetUs()).isEqualTo(334); // 333.3 up
        assertThat(c.reservation().utilization()).isGreaterThanOrEqualTo(new BigDecimal("0.3333"));
        assertThat(c.notes()).singleElement().asString().contains("333.3 us rounded up to 334 us");
    }

    @Test
    void aBudgetBelowXensMinimumIsRaisedTo10us() throws BudgetRefusal {
        TableauRule.Choice c = choose("0.01", 1_000, PeriodCandidates.of(List.of(100L)));
        assertThat(c.reservation()).isEqualTo(new Reservation(10, 100));
        assertThat(c.notes()).anySatisfy(n -> assertThat(n)
                .contains("raised to Xen's minimum of 10 us")
                .contains("utilization 0.1 instead of 0.01"));
    }

    @Test
    void aTinyBoundIsRefusedNamingTheSmallestBoundThatWorks() {
        // The smallest default candidate is 10 us: 2 x 0.1 x 10 = 2 us > 1 us.
        assertThatThrownBy(() -> choose("0.9", 1, PeriodCandidates.defaults()))
                .isInstanceOf(BudgetRefusal.class)
                .hasMessageContaining("max latency of 1 us")
                .hasMessageContaining("smallest candidate, 10 us")
                .hasMessageContaining("smallest max latency that works with these candidates is 2 us")
                .hasMessageContaining("below Xen's 10 us minimum")
                .extracting(e -> ((BudgetRefusal) e).constraint())
                .isEqualTo("latency");
    }

    @Test
    void aRefusalWithCoarseCandidatesSaysWhichPeriodWouldFit() {
        assertThatThrownBy(() -> choose("0.75", 1_000, PeriodCandidates.of(List.of(10_000L, 100_000L))))
                .isInstanceOf(BudgetRefusal.class)
                .hasMessageContaining("2(1-U)T = 5000 us, over by 4000 us")
                .hasMessageContaining("smallest max latency that works with these candidates is 5000 us")
                .hasMessageContaining("or add a candidate period of at most 2000 us");
    }

    @Test
    void utilizationAndBoundAreChecked() {
        assertThatThrownBy(() -> choose("0", 1_000, PeriodCandidates.defaults()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("(0, 1]");
        assertThatThrownBy(() -> choose("1.01", 1_000, PeriodCandidates.defaults()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got 1.01");
        assertThatThrownBy(() -> choose("0.5", -1, PeriodCandidates.defaults()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(">= 0");
    }

    @Test
    void theDefaultCandidatesAreTheDivisorsOf100800AtLeast10us() {
        PeriodCandidates c = PeriodCandidates.defaults();
        assertThat(c.size()).isEqualTo(117);
        assertThat(c.smallestUs()).isEqualTo(10);
        assertThat(c.largestUs()).isEqualTo(100_800);
        for (long p : c.periodsUs()) {
            assertThat(100_800 % p).isZero();
        }
        assertThat(c.periodsUs())
                .contains(50_400, 33_600, 25_200, 20_160, 1_008, 12, 10)
                .doesNotContain(1_000, 9, 8, 1);
    }

    @Test
    void givenCandidatesOutsideXensRangeAreRefused() {
        assertThatThrownBy(() -> PeriodCandidates.of(List.of(5L, 100L)))
                .hasMessageContaining("[5]")
                .hasMessageContaining("10..2147483647");
        assertThatThrownBy(() -> PeriodCandidates.of(List.of(3_000_000_000L)))
                .hasMessageContaining("outside Xen RTDS's range");
        assertThatThrownBy(() -> PeriodCandidates.divisorsOf(5)).hasMessageContaining("hyperperiod 5 us");
    }

    @Test
    void xenLimitsNameWhatIsWrong() {
        assertThat(XenLimits.problem(10, 10)).isNull();
        assertThat(XenLimits.problem(9, 100)).contains("below Xen RTDS's minimum of 10 us");
        assertThat(XenLimits.problem(10, 9)).contains("outside Xen RTDS's range 10..");
        assertThat(XenLimits.problem(200, 100)).contains("longer than the period");
        assertThat(XenLimits.problem(10, 1L << 31)).contains("outside");
    }
}
