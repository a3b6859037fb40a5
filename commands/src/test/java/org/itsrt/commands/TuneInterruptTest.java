package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.itsrt.experiments.report.TuneReport;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.spec.ExperimentSpec.Row;
import org.itsrt.experiments.tune.PointEvaluator;
import org.itsrt.pipeline.plan.BudgetPlan;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.scheduling.budget.Reservation;
import org.itsrt.scheduling.linux.BudgetLedger;
import org.itsrt.scheduling.linux.LinuxBackends;
import org.itsrt.scheduling.linux.Proc;
import org.itsrt.scheduling.linux.SchedulingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Ctrl-C during {@code ./its tune}: a real SIGINT to a child JVM running the tune command, whose
 * points are measured by a stand-in for the pipeline (two quick points that pass, then one that
 * holds a real cgroup budget, where root and cgroups allow, and never ends).
 */
class TuneInterruptTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));

    /**
     * The child: ./its tune with points 1 and 2 passing at once and point 3 running until interrupted.
     * Arguments: the process to put point 3's budget on (0: none), then the tune's, ending with --out DIR.
     */
    public static final class TuneUntilInterrupted {
        public static void main(String[] args) {
            long victim = Long.parseLong(args[0]);
            Path out = Path.of(args[args.length - 1]);
            PointEvaluator points = (point, budgetUs, periodUs, repetition) -> {
                if (point < 3) {
                    return passing(out, budgetUs, periodUs, repetition);
                }
                if (victim > 0) {
                    // As a run does once the job is live: the budget stays until the run ends or the JVM exits.
                    LinuxBackends.cgroup(new Reservation(budgetUs, periodUs), 2, null)
                            .apply(victim);
                }
                System.out.println("measuring point " + point);
                System.out.flush();
                Thread.sleep(600_000);
                throw new IllegalStateException("not interrupted");
            };
            String[] tuneArgs = java.util.Arrays.copyOfRange(args, 1, args.length);
            System.exit(new CommandLine(new TuneCommand(points)).execute(tuneArgs));
        }

        private static RowRun passing(Path out, long budgetUs, long periodUs, int repetition) {
            Row row = new Row(
                    budgetUs + "/" + periodUs,
                    RunPlan.builder()
                            .budget(BudgetPlan.builder()
                                    .backend(BudgetPlan.Backend.LINUX_CGROUP)
                                    .budgetUs(budgetUs)
                                    .periodUs(periodUs))
                            .build());
            RowRun.Percentiles steady = new RowRun.Percentiles(600, 5, 8, 10, 20, 30);
            return new RowRun(
                    row,
                    repetition,
                    out.resolve("points").resolve(budgetUs + "_" + periodUs).resolve("rep-" + repetition),
                    0,
                    steady,
                    steady,
                    0.0,
                    0,
                    Map.of("throttled_share", 0.1));
        }
    }

    @Test
    void ctrlCWritesTheReportOfThePointsMeasuredMarkedInterruptedAndRestoresTheBudget(@TempDir Path dir)
            throws Exception {
        assumeFalse(
                sigintIgnored(),
                "SIGINT is ignored in this process (as in anything started with & from a shell without job "
                        + "control), and so in the tune it starts, which the JVM then never lets Ctrl-C reach");
        Path out = dir.resolve("tune");
        Path state = dir.resolve("state");
        Process victim = new ProcessBuilder("sleep", "300").start();
        boolean budgeted = cgroupsUsable(victim.pid());
        Map<String, String> cgroupBefore = Proc.SYSTEM.cgroups(victim.pid());
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true",
                "-cp",
                System.getProperty("java.class.path"),
                TuneUntilInterrupted.class.getName(),
                budgeted ? Long.toString(victim.pid()) : "0",
                ROOT.resolve("experiments/linux-budgets-quick.yaml").toString(),
                "--resolution-us",
                "10000",
                "--repetitions",
                "1",
                "--max-repetitions",
                "1",
                "--out",
                out.toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(dir.resolve("tune.err").toFile());
        builder.environment().put(BudgetLedger.DIR_ENV, state.toString());
        Process tune = builder.start();
        try {
            BufferedReader stdout =
                    new BufferedReader(new InputStreamReader(tune.getInputStream(), StandardCharsets.UTF_8));
            StringBuilder seen = new StringBuilder();
            String line;
            while ((line = stdout.readLine()) != null && !line.equals("measuring point 3")) {
                seen.append(line).append('\n');
            }
            assertThat(line).as("the child's output: %s%s", seen, stderr(dir)).isEqualTo("measuring point 3");
            if (budgeted) {
                assertThat(Proc.SYSTEM.cgroups(victim.pid()))
                        .as("the budget is on")
                        .isNotEqualTo(cgroupBefore);
            }

            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(tune.pid())).start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(tune.waitFor(60, TimeUnit.SECONDS)).as(stderr(dir)).isTrue();

            assertThat(tune.exitValue()).as("exit on SIGINT").isEqualTo(130);
            String md = Files.readString(out.resolve(TuneReport.MARKDOWN));
            assertThat(md)
                    .contains("(interrupted: the search did not finish)")
                    .contains("**Interrupted (Ctrl-C)**: interrupted while point 3 (29687/100000 us) was being "
                            + "measured, run 1 of 1; the search did not finish")
                    .contains("| 100000 / 100000")
                    .contains("| 53125 / 100000")
                    .contains("| 29687 / 100000")
                    .contains("interrupted when 53125 us had passed");
            List<String> csv = Files.readAllLines(out.resolve(TuneReport.CSV));
            assertThat(csv).hasSize(3);
            assertThat(csv.get(1)).startsWith("1,pass,");
            assertThat(csv.get(2)).startsWith("2,pass,");
            assertThat(out.resolve(TuneReport.PLOT + ".png")).exists();
            assertThat(stderr(dir))
                    .contains("its-tune: interrupted while point 3")
                    .contains("2 point(s) measured");
            if (budgeted) {
                assertThat(Proc.SYSTEM.cgroups(victim.pid()))
                        .as("the budget is restored")
                        .isEqualTo(cgroupBefore);
            }
            assertThat(new BudgetLedger(state, Proc.SYSTEM).records()).isEmpty();
        } finally {
            tune.destroyForcibly();
            victim.destroyForcibly();
        }
    }

    private static String stderr(Path dir) {
        try {
            return "\nstderr:\n" + Files.readString(dir.resolve("tune.err"));
        } catch (java.io.IOException e) {
            return "";
        }
    }

    /** Whether this process may put a cgroup budget on another one (root and cgroups); else the test goes on without. */
    /**
     * Whether SIGINT is ignored here (bit 1 of {@code SigIgn} in /proc/self/status): children inherit
     * that, and HotSpot leaves an ignored SIGINT ignored instead of running its shutdown hooks.
     */
    private static boolean sigintIgnored() throws java.io.IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                long ignored = Long.parseUnsignedLong(
                        line.substring("SigIgn:".length()).trim(), 16);
                return (ignored & (1L << (2 - 1))) != 0;
            }
        }
        return false;
    }

    private static boolean cgroupsUsable(long pid) {
        try (var probe =
                LinuxBackends.cgroup(new Reservation(50_000, 100_000), 1, null).apply(pid)) {
            return probe != null;
        } catch (SchedulingException e) {
            return false;
        }
    }
}
