package org.itsrt.experiments.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.itsrt.experiments.tune.FakeRuns.settings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.itsrt.experiments.report.TuneReport;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The out folder of a search, from runs a test chooses. */
class TuneReportTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));

    @Test
    void theReportNamesTheAnswerEveryRunAndTheNoise(@TempDir Path out) throws Exception {
        SearchRange range = new SearchRange(100_000, 1_000, 100_000, 1_000);
        BudgetSearch.Settings settings = settings(2, 4, range);
        TuneResult result = new BudgetSearch(
                        settings,
                        new FakeRuns.Evaluator(
                                (budget, period, rep) -> budget == 50_500 ? rep % 2 == 1 : budget >= 60_000),
                        new BudgetSearch.Listener() {})
                .run();
        Path baseFile = ROOT.resolve("experiments/tune-cgroup.yaml");
        ExperimentSpec base = ExperimentSpec.read(baseFile);

        String summary = TuneReport.write(out, base, baseFile, settings, result, Map.of("CPU", "test"));

        long passing = result.best().orElseThrow().smallestPassingUs();
        assertThat(summary).contains("Smallest budget that meets the SLO: " + passing + " us every 100000 us");
        String md = Files.readString(out.resolve(TuneReport.MARKDOWN));
        assertThat(md)
                .contains(summary.strip())
                .contains("budgets 1000..100000 us every 100000 us to within 1000 us")
                .contains("- Noisy: point 2 (50500 / 100000 us): 2 of 4 runs met the SLO")
                .contains("- Not monotonic: at 50500 / 100000 us 2 of 4 run(s) met the SLO, although at the larger "
                        + result.periods().get(0).largestFailingUs() + " us 2 of 2 missed it")
                .contains("| 2 | 50500 / 100000 | 50.50% | 1 |")
                .contains("noisy: fail (2 of 4)")
                .contains("latency-vs-budget.png")
                .contains("| CPU | test |");
        for (TriedPoint p : result.points()) {
            assertThat(md).contains("| " + p.number() + " | " + p.budgetUs() + " / 100000 |");
        }

        List<String> csv = Files.readAllLines(out.resolve(TuneReport.CSV));
        int runs = result.points().stream().mapToInt(p -> p.runs().size()).sum();
        assertThat(csv).hasSize(1 + runs);
        assertThat(csv.get(0))
                .startsWith("point,point_verdict,utilization,met_slo,row,budget_us,period_us,repetition,");
        assertThat(csv).filteredOn(l -> l.startsWith("2,noisy_fail,0.505000,")).hasSize(4);
        assertThat(csv.get(1)).startsWith("1,pass,1.000000,true,\"100000/100000\",100000,100000,1,0,");
        assertThat(out.resolve(TuneReport.PLOT + ".png")).isNotEmptyFile();
    }

    @Test
    void aSearchWhoseUpperBoundFailsSaysSoAndDrawsNoCurve(@TempDir Path out) throws Exception {
        SearchRange range = new SearchRange(100_000, 6_250, 100_000, 1_000);
        BudgetSearch.Settings settings = settings(2, 4, range);
        TuneResult result = new BudgetSearch(
                        settings, new FakeRuns.Evaluator((b, p, r) -> false), new BudgetSearch.Listener() {})
                .run();
        Path baseFile = ROOT.resolve("experiments/tune-cgroup.yaml");

        String summary = TuneReport.write(out, ExperimentSpec.read(baseFile), baseFile, settings, result, Map.of());

        assertThat(summary)
                .contains("No budget in the range meets the SLO")
                .contains("the upper bound 100000 us failed");
        assertThat(Files.readString(out.resolve(TuneReport.MARKDOWN)))
                .contains("| 100000 us | 6250..100000 us |")
                .contains("none passes")
                .contains("No point's runs disagreed");
        assertThat(Files.readAllLines(out.resolve(TuneReport.CSV))).hasSize(3);
        assertThat(out.resolve(TuneReport.PLOT + ".png")).doesNotExist();
    }

    @Test
    void theFrontierOfATwoPeriodSearchHoldsEachPeriodsBracketAndTheDominatedPeriod(@TempDir Path out) throws Exception {
        SearchRange longPeriod = new SearchRange(100_000, 1_000, 100_000, 1_000);
        SearchRange shortPeriod = new SearchRange(10_000, 1_000, 10_000, 100);
        BudgetSearch.Settings settings = settings(2, 4, longPeriod, shortPeriod);
        // 30% of a CPU with the long period, 20% with the short one.
        TuneResult result = new BudgetSearch(
                        settings,
                        new FakeRuns.Evaluator(
                                (budget, period, rep) -> budget >= (period == 100_000 ? 0.30 : 0.20) * period),
                        new BudgetSearch.Listener() {})
                .run();
        Path baseFile = ROOT.resolve("experiments/tune-cgroup.yaml");

        TuneReport.write(out, ExperimentSpec.read(baseFile), baseFile, settings, result, Map.of());

        // Bisection: 100000, 50500, 25750, 38125, 31937, 28843, 30390, 29616 us; 10000, 5500, 3250, 2125,
        // 1562, 1843, 1984, 2054 us. Shortest period first.
        assertThat(Files.readAllLines(out.resolve(TuneReport.FRONTIER_CSV)))
                .containsExactly(
                        "period_us,budget_us,cpu_share,failed_below_us,runs,status",
                        "10000,2054,0.205400,1984,16,found",
                        "100000,30390,0.303900,29616,16,found");
        String md = Files.readString(out.resolve(TuneReport.MARKDOWN));
        assertThat(md)
                .contains("## Frontier")
                .contains(
                        "| 10000 us | 1000..10000 us | 100 us | 8 | 16 | 2054 us | 20.54% | 1984 us | found | chosen |")
                .contains("| 100000 us | 1000..100000 us | 1000 us | 8 | 16 | 30390 us | 30.39% | 29616 us | found | "
                        + "dominated by 10000 us |")
                .contains("Dominated: 100000 us (30.39%; 10000 us passed at 20.54%).")
                .contains("Searched by noise-aware bisection of the budget, one period at a time")
                .contains("![the frontier](frontier.png)");
        assertThat(out.resolve(TuneReport.FRONTIER_PLOT + ".png")).isNotEmptyFile();
    }

    @Test
    void anAnnealingsReportNamesItsStrategyAndAnOpenBracket(@TempDir Path out) throws Exception {
        SearchRange longPeriod = new SearchRange(100_000, 10_000, 100_000, 1_000);
        SearchRange shortPeriod = new SearchRange(10_000, 1_000, 10_000, 100);
        BudgetSearch.Settings settings = settings(1, 1, longPeriod, shortPeriod).with(SearchStrategy.annealing(3, 4));
        TuneResult result = new AnnealingSearch(
                        settings,
                        new FakeRuns.Evaluator((budget, period, rep) -> budget >= 0.25 * period),
                        new BudgetSearch.Listener() {})
                .run();
        Path baseFile = ROOT.resolve("experiments/tune-cgroup.yaml");

        String summary = TuneReport.write(out, ExperimentSpec.read(baseFile), baseFile, settings, result, Map.of());

        assertThat(result.points()).hasSizeLessThanOrEqualTo(4);
        String md = Files.readString(out.resolve(TuneReport.MARKDOWN));
        assertThat(md).contains("Searched by simulated annealing over (period, budget), seed 3, at most 4 points");
        // Four points cannot close both brackets at this resolution: what passed is an upper bound.
        assertThat(result.periods()).anyMatch(p -> p.status() == TuneResult.Status.OPEN);
        assertThat(md).contains("| open |");
        if (result.best().isPresent() && result.best().get().status() == TuneResult.Status.OPEN) {
            assertThat(summary).contains("the search ended before a failing budget within the resolution");
        }
        assertThat(Files.readAllLines(out.resolve(TuneReport.FRONTIER_CSV))).hasSize(3);
    }
}
