package org.itsrt.experiments.tune;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.itsrt.experiments.tune.TuneResult.PeriodOutcome;
import org.itsrt.experiments.tune.TuneResult.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AnnealingSearchTest {

    private static final BudgetSearch.Listener QUIET = new BudgetSearch.Listener() {};
    private static final SearchRange TEN_MS = new SearchRange(10_000, 1_000, 10_000, 100);
    private static final SearchRange TWENTY_MS = new SearchRange(20_000, 1_000, 20_000, 200);
    private static final SearchRange FIFTY_MS = new SearchRange(50_000, 2_500, 50_000, 500);

    /** Passes from 40% of a CPU with a 10 ms period, 25% with 20 ms, 33% with 50 ms: the lowest share is 20 ms's. */
    private static final FakeRuns.Model U_SHAPED =
            (budget, period, rep) -> budget >= (period == 10_000 ? 0.40 : period == 20_000 ? 0.25 : 0.33) * period;

    private static BudgetSearch.Settings annealing(long seed, int maxPoints, SearchRange... ranges) {
        return FakeRuns.settings(2, 4, ranges).with(SearchStrategy.annealing(seed, maxPoints));
    }

    private static List<String> pointsOf(TuneResult result) {
        return result.points().stream()
                .map(p -> p.periodUs() + "/" + p.budgetUs())
                .toList();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 5, 12})
    void itMeasuresAtMostMaxPointsAndNeverAPointTwice(int maxPoints) {
        for (long seed = 1; seed <= 20; seed++) {
            FakeRuns.Evaluator evaluator = new FakeRuns.Evaluator(U_SHAPED);

            TuneResult result = new AnnealingSearch(
                            annealing(seed, maxPoints, TEN_MS, TWENTY_MS, FIFTY_MS), evaluator, QUIET)
                    .run();

            assertThat(result.points()).as("seed %d", seed).hasSizeBetween(1, maxPoints);
            assertThat(pointsOf(result)).as("seed %d", seed).doesNotHaveDuplicates();
            assertThat(evaluator.asked)
                    .extracting(a -> a.periodUs() + "/" + a.budgetUs())
                    .as("every run at a point measured once, 2 runs each")
                    .hasSize(2 * result.points().size());
            assertThat(result.stoppedEarly()).isFalse();
        }
    }

    @Test
    void itFindsTheLowestShareOnAMonotoneSurfaceWithAKnownAnswer() {
        for (long seed = 1; seed <= 20; seed++) {
            TuneResult result = new AnnealingSearch(
                            annealing(seed, 60, TEN_MS, TWENTY_MS, FIFTY_MS), new FakeRuns.Evaluator(U_SHAPED), QUIET)
                    .run();

            // 25% of 20 ms is 5000 us, on the lattice (1000 + 20 x 200); 4800 us below it fails.
            assertThat(result.best()).as("seed %d", seed).hasValueSatisfying(best -> {
                assertThat(best.range()).isEqualTo(TWENTY_MS);
                assertThat(best.status()).isEqualTo(Status.FOUND);
                assertThat(best.smallestPassingUs()).isEqualTo(5_000);
                assertThat(best.largestFailingUs()).isEqualTo(4_800);
            });
            // Every budget tried lies on its period's lattice and got the verdict the surface gives it.
            for (TriedPoint p : result.points()) {
                SearchRange range = List.of(TEN_MS, TWENTY_MS, FIFTY_MS).stream()
                        .filter(r -> r.periodUs() == p.periodUs())
                        .findFirst()
                        .orElseThrow();
                assertThat(range.latticeBudget(range.stepAtOrAbove(p.budgetUs())))
                        .isEqualTo(p.budgetUs());
                assertThat(p.verdict().passed()).isEqualTo(U_SHAPED.meets(p.budgetUs(), p.periodUs(), 1));
            }
        }
    }

    @Test
    void withPointsEnoughItLocatesEveryPeriodsBoundaryAndStopsByItself() {
        TuneResult result = new AnnealingSearch(
                        annealing(3, 1_000, TEN_MS, TWENTY_MS), new FakeRuns.Evaluator(U_SHAPED), QUIET)
                .run();

        assertThat(result.periods())
                .extracting(PeriodOutcome::status, PeriodOutcome::smallestPassingUs, PeriodOutcome::largestFailingUs)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(Status.FOUND, 4_000L, 3_900L),
                        org.assertj.core.groups.Tuple.tuple(Status.FOUND, 5_000L, 4_800L));
        // Far fewer than the 96 + 96 budgets: monotonicity implies the rest.
        assertThat(result.points()).hasSizeLessThan(60);
    }

    @Test
    void theSameSeedGivesTheSamePointsAndAnotherSeedOthers() {
        List<List<String>> bySeed = new ArrayList<>();
        for (long seed : new long[] {42, 42, 43}) {
            bySeed.add(pointsOf(new AnnealingSearch(
                            annealing(seed, 15, TEN_MS, TWENTY_MS, FIFTY_MS), new FakeRuns.Evaluator(U_SHAPED), QUIET)
                    .run()));
        }

        assertThat(bySeed.get(1)).isEqualTo(bySeed.get(0));
        assertThat(bySeed.get(2)).isNotEqualTo(bySeed.get(0));
    }

    @Test
    void aPeriodWhoseUpperBoundFailsPassesNothingAndAPeriodNeverReachedStaysOpen() {
        FakeRuns.Model onlyTwenty = (budget, period, rep) -> period == 20_000 && budget >= 5_000;
        TuneResult result = new AnnealingSearch(
                        annealing(1, 200, TEN_MS, TWENTY_MS), new FakeRuns.Evaluator(onlyTwenty), QUIET)
                .run();

        PeriodOutcome tenMs = result.periods().get(0);
        assertThat(tenMs.smallestPassingUs()).isNull();
        assertThat(tenMs.status()).isIn(Status.NONE_PASSES, Status.OPEN);
        assertThat(result.best()).get().extracting(p -> p.range().periodUs()).isEqualTo(20_000L);
    }

    @Test
    void anInterruptionReportsThePointsSoFarAndNoRunStartsAfterIt() {
        List<TuneResult> snapshots = new ArrayList<>();
        AnnealingSearch[] search = new AnnealingSearch[1];
        PointEvaluator evaluator = (point, budget, period, rep) -> {
            if (point == 3 && rep == 2) {
                snapshots.add(search[0].interrupt());
            }
            return U_SHAPED.meets(budget, period, rep)
                    ? FakeRuns.run(budget, period, rep, 10, 30)
                    : FakeRuns.run(budget, period, rep, 80, 200);
        };
        search[0] = new AnnealingSearch(annealing(5, 30, TEN_MS, TWENTY_MS, FIFTY_MS), evaluator, QUIET);

        TuneResult result = search[0].run();

        assertThat(snapshots).singleElement().satisfies(sofar -> {
            assertThat(sofar.interrupted()).isTrue();
            assertThat(sofar.interruption())
                    .startsWith("interrupted while point 3 (")
                    .contains("run 2 of 2");
            assertThat(sofar.points()).extracting(TriedPoint::number).containsExactly(1, 2, 3);
            assertThat(sofar.points().get(2).verdict()).isEqualTo(Verdict.INTERRUPTED);
            assertThat(sofar.points().get(2).runs()).hasSize(1);
            // The first point is the middle period's upper bound, and it passed.
            assertThat(sofar.points().get(0).periodUs()).isEqualTo(20_000);
            assertThat(sofar.points().get(0).budgetUs()).isEqualTo(20_000);
            assertThat(sofar.periods()).hasSize(3);
        });
        assertThat(result.interrupted()).isTrue();
        assertThat(result.points()).extracting(TriedPoint::number).containsExactly(1, 2, 3);
        assertThat(result.interruption()).startsWith("interrupted before point 4");
        assertThat(result.periods()).allSatisfy(p -> assertThat(p.status())
                .isIn(
                        Status.INTERRUPTED,
                        Status.NOT_SEARCHED,
                        Status.FOUND,
                        Status.LOWER_BOUND_PASSES,
                        Status.NONE_PASSES));
    }

    @Test
    void aRunThatFailsStopsTheAnnealingWithWhatItHas() {
        PointEvaluator evaluator =
                (point, budget, period, rep) -> FakeRuns.run(budget, period, rep, 10, 30, point == 2 ? 1 : 0, 0);

        TuneResult result = new AnnealingSearch(annealing(1, 30, TEN_MS, TWENTY_MS), evaluator, QUIET).run();

        assertThat(result.failure()).contains("point 2").contains("exited with 1");
        assertThat(result.points()).extracting(TriedPoint::verdict).containsExactly(Verdict.PASS, Verdict.RUN_FAILED);
        assertThat(result.best()).isEmpty();
    }
}
