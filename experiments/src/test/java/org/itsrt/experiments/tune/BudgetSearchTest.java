package org.itsrt.experiments.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.itsrt.experiments.tune.FakeRuns.settings;
import static org.itsrt.experiments.tune.FakeRuns.threshold;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.tune.TuneResult.PeriodOutcome;
import org.itsrt.experiments.tune.TuneResult.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BudgetSearchTest {

    private static final BudgetSearch.Listener QUIET = new BudgetSearch.Listener() {};
    private static final SearchRange RANGE = new SearchRange(100_000, 1_000, 100_000, 1_000);

    @ParameterizedTest
    @ValueSource(longs = {1_001, 1_999, 2_000, 37_123, 50_500, 50_501, 99_000, 99_999, 100_000})
    void aThresholdIsFoundToWithinTheResolutionInAboutLog2Points(long thresholdUs) {
        FakeRuns.Evaluator evaluator = new FakeRuns.Evaluator((budget, period, rep) -> budget >= thresholdUs);

        TuneResult result = new BudgetSearch(settings(2, 4, RANGE), evaluator, QUIET).run();

        PeriodOutcome outcome = result.periods().get(0);
        assertThat(outcome.status()).isEqualTo(Status.FOUND);
        assertThat(outcome.smallestPassingUs()).isGreaterThanOrEqualTo(thresholdUs);
        assertThat(outcome.largestFailingUs()).isLessThan(thresholdUs);
        assertThat(outcome.smallestPassingUs() - outcome.largestFailingUs()).isLessThanOrEqualTo(RANGE.resolutionUs());
        assertThat(result.best()).contains(outcome);
        // The upper bound first, then about log2(99000 / 1000) = 6.6 halvings; never a budget twice.
        List<TriedPoint> points = result.points();
        assertThat(points.get(0).budgetUs()).isEqualTo(100_000);
        assertThat(points).hasSizeBetween(1 + 6, RANGE.maxPoints());
        assertThat(points).extracting(TriedPoint::budgetUs).doesNotHaveDuplicates();
        for (TriedPoint p : points) {
            assertThat(p.verdict().passed()).as("budget %d", p.budgetUs()).isEqualTo(p.budgetUs() >= thresholdUs);
            assertThat(p.runs()).hasSize(2);
            assertThat(p.budgetUs()).isBetween(RANGE.minBudgetUs(), RANGE.maxBudgetUs());
        }
        assertThat(evaluator.asked).hasSize(points.size() * 2);
        assertThat(result.noisy()).isEmpty();
        assertThat(result.nonMonotonic()).isEmpty();
    }

    @Test
    void anUpperBoundThatFailsEndsThePeriodWithNoBudget() {
        FakeRuns.Evaluator evaluator = new FakeRuns.Evaluator((budget, period, rep) -> false);

        TuneResult result = new BudgetSearch(settings(2, 4, RANGE), evaluator, QUIET).run();

        assertThat(result.points()).singleElement().satisfies(p -> {
            assertThat(p.budgetUs()).isEqualTo(100_000);
            assertThat(p.verdict()).isEqualTo(Verdict.FAIL);
        });
        assertThat(result.periods().get(0).status()).isEqualTo(Status.NONE_PASSES);
        assertThat(result.best()).isEmpty();
        assertThat(result.stoppedEarly()).isFalse();
    }

    @Test
    void aLowerBoundThatPassesIsTriedAndSaidToPass() {
        FakeRuns.Evaluator evaluator = new FakeRuns.Evaluator((budget, period, rep) -> true);

        TuneResult result = new BudgetSearch(settings(2, 4, RANGE), evaluator, QUIET).run();

        PeriodOutcome outcome = result.periods().get(0);
        assertThat(outcome.status()).isEqualTo(Status.LOWER_BOUND_PASSES);
        assertThat(outcome.smallestPassingUs()).isEqualTo(1_000);
        assertThat(outcome.largestFailingUs()).isNull();
        List<TriedPoint> points = result.points();
        assertThat(points.get(points.size() - 1).budgetUs()).isEqualTo(1_000);
        // Each point below the upper bound halves the bracket towards the lower bound.
        for (int i = 1; i < points.size() - 1; i++) {
            assertThat(points.get(i).budgetUs()).isLessThan(points.get(i - 1).budgetUs());
        }
        assertThat(points.get(points.size() - 2).budgetUs() - 1_000).isLessThanOrEqualTo(RANGE.resolutionUs());
        assertThat(points).allMatch(p -> p.verdict() == Verdict.PASS);
    }

    @Test
    void aNoisyPointGetsMoreRunsAndFails() {
        // The first midpoint, 50500 us, passes every other run; everything from 30% up passes otherwise.
        FakeRuns.Evaluator evaluator =
                new FakeRuns.Evaluator((budget, period, rep) -> budget == 50_500 ? rep % 2 == 1 : budget >= 30_000);

        TuneResult result = new BudgetSearch(settings(2, 4, RANGE), evaluator, QUIET).run();

        TriedPoint noisy = result.points().get(1);
        assertThat(noisy.budgetUs()).isEqualTo(50_500);
        assertThat(noisy.verdict()).isEqualTo(Verdict.NOISY_FAIL);
        assertThat(noisy.runs()).hasSize(4);
        assertThat(noisy.runsMeetingSlo()).isEqualTo(2);
        assertThat(result.noisy()).containsExactly(noisy);
        // Decided as a failure: the search went on above it, and the answer lies above it.
        assertThat(result.points().get(2).budgetUs()).isGreaterThan(50_500);
        assertThat(result.periods().get(0).smallestPassingUs()).isGreaterThan(50_500);
        assertThat(result.periods().get(0).largestFailingUs()).isGreaterThanOrEqualTo(50_500);
        // The other points ran the usual two runs.
        assertThat(result.points())
                .filteredOn(p -> p != noisy)
                .allMatch(p -> p.runs().size() == 2);
    }

    @Test
    void extraRunsStopAtMaxRepetitions() {
        FakeRuns.Evaluator evaluator =
                new FakeRuns.Evaluator((budget, period, rep) -> budget == 50_500 ? rep == 1 : budget >= 30_000);

        TuneResult result = new BudgetSearch(settings(2, 2, RANGE), evaluator, QUIET).run();

        assertThat(result.points().get(1).runs()).hasSize(2);
        assertThat(result.points().get(1).verdict()).isEqualTo(Verdict.NOISY_FAIL);
    }

    @Test
    void aNoisyPassBelowABudgetThatFailedIsReportedAsNotMonotonic() {
        // The real threshold is 60%, but 50500 us meets the SLO in its odd runs.
        FakeRuns.Evaluator evaluator =
                new FakeRuns.Evaluator((budget, period, rep) -> budget == 50_500 ? rep % 2 == 1 : budget >= 60_000);

        TuneResult result = new BudgetSearch(settings(2, 4, RANGE), evaluator, QUIET).run();

        assertThat(result.periods().get(0).smallestPassingUs()).isBetween(60_000L, 61_000L);
        List<TuneResult.NonMonotonic> evidence = result.nonMonotonic();
        assertThat(evidence).singleElement().satisfies(n -> {
            assertThat(n.lowerBudgetUs()).isEqualTo(50_500);
            assertThat(n.lowerMet()).isEqualTo(2);
            assertThat(n.lowerRuns()).isEqualTo(4);
            assertThat(n.higherBudgetUs()).isEqualTo(result.periods().get(0).largestFailingUs());
            assertThat(n.higherMissed()).isEqualTo(2);
        });
    }

    @Test
    void severalPeriodsAreSearchedInTurnAndTheLowestShareWins() {
        SearchRange longPeriod = new SearchRange(100_000, 1_000, 100_000, 1_000);
        SearchRange shortPeriod = new SearchRange(10_000, 1_000, 10_000, 100);
        // 30% of a CPU with the long period, 20% with the short one.
        FakeRuns.Evaluator evaluator =
                new FakeRuns.Evaluator((budget, period, rep) -> budget >= (period == 100_000 ? 0.30 : 0.20) * period);

        TuneResult result = new BudgetSearch(settings(2, 4, longPeriod, shortPeriod), evaluator, QUIET).run();

        assertThat(result.periods()).extracting(PeriodOutcome::status).containsExactly(Status.FOUND, Status.FOUND);
        assertThat(result.periods().get(0).utilization()).isBetween(0.30, 0.31);
        assertThat(result.periods().get(1).utilization()).isBetween(0.20, 0.21);
        assertThat(result.best()).get().extracting(o -> o.range().periodUs()).isEqualTo(10_000L);
        // Period by period, in the order given; points numbered through.
        List<Long> periods = result.points().stream().map(TriedPoint::periodUs).toList();
        assertThat(periods.indexOf(10_000L)).isGreaterThan(periods.lastIndexOf(100_000L));
        for (int i = 0; i < result.points().size(); i++) {
            assertThat(result.points().get(i).number()).isEqualTo(i + 1);
        }
    }

    @Test
    void aRunThatFailsStopsTheSearchWithWhatItHas() {
        SearchRange second = new SearchRange(10_000, 1_000, 10_000, 100);
        List<FakeRuns.Asked> asked = new ArrayList<>();
        PointEvaluator evaluator = (point, budget, period, rep) -> {
            asked.add(new FakeRuns.Asked(point, budget, period, rep));
            return FakeRuns.run(budget, period, rep, 10, 30, point == 2 ? 1 : 0, 0);
        };

        TuneResult result = new BudgetSearch(settings(2, 4, RANGE, second), evaluator, QUIET).run();

        assertThat(result.stoppedEarly()).isTrue();
        assertThat(result.failure()).contains("point 2").contains("exited with 1");
        assertThat(result.points()).extracting(TriedPoint::verdict).containsExactly(Verdict.PASS, Verdict.RUN_FAILED);
        assertThat(asked).hasSize(3);
        assertThat(result.periods())
                .extracting(PeriodOutcome::status)
                .containsExactly(Status.STOPPED, Status.NOT_SEARCHED);
        assertThat(result.periods().get(0).smallestPassingUs()).isEqualTo(100_000);
        assertThat(result.best()).isEmpty();
    }

    @Test
    void aRunThatCannotBeMeasuredStopsTheSearch() {
        PointEvaluator evaluator = (point, budget, period, rep) -> {
            throw new IllegalStateException("run wrote no probe report");
        };

        TuneResult result = new BudgetSearch(settings(2, 4, RANGE), evaluator, QUIET).run();

        assertThat(result.failure()).contains("run wrote no probe report");
        assertThat(result.points()).singleElement().satisfies(p -> {
            assertThat(p.verdict()).isEqualTo(Verdict.RUN_FAILED);
            assertThat(p.runs()).isEmpty();
        });
    }

    @Test
    void aRunThatLostRecordsMissesTheSlo() {
        assertThat(BudgetSearch.meetsSlo(FakeRuns.run(50_000, 100_000, 1, 10, 30, 0, 0), 20, 50))
                .isTrue();
        assertThat(BudgetSearch.meetsSlo(FakeRuns.run(50_000, 100_000, 1, 10, 30, 0, 3), 20, 50))
                .isFalse();
        assertThat(BudgetSearch.meetsSlo(FakeRuns.run(50_000, 100_000, 1, 21, 30, 0, 0), 20, 50))
                .isFalse();
        assertThat(BudgetSearch.meetsSlo(FakeRuns.run(50_000, 100_000, 1, 10, 51, 0, 0), 20, 50))
                .isFalse();
        assertThat(BudgetSearch.meetsSlo(FakeRuns.run(50_000, 100_000, 1, 10, 30, 1, 0), 20, 50))
                .isFalse();
    }

    @Test
    void theRunsLeftItAnnouncesAreNeverFewerThanThoseThatCome() {
        List<Integer> announced = new ArrayList<>();
        BudgetSearch.Listener listener = new BudgetSearch.Listener() {
            @Override
            public void ran(int point, long budgetUs, long periodUs, RowRun run, boolean metSlo, int runsLeftAtMost) {
                announced.add(runsLeftAtMost);
            }
        };
        SearchRange second = new SearchRange(10_000, 1_000, 10_000, 100);
        Set<Double> shares = new HashSet<>(List.of(0.0, 0.37, 2.0));
        for (double share : shares) {
            announced.clear();
            BudgetSearch.Settings settings = settings(2, 4, RANGE, second);
            new BudgetSearch(settings, new FakeRuns.Evaluator(threshold(share)), listener).run();
            int total = announced.size();
            assertThat(announced.get(0)).as("share %s", share).isLessThanOrEqualTo(settings.maxRuns() - 1);
            for (int i = 0; i < total; i++) {
                assertThat(announced.get(i))
                        .as("share %s, run %d", share, i + 1)
                        .isGreaterThanOrEqualTo(total - i - 1);
            }
            if (share == 0.0) {
                // Every point passes: the search runs on to the last lower bound, after which nothing is left.
                assertThat(announced.get(total - 1)).isZero();
            }
        }
    }

    @Test
    void anInterruptionReportsThePointsMeasuredAndThePointUnderWayAndStopsBeforeTheNextRun() {
        SearchRange second = new SearchRange(10_000, 1_000, 10_000, 100);
        List<TuneResult> snapshots = new ArrayList<>();
        BudgetSearch[] search = new BudgetSearch[1];
        PointEvaluator evaluator = (point, budget, period, rep) -> {
            if (point == 3 && rep == 2) {
                // Ctrl-C while the second run of point 3 is measured.
                snapshots.add(search[0].interrupt());
            }
            return FakeRuns.run(budget, period, rep, 10, 30);
        };
        search[0] = new BudgetSearch(settings(2, 2, RANGE, second), evaluator, QUIET);

        TuneResult result = search[0].run();

        assertThat(snapshots).singleElement().satisfies(sofar -> {
            assertThat(sofar.interrupted()).isTrue();
            assertThat(sofar.stoppedEarly()).isTrue();
            assertThat(sofar.interruption())
                    .isEqualTo("interrupted while point 3 (25750/100000 us) was being measured, run 2 of 2; "
                            + "the search did not finish");
            assertThat(sofar.points())
                    .extracting(TriedPoint::number, TriedPoint::budgetUs, TriedPoint::verdict)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(1, 100_000L, Verdict.PASS),
                            org.assertj.core.groups.Tuple.tuple(2, 50_500L, Verdict.PASS),
                            org.assertj.core.groups.Tuple.tuple(3, 25_750L, Verdict.INTERRUPTED));
            assertThat(sofar.points().get(2).runs())
                    .as("run 1 of point 3 was measured")
                    .hasSize(1);
            assertThat(sofar.periods())
                    .extracting(PeriodOutcome::status)
                    .containsExactly(Status.INTERRUPTED, Status.NOT_SEARCHED);
            assertThat(sofar.periods().get(0).smallestPassingUs()).isEqualTo(50_500);
            assertThat(sofar.best()).isEmpty();
        });
        // The run under way ends (here it completes point 3); no further run starts.
        assertThat(result.interrupted()).isTrue();
        assertThat(result.points()).extracting(TriedPoint::number).containsExactly(1, 2, 3);
        assertThat(result.interruption()).startsWith("interrupted before point 4");
        assertThat(result.periods())
                .extracting(PeriodOutcome::status)
                .containsExactly(Status.INTERRUPTED, Status.NOT_SEARCHED);
    }
}
