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
}
