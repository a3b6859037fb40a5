package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.itsrt.pipeline.plan.DistrictPlan;
import org.itsrt.pipeline.plan.LoadPlan;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.pipeline.plan.RunPlanYaml;
import org.itsrt.pipeline.plan.Workload;
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
            CommandLine cli = new CommandLine(new DemoCommand());
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
                .contains("--workload (load.workload) must be study or district, got 'city'");
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
            {"engine=bogus", "--engine"},
            {"nosuchoption=1", "--nosuchoption: unknown option"},
            {"deadline-ms=-4", "--deadline-ms"},
            {"model=" + dir.resolve("nonexistent"), "--model: " + dir.resolve("nonexistent") + ": not a directory"}
        };
        for (String[] option : bad) {
            Printed printed = demo("--print-plan", "--job-arg", option[0]);
            assertThat(printed.exit()).as(option[0]).isEqualTo(2);
            assertThat(printed.out())
                    .as(option[0] + ": nothing printed as a plan")
                    .isEmpty();
            assertThat(printed.err())
                    .as(option[0])
                    .contains("--job-arg (job.options): " + option[1])
                    .doesNotContain("\tat ");

            Path run = dir.resolve("run");
            Printed ran = demo("--job-arg", option[0], "--out", run.toString());
            assertThat(ran.exit()).as(option[0]).isEqualTo(2);
            assertThat(ran.err()).as(option[0]).contains("--job-arg (job.options): " + option[1]);
            assertThat(ran.out())
                    .as(option[0] + ": no broker or cluster started")
                    .doesNotContain("its-demo:");
            assertThat(run).as(option[0]).doesNotExist();
        }
    }
}
