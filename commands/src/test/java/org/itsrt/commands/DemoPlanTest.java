package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.itsrt.pipeline.plan.DistrictPlan;
import org.itsrt.pipeline.plan.LoadPlan;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.pipeline.plan.RunPlanYaml;
import org.itsrt.records.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code --print-plan} and {@code --plan FILE}: the options as a plan, a plan as the options' base. */
class DemoPlanTest {

    /** What {@code ./its demo ARGS} prints to standard output, and its exit code. */
    private record Printed(int exit, String out, String err) {}

    private static Printed demo(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            CommandLine cli = Commands.commandLine(new DemoCommand());
            cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
            exit = cli.execute(args);
        } finally {
            System.setOut(oldOut);
        }
        return new Printed(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theDistrictsOptionsSetItsBlockAndTheStudysRefuseThem() {
        Printed printed = demo(
                "--print-plan",
                "--workload",
                "district",
                "--detectors",
                "150",
                "--seed",
                "7",
                "--requests",
                "30",
                "--speedup",
                "300",
                "--quick");

        assertThat(printed.exit()).as(printed.err()).isZero();
        LoadPlan load = RunPlanYaml.parse(printed.out(), "printed").load();
        assertThat(load.workload()).isEqualTo(Workload.DISTRICT);
        assertThat(load.district())
                .isEqualTo(DistrictPlan.builder()
                        .detectors(150)
                        .seed(7)
                        .requestsPerSecond(30)
                        .build());
        // --quick at 1 reading/s on 150 detectors: 30 s measured, 900 requests in that time.
        assertThat(load.records()).isEqualTo(4_500);
        assertThat(load.requestRecords()).isEqualTo(900);

        Printed study = demo("--print-plan", "--requests", "30");
        assertThat(study.exit()).isEqualTo(2);
        assertThat(study.err()).contains("--requests (load.district.requests_per_second) is for --workload district");
        assertThat(demo("--print-plan", "--workload", "city").err())
                .isEqualTo("its-demo: Invalid value for option '--workload': unknown workload 'city', expected one of "
                        + "study, district" + System.lineSeparator());
        assertThat(demo("--print-plan", "--workload", "district", "--with-floor")
                        .err())
                .contains("for the district workload");
    }

    @Test
    void printPlanPrintsWhatTheOptionsMakeAndStartsNothing(@TempDir Path dir) {
        Path run = dir.resolve("run");
        Printed printed = demo(
                "--print-plan",
                "--quick",
                "--rate",
                "5",
                "--job-arg",
                "engine=linear",
                "--flink",
                "child",
                "--out",
                run.toString());

        assertThat(printed.exit()).as(printed.err()).isZero();
        RunPlan plan = RunPlanYaml.parse(printed.out(), "printed");
        // --quick at 5 records/s on six detectors: 30 s measured, 10 s of warm-up, in records.
        assertThat(plan.load().records()).isEqualTo(900);
        assertThat(plan.load().warmupRecords()).isEqualTo(300);
        assertThat(plan.job().options()).containsEntry("engine", "linear");
        assertThat(plan.stack().flink().mode().yamlName()).isEqualTo("child");
        assertThat(plan.output().dir()).isEqualTo(run);
        assertThat(run).doesNotExist();
    }

    @Test
    void aSpeedupIsPlannedAsTheRateItStandsFor() {
        // 300 s / 600 = 0.5 s between a detector's records: 2 records/s, held as the rate alone.
        Printed printed = demo("--print-plan", "--speedup", "600");
        assertThat(printed.exit()).as(printed.err()).isZero();
        assertThat(printed.out()).contains("rate_hz: 2").doesNotContain("speedup");
        assertThat(RunPlanYaml.parse(printed.out(), "printed").load().rateHz()).isEqualTo(2.0);

        Printed both = demo("--print-plan", "--rate", "2", "--speedup", "600");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("--rate=HZ, --speedup=X are mutually exclusive (specify only one)");
    }

    @Test
    void aPrintedPlanReadsBackAsTheSamePlanAndOptionsReplaceSingleFields(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("plan.yaml");
        Files.writeString(
                file,
                demo("--print-plan", "--quick", "--pin", "flink=0", "--job-arg", "engine=linear")
                        .out());

        Printed same = demo("--plan", file.toString(), "--print-plan");
        assertThat(same.out()).isEqualTo(Files.readString(file));

        RunPlan over = RunPlanYaml.parse(
                demo("--plan", file.toString(), "--print-plan", "--rate", "20", "--job-arg", "max-batch=64")
                        .out(),
                "printed");
        RunPlan base = RunPlanYaml.read(file);
        assertThat(over.load().rateHz()).isEqualTo(20);
        // The rest of the load as the file has it: the warm-up stays in records, the plan's unit.
        assertThat(over.load().records()).isEqualTo(base.load().records());
        assertThat(over.load().warmupRecords()).isEqualTo(base.load().warmupRecords());
        assertThat(over.job().options()).containsEntry("engine", "linear").containsEntry("max-batch", "64");
        assertThat(over.stack()).isEqualTo(base.stack());
    }

    @Test
    void aBadPlanFileIsRefusedInOneLineNamingTheKeyAndItsPlace(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("plan.yaml");
        Files.writeString(file, "load:\n  rate_hz: 10\n  warmup: 60s\n");
        Printed unknown =
                demo("--plan", file.toString(), "--out", dir.resolve("run").toString());
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains(file + ": line 3, column 3: load.warmup: unknown key");
        assertThat(dir.resolve("run")).doesNotExist();

        Files.writeString(file, "stack:\n  parallelism: 0\n");
        assertThat(demo("--plan", file.toString()).err())
                .contains(file + ": line 2, column 3: --parallelism (stack.parallelism) must be >= 1, got 0");
        assertThat(demo("--plan", dir.resolve("absent.yaml").toString()).err())
                .contains("absent.yaml: no such plan file");
    }

    @Test
    void aBadJobOptionIsRefusedInOneLineByPrintPlanAndBeforeARunStartsAnything(@TempDir Path dir) {
        String[][] bad = {
            {"engine=bogus", "its-demo: --job-arg engine (job.engine): ", "'bogus'"},
            {"nosuchoption=1", "its-demo: --job-arg nosuchoption (job.nosuchoption): ", "not an option of the job"},
            {"deadline-ms=-4", "its-demo: --job-arg deadline-ms (job.deadline_ms): ", "-4 is out of range 0..3600000"},
            {"parallelism=4", "its-demo: --job-arg parallelism (job.parallelism): ", "set by the run from stack."},
            {"model=" + dir.resolve("nonexistent"), "its-demo: --model (job.model): ", "not a directory"}
        };
        for (String[] option : bad) {
            Printed printed = demo("--print-plan", "--job-arg", option[0]);
            assertThat(printed.exit()).as(option[0]).isEqualTo(2);
            assertThat(printed.out())
                    .as(option[0] + ": nothing printed as a plan")
                    .isEmpty();
            assertThat(printed.err().lines()).as(option[0]).singleElement().satisfies(line -> assertThat(line)
                    .startsWith(option[1])
                    .contains(option[2]));

            Path run = dir.resolve("run");
            Printed ran = demo("--job-arg", option[0], "--out", run.toString());
            assertThat(ran.exit()).as(option[0]).isEqualTo(2);
            assertThat(ran.err().lines()).as(option[0]).singleElement().satisfies(line -> assertThat(line)
                    .startsWith(option[1])
                    .contains(option[2]));
            assertThat(ran.out())
                    .as(option[0] + ": no broker or cluster started")
                    .doesNotContain("its-demo:");
            assertThat(run).as(option[0]).doesNotExist();
        }
    }

    @Test
    void jobOptionsAreTypedKeysOfThePlansJobRefusedWhereTheFileHasThem(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("plan.yaml");
        Files.writeString(file, "job:\n  engine: kernel\n  deadline_ms: 20\n  degrade: true\n");
        Printed printed = demo("--plan", file.toString(), "--print-plan", "--job-arg", "max-batch=8");
        assertThat(printed.exit()).as(printed.err()).isZero();
        RunPlan plan = RunPlanYaml.parse(printed.out(), "printed");
        assertThat(plan.job().options())
                .containsExactly(
                        Map.entry("engine", "kernel"),
                        Map.entry("deadline-ms", "20"),
                        Map.entry("degrade", "true"),
                        Map.entry("max-batch", "8"));
        assertThat(printed.out()).contains("deadline_ms: 20\n", "degrade: true\n", "max_batch: 8\n");

        String[][] bad = {
            {
                "job:\n  engine: kernel\n  deadline_ms: soon\n",
                "line 3, column 3: --job-arg deadline-ms (job.deadline_ms): not a whole number: 'soon'"
            },
            {
                "job:\n  deadline-ms: 5\n",
                "line 2, column 3: --job-arg deadline-ms (job.deadline_ms): a plan spells it deadline_ms"
            },
            {"job:\n  enigne: kernel\n", "line 2, column 3: --job-arg enigne (job.enigne): unknown key"},
            {
                "job:\n  options: {degrade: \"true\"}\n",
                "line 2, column 3: job.options: job options are keys of job: itself, e.g. job: {degrade: true}"
            },
            {
                "job:\n  input_topic: mine\n",
                "line 2, column 3: --job-arg input-topic (job.input_topic): is set by the run"
            }
        };
        for (String[] text : bad) {
            Files.writeString(file, text[0]);
            Printed refused = demo("--plan", file.toString(), "--print-plan");
            assertThat(refused.exit()).as(text[0]).isEqualTo(2);
            assertThat(refused.err().lines())
                    .as(text[0])
                    .singleElement()
                    .asString()
                    .contains(file + ": " + text[1]);
        }
    }
}
