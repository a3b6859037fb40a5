package org.itsrt.experiments.tune;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.itsrt.experiments.report.TuneReport;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interrupted report of an annealing: Ctrl-C's hook run while a point is measured writes the
 * report of the points so far, and the search's own report is then not written. (TuneInterruptTest
 * sends a real SIGINT to a bisection.)
 */
class ReportOnInterruptTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));

    @Test
    void ctrlCDuringAnAnnealingReportsThePointsMeasuredSoFar(@TempDir Path out) throws Exception {
        Path baseFile = ROOT.resolve("experiments/tune-cgroup.yaml");
        ExperimentSpec base = ExperimentSpec.read(baseFile);
        BudgetSearch.Settings settings = FakeRuns.settings(
                        1,
                        1,
                        new SearchRange(100_000, 10_000, 100_000, 1_000),
                        new SearchRange(20_000, 2_000, 20_000, 200))
                .with(SearchStrategy.annealing(9, 20));
        ReportOnInterrupt[] report = new ReportOnInterrupt[1];
        PointEvaluator evaluator = (point, budget, period, rep) -> {
            if (point == 4) {
                // Ctrl-C while point 4 is measured: the JVM runs the hook.
                report[0].hook.run();
            }
            return FakeRuns.run(budget, period, rep, budget >= 0.3 * period ? 10 : 80, 30);
        };
        StringWriter err = new StringWriter();
        TuneSearch search = TuneSearch.of(settings, evaluator, new BudgetSearch.Listener() {});
        report[0] = new ReportOnInterrupt(search, out, base, baseFile, settings, new PrintWriter(err, true));

        ReportOnInterrupt.Finished finished;
        try {
            finished = report[0].searchAndReport();
        } finally {
            Runtime.getRuntime().removeShutdownHook(report[0].hook);
        }

        assertThat(finished).as("the hook wrote the report").isNull();
        String md = Files.readString(out.resolve(TuneReport.MARKDOWN));
        assertThat(md)
                .contains("(interrupted: the search did not finish)")
                .contains("**Interrupted (Ctrl-C)**: interrupted while point 4 (")
                .contains("Searched by simulated annealing over (period, budget), seed 9, at most 20 points")
                .contains("## Frontier")
                .contains("| interrupted |");
        List<String> csv = Files.readAllLines(out.resolve(TuneReport.CSV));
        assertThat(csv).as("one line per run of the three points measured").hasSize(1 + 3);
        assertThat(Files.readAllLines(out.resolve(TuneReport.FRONTIER_CSV))).hasSize(1 + 2);
        assertThat(err.toString())
                .contains("its-tune: interrupted while point 4")
                .contains("3 point(s) measured");
    }
}
