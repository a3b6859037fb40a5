package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.itsrt.experiments.capacity.CapacityReport;
import org.itsrt.experiments.capacity.LagTrend;
import org.itsrt.experiments.capacity.RateEvaluator;
import org.itsrt.experiments.capacity.RateRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** What ./its capacity accepts, plans and writes, its runs modelled (no pipeline runs here). */
class CapacityCommandTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));

    record Outcome(int exit, String out, String err) {}

    private static Outcome capacity(RateEvaluator evaluator, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new CapacityCommand(evaluator));
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    @Test
    void printsTheDefaultPlanAndItsSearchWithoutRunning() {
        Outcome outcome = capacity(null, "--print-plan");

        assertThat(outcome.err()).isEmpty();
        assertThat(outcome.exit()).isZero();
        assertThat(outcome.out())
                .contains("a district of 4,800 detectors")
                .contains("linux-cgroup")
                .contains("p99 <= 50 ms")
                .contains("rates 250..8000 requests/s")
                .contains("workload: district")
                .contains("budget_us: 100000");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = ';',
            value = {
                "--min-rate 0; --min-rate must be > 0 requests/s, got 0.0",
                "--min-rate 500 --max-rate 500; --max-rate must be above --min-rate (500.0), got 500.0",
                "--slo-p99 0; --slo-p99 must be > 0 ms, got 0.0",
                "--lag-tolerance -1; --lag-tolerance must be >= 0 ms/s, got -1.0",
                "--repetitions 3 --max-repetitions 2; --max-repetitions must be >= --repetitions (3), got 2",
                "--workload study; load.district is for the district workload: set load.workload: district"
            })
    void refusesABadSearchInOneLineNamingTheOption(String args, String message) {
        Outcome outcome = capacity(null, (args + " --print-plan").split(" "));

        assertThat(outcome.exit()).isEqualTo(2);
        assertThat(outcome.err().strip()).isEqualTo("its-capacity: " + message);
    }

    @Test
    void aSearchOverModelledRunsWritesItsFolderAndTheAnswer(@TempDir Path tmp) throws Exception {
        Path plan = Files.writeString(
                tmp.resolve("plan.yaml"),
                "load: {workload: district, district: {detectors: 120}}\n"
                        + "budget: {backend: linux-cgroup, vcpus: 2, budget_us: 50000, period_us: 100000}\n");
        // p99 within 50 ms up to 1,500 requests/s, flat lag throughout
        RateEvaluator model = (point, rate, rep) ->
                new RateRun(0, rate <= 1_500 ? 20 : 90, (long) rate * 15, 0, new LagTrend(0.2, 15), null);
        Path out = tmp.resolve("out");

        Outcome outcome = capacity(
                model,
                "--plan",
                plan.toString(),
                "--min-rate",
                "200",
                "--max-rate",
                "3200",
                "--rate-resolution",
                "50",
                "--repetitions",
                "1",
                "--out",
                out.toString());

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(outcome.out()).contains("a district of 120 detectors").contains("capacity: 1500 requests/s (");
        assertThat(Files.readString(out.resolve(CapacityReport.MARKDOWN))).contains("capacity: 1500 requests/s");
        List<String> csv = Files.readAllLines(out.resolve(CapacityReport.CSV));
        assertThat(csv).hasSizeGreaterThan(5);
        assertThat(out.resolve("plan.yaml")).content().contains("budget_us: 50000");
        assertThat(out.resolve(CapacityReport.PLOT + ".png")).isNotEmptyFile();

        Outcome again = capacity(model, "--plan", plan.toString(), "--out", out.toString());
        assertThat(again.exit()).isEqualTo(2);
        assertThat(again.err()).contains("already holds a capacity search");
    }
}
