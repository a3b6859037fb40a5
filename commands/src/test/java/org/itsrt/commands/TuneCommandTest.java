package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** What ./its tune accepts and plans, before anything runs (every call is a --dry-run). */
class TuneCommandTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));
    private static final String QUICK =
            ROOT.resolve("experiments/linux-budgets-quick.yaml").toString();

    record Outcome(int exit, String out, String err) {}

    private static Outcome tune(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new TuneCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--print-plan");
        int exit = cli.execute(all.toArray(String[]::new));
        return new Outcome(exit, out.toString(), err.toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = ';',
            value = {
                "--slo-p99 0; --slo-p99 must be > 0 ms, got 0.0",
                "--slo-max -5; --slo-max must be > 0 ms, got -5.0",
                "--min-budget-us 500; --min-budget-us must be >= 1000 us for linux-cgroup",
                "--min-budget-us 50000 --max-budget-us 40000; --min-budget-us 50000 must be below the upper bound 40000 us",
                "--max-budget-us 1000; --max-budget-us 1000 must be above the lower bound 1000 us (period 100000 us)",
                "--period-us 500; --period-us must be 1000..1000000 us for linux-cgroup, got 500",
                "--period-us 2000000; --period-us must be 1000..1000000 us for linux-cgroup, got 2000000",
                "--period-us 100000,100000; --period-us 100000 is given twice",
                "--period-us 1000; --period-us 1000 leaves no budgets to search: 1000..1000 us",
                "--period-us 10000 --max-budget-us 20000; --max-budget-us must be at most the period",
                "--resolution-us 0; --resolution-us must be >= 1, got 0",
                "--repetitions 0; --repetitions must be >= 1, got 0",
                "--repetitions 3 --max-repetitions 2; --max-repetitions must be >= --repetitions (3), got 2",
                "--records 0; --records (load.records) must be >= 1, got 0",
                "--warmup-records -1; --warmup-records (load.warmup_records) must be >= 0, got -1",
                "--warmup 2s --warmup-records 6; --warmup (load.warmup_records) and --warmup-records are mutually exclusive",
                "--strategy foo; --strategy must be bisection or annealing, got foo",
                "--strategy annealing --max-points 0; --max-points must be >= 1, got 0",
                "--max-points 5; --max-points and --search-seed choose an annealing's points: give them with "
                        + "--strategy annealing"
            })
    void aBadOptionIsRefusedByName(String options, String message) {
        List<String> args = new ArrayList<>(List.of(QUICK));
        args.addAll(List.of(options.split(" ")));

        Outcome outcome = tune(args.toArray(String[]::new));

        assertThat(outcome.exit()).as(outcome.err()).isEqualTo(2);
        assertThat(outcome.err()).contains("its-tune: " + message);
        assertThat(outcome.err().lines()).as("one line, no stack trace").hasSize(1);
        assertThat(outcome.out()).isEmpty();
    }

    @Test
    void annealingSearchesThePeriodsTogetherWithinItsPoints() {
        Outcome outcome = tune(
                QUICK,
                "--strategy",
                "annealing",
                "--search-seed",
                "7",
                "--max-points",
                "12",
                "--period-us",
                "100000,20000",
                "--max-budget-us",
                "20000",
                "--resolution-us",
                "1000");

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(outcome.out())
                .contains("period 100000 us: budgets 6250..20000 us in steps of 1000 us, 15 of them")
                .contains("period 20000 us: budgets 1000..20000 us in steps of 1000 us, 20 of them")
                .contains("points chosen by simulated annealing over (period, budget), seed 7, at most 12 points")
                .contains("at most 24 runs (2 per point");

        Outcome bisection = tune(QUICK);
        assertThat(bisection.out()).contains("points chosen by noise-aware bisection of the budget");
    }

    @Test
    void aBadWarmupTimeIsRefusedAsEveryDurationOptionIs() {
        List<String> args = new ArrayList<>(List.of(QUICK));
        args.addAll(List.of("--warmup", "5x"));

        Outcome outcome = tune(args.toArray(String[]::new));

        assertThat(outcome.exit()).isEqualTo(2);
        assertThat(outcome.err())
                .contains("Invalid value for option '--warmup': '5x' is not a duration; write e.g. 500ms, 30s, 1.5s");
        assertThat(outcome.out()).isEmpty();
    }

    @Test
    void pipelineInputsThatAreMissingAreRefusedBeforeAnythingRuns(@TempDir Path dir) {
        Path out = dir.resolve("tune");
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new TuneCommand());
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));

        int exit = cli.execute(
                QUICK,
                "--out",
                out.toString(),
                "--data",
                dir.resolve("none.csv").toString(),
                "--model",
                dir.resolve("no-model").toString(),
                "--job-jar",
                dir.resolve("none.jar").toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("its-tune: --job-jar: no such file: " + dir.resolve("none.jar"));
        assertThat(out).doesNotExist();

        // The job jar there, the readings still missing.
        StringWriter dataErr = new StringWriter();
        CommandLine data = new CommandLine(new TuneCommand());
        data.setOut(new PrintWriter(new StringWriter(), true));
        data.setErr(new PrintWriter(dataErr, true));
        int dataExit = data.execute(
                QUICK,
                "--out",
                out.toString(),
                "--data",
                dir.resolve("none.csv").toString(),
                "--job-jar",
                System.getProperty("itsrt.job.jar"));
        assertThat(dataExit).isEqualTo(2);
        assertThat(dataErr.toString()).contains("its-tune: --data: no such file: " + dir.resolve("none.csv"));
        assertThat(out).doesNotExist();
    }

    @Test
    void everyProblemIsNamedAtOnce() {
        Outcome outcome = tune(QUICK, "--slo-p99", "0", "--repetitions", "0", "--period-us", "50");

        assertThat(outcome.exit()).isEqualTo(2);
        assertThat(outcome.err())
                .contains("--slo-p99")
                .contains("--repetitions")
                .contains("--period-us");
    }

    @Test
    void backendsThatPutNoBudgetOnThisHostAreRefused(@TempDir Path dir) throws Exception {
        Outcome xen = tune(ROOT.resolve("experiments/study-rtds.yaml").toString());
        assertThat(xen.exit()).isEqualTo(2);
        assertThat(xen.err()).contains("backend xen-rtds").contains("linux-cgroup or linux-deadline");

        Path none = dir.resolve("baseline.yaml");
        Files.writeString(none, "name: baseline\nplan: {load: {records: 600}}\nrows:\n  - {label: baseline}\n");
        Outcome baseline = tune(none.toString());
        assertThat(baseline.exit()).isEqualTo(2);
        assertThat(baseline.err()).contains("backend none").contains("sets no budget");

        Outcome missing = tune(dir.resolve("nothing.yaml").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("no such experiment file");
    }

    @Test
    void rowsThatDisagreeOnCpusAreRefused(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("pinned.yaml");
        Files.writeString(
                file,
                """
                name: pinned
                plan:
                  load: {records: 600}
                  budget: {backend: linux-cgroup}
                rows:
                  - budget: {budget_us: 50000, period_us: 100000, cpus: "0"}
                  - budget: {budget_us: 10000, period_us: 100000, cpus: "1"}
                """);

        Outcome outcome = tune(file.toString());

        assertThat(outcome.exit()).isEqualTo(2);
        assertThat(outcome.err()).contains("rows: every point of a tune gets the rows' cpus, and they differ");
    }

    @Test
    void withoutAFileTheBundledBaseGivesTheSearchSpace() {
        String before = System.getProperty("itsrt.repo.root");
        System.setProperty("itsrt.repo.root", ROOT.toString());
        Outcome outcome;
        try {
            outcome = tune();
        } finally {
            if (before == null) {
                System.clearProperty("itsrt.repo.root");
            } else {
                System.setProperty("itsrt.repo.root", before);
            }
        }

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(outcome.out())
                .contains("tune tune-cgroup: backend linux-cgroup, 2 CPU(s)")
                .contains("p99 <= 30 ms, max <= 100 ms")
                .contains("7,200 records per run")
                .contains("1m10s warm-up (4,200 records), steady state from 0s")
                .contains("period 100000 us: budgets 6250..100000 us to within 1000 us, at most 9 points")
                .contains("cpu.max \"200000 100000\"")
                .contains("at most 18 runs (2 per point; up to 4");
    }

    @Test
    void theOptionsOverrideTheFile() {
        Outcome outcome = tune(
                QUICK,
                "--slo-p99",
                "12.5",
                "--slo-max",
                "40",
                "--period-us",
                "50000",
                "--period-us",
                "20000",
                "--min-budget-us",
                "2000",
                "--max-budget-us",
                "20000",
                "--resolution-us",
                "500",
                "--repetitions",
                "3",
                "--records",
                "1200",
                "--warmup",
                "10s");

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(outcome.out())
                .contains("p99 <= 12.5 ms, max <= 40 ms")
                .contains("1,200 records per run")
                .contains("10s warm-up (")
                .contains("records), steady state from 0s")
                .contains("period 50000 us: budgets 2000..20000 us to within 500 us, at most 8 points")
                .contains("period 20000 us: budgets 2000..20000 us to within 500 us, at most 8 points")
                .contains("at most 48 runs (3 per point; up to 4");
    }

    @Test
    void aFileWithSeveralPeriodsSearchesEachWithinItsRows() {
        Outcome budgets = tune(ROOT.resolve("experiments/linux-budgets.yaml").toString());
        assertThat(budgets.exit()).as(budgets.err()).isZero();
        assertThat(budgets.out())
                .contains("period 100000 us: budgets 6250..100000 us to within 1000 us")
                .contains("period 10000 us: budgets 1000..2500 us to within 100 us");

        Outcome deadline = tune(ROOT.resolve("experiments/linux-deadline.yaml").toString());
        assertThat(deadline.exit()).as(deadline.err()).isZero();
        assertThat(deadline.out())
                .contains("backend linux-deadline")
                .contains("period 10000 us: budgets 1000..3000 us to within 100 us")
                .contains("SCHED_DEADLINE runtime 3000 us")
                .contains("^(Source: |route)");
    }

    @Test
    void aDeadlineBudgetBelowTheKernelsMinimumRuntimeIsRefused() {
        Outcome outcome = tune(ROOT.resolve("experiments/linux-deadline.yaml").toString(), "--min-budget-us", "1");

        assertThat(outcome.exit()).isEqualTo(2);
        assertThat(outcome.err()).contains("--min-budget-us must be >= 2 us for linux-deadline");
    }
}
