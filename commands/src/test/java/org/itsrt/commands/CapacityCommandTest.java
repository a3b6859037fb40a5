package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.itsrt.experiments.capacity.CapacityReport;
import org.itsrt.experiments.capacity.LagTrend;
import org.itsrt.experiments.capacity.LoadEvaluator;
import org.itsrt.experiments.capacity.LoadRun;
import org.itsrt.experiments.capacity.StreamRun;
import org.itsrt.records.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** What ./its capacity accepts, plans and writes, its runs modelled (no pipeline runs here). */
class CapacityCommandTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));

    record Outcome(int exit, String out, String err) {}

    private static Outcome capacity(LoadEvaluator evaluator, String... args) {
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
                .contains("capacity along the requests axis")
                .contains("a district of 4,800 detectors")
                .contains("linux-cgroup")
                .contains("p99 <= 50 ms")
                .contains("rates 250..8000 requests/s")
                .contains("workload: district")
                .contains("budget_us: 100000");
    }

    @Test
    void printsTheDetectorsAxisOfTheDefaultPlan() {
        Outcome outcome = capacity(null, "--axis", "detectors", "--print-plan");

        assertThat(outcome.err()).isEmpty();
        assertThat(outcome.exit()).isZero();
        assertThat(outcome.out())
                .contains("capacity along the detectors axis")
                .contains("a speed-up of 100")
                .contains("each point as long as the plan at 4,800 detectors")
                .contains("30s measured")
                .contains("for its readings -> predictions and its requests -> answers")
                .contains("districts of 1200..19200 detectors")
                .contains("detectors: 4800");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = ';',
            value = {
                "--min-rate 0; --min must be > 0 requests/s, got 0.0",
                "--min-rate 500 --max-rate 500; --max must be above --min (500.0), got 500.0",
                "--rate-resolution 0; --resolution must be > 0 requests/s, got 0.0",
                "--min 500 --max 400; --max must be above --min (500.0), got 400.0",
                "--axis volume; --axis must be requests or detectors, got volume",
                "--axis detectors --min 99; --min must be a whole number of detectors >= 100 (the smallest district "
                        + "./its generate makes), got 99.0",
                "--axis detectors --resolution 0.5; --resolution must be >= 1 detector, got 0.5",
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
        Path plan = plan(tmp, "{detectors: 120}");
        // the answers' p99 within 50 ms up to 1,500 requests/s, the predictions' up to 2,000; flat lag
        LoadEvaluator model = (point, rate, rep) -> run(
                stream(Workload.Stream.PREDICTIONS, rate <= 2_000 ? 20 : 90),
                stream(Workload.Stream.ROUTES, rate <= 1_500 ? 20 : 90));
        Path out = tmp.resolve("out");

        Outcome outcome = modelledSearch(model, plan, out);

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(outcome.out()).contains("a district of 120 detectors").contains("capacity: 1500 requests/s (");
        assertThat(Files.readString(out.resolve(CapacityReport.MARKDOWN))).contains("capacity: 1500 requests/s");
        List<String> csv = Files.readAllLines(out.resolve(CapacityReport.CSV));
        assertThat(csv).hasSizeGreaterThan(5);
        assertThat(csv.get(0)).startsWith("point,requests_per_s,");
        assertThat(out.resolve("plan.yaml")).content().contains("budget_us: 50000");
        assertThat(out.resolve(CapacityReport.PLOT + ".png")).isNotEmptyFile();

        Outcome again = capacity(model, "--plan", plan.toString(), "--out", out.toString());
        assertThat(again.exit()).isEqualTo(2);
        assertThat(again.err()).contains("already holds a capacity search");
    }

    @Test
    void onTheRequestsAxisReadingsThatFallBehindEndTheCapacityThoughTheAnswersKeepUp(@TempDir Path tmp)
            throws Exception {
        Path plan = plan(tmp, "{detectors: 120}");
        // the answers within 50 ms up to 4,000 requests/s; the predictions only up to 700
        LoadEvaluator model = (point, rate, rep) -> run(
                stream(Workload.Stream.PREDICTIONS, rate <= 700 ? 20 : 400),
                stream(Workload.Stream.ROUTES, rate <= 4_000 ? 20 : 90));
        Path out = tmp.resolve("out");

        Outcome outcome = modelledSearch(model, plan, out);

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(outcome.out()).contains("capacity: 700 requests/s (");
        assertThat(Files.readString(out.resolve(CapacityReport.MARKDOWN)))
                .contains("readings -> predictions p99 ms, each run");
    }

    @Test
    void aDetectorsSearchOfAPlanWithoutRequestsJudgesThePredictions(@TempDir Path tmp) throws Exception {
        Path plan = plan(tmp, "{detectors: 120, requests_per_second: 0}");
        // the predictions' p99 within 50 ms up to 1,500 detectors
        LoadEvaluator model = (point, detectors, rep) -> run(Workload.Stream.PREDICTIONS, detectors <= 1_500 ? 20 : 90);
        Path out = tmp.resolve("out");

        Outcome outcome = modelledSearch(model, plan, out, "--axis", "detectors");

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(outcome.out())
                .contains("capacity along the detectors axis")
                .contains("no route requests")
                .contains("capacity: 1500 detectors (1550 failed)");
        assertThat(Files.readString(out.resolve(CapacityReport.MARKDOWN)))
                .contains("# Capacity: detectors of the district within the SLO")
                .contains("| point | detectors | runs | met | readings -> predictions p99 ms, each run ");
        assertThat(Files.readAllLines(out.resolve(CapacityReport.CSV)).get(0)).startsWith("point,detectors,");
        assertThat(out.resolve("plan.yaml")).content().contains("requests_per_second: 0.0");
    }

    /** A district plan of {@code district} under half of two CPUs. */
    private static Path plan(Path tmp, String district) throws Exception {
        return Files.writeString(
                tmp.resolve("plan.yaml"),
                "load: {workload: district, district: " + district + "}\n"
                        + "budget: {backend: linux-cgroup, vcpus: 2, budget_us: 50000, period_us: 100000}\n");
    }

    /** A search of {@code plan} over modelled runs into {@code out}: 200..3,200 to within 50, one run a point. */
    private static Outcome modelledSearch(LoadEvaluator model, Path plan, Path out, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of(
                "--plan",
                plan.toString(),
                "--min",
                "200",
                "--max",
                "3200",
                "--resolution",
                "50",
                "--repetitions",
                "1"));
        args.addAll(List.of("--out", out.toString()));
        args.addAll(List.of(more));
        return capacity(model, args.toArray(String[]::new));
    }

    @Test
    void theDetectorsAxisRefusesADistrictReadFromFiles(@TempDir Path tmp) throws Exception {
        Path plan = Files.writeString(
                tmp.resolve("plan.yaml"), "load: {workload: district, district: {detectors: 120, dir: district-7}}\n");

        Outcome outcome = capacity(null, "--axis", "detectors", "--plan", plan.toString(), "--print-plan");

        assertThat(outcome.exit()).isEqualTo(2);
        assertThat(outcome.err().strip())
                .startsWith("its-capacity: load.district.dir: --axis detectors sizes a generated district, so it "
                        + "takes a plan without a district folder, got ")
                .doesNotContain("\n");
    }

    /** A modelled run judged by one stream, its lag flat. */
    private static LoadRun run(Workload.Stream stream, double p99Ms) {
        return run(stream(stream, p99Ms));
    }

    private static LoadRun run(StreamRun... streams) {
        return new LoadRun(0, List.of(streams), null);
    }

    private static StreamRun stream(Workload.Stream stream, double p99Ms) {
        return new StreamRun(stream, p99Ms, 1_000, 0, new LagTrend(0.2, 15));
    }
}
