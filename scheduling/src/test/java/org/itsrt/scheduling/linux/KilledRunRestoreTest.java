package org.itsrt.scheduling.linux;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.itsrt.scheduling.cli.BudgetCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A JVM killed with SIGKILL (no shutdown hook runs) leaves its budget in force; its record brings it
 * back: through the API, and through {@code its budget restore}. A budget whose JVM still runs is left
 * alone. Skipped without root, writable cgroups or SCHED_DEADLINE.
 */
class KilledRunRestoreTest {

    @TempDir
    Path state;

    /** Applies a budget to another process, says what it set, and holds it until killed. */
    public static final class ApplyAndHold {
        public static void main(String[] args) throws Exception {
            long victim = Long.parseLong(args[1]);
            if (args[0].equals("cgroup")) {
                CgroupReservation r = new CgroupBackend(
                                CgroupFs.detect(), "", "itsrt-test", new CgroupBandwidth(20_000, 100_000, null, null))
                        .apply(victim);
                System.out.println(r.group().cpuDir());
            } else {
                DeadlineReservation r = new DeadlineBackend(
                                new DeadlineParams(1_000_000, 10_000_000, 10_000_000), ThreadSelector.all())
                        .apply(victim);
                System.out.println(r.threads().get(0).tid());
            }
            System.out.flush();
            Thread.sleep(120_000);
        }
    }

    /** A child JVM holding a budget on {@code victim}, recording into this test's state folder. */
    private Process holder(String kind, long victim) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        ApplyAndHold.class.getName(),
                        kind,
                        Long.toString(victim)))
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put(BudgetLedger.DIR_ENV, state.toString());
        return builder.start();
    }

    private static String firstLine(Process p) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()));
        String line = out.readLine();
        assertThat(line).as("what the holder set").isNotNull();
        return line;
    }

    private static void kill9(Process p) throws Exception {
        p.destroyForcibly(); // SIGKILL on Linux: no shutdown hook runs
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
    }

    private static String quota(CgroupFs fs, Path dir) throws Exception {
        return fs instanceof CgroupV2
                ? Files.readString(dir.resolve("cpu.max")).strip()
                : Files.readString(dir.resolve("cpu.cfs_quota_us")).strip();
    }

    private CommandLine restoreCommand(StringWriter out, StringWriter err) {
        CommandLine cli = BudgetCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli;
    }

    @Test
    void aCgroupBudgetOfAKilledJvmStaysUntilItsRecordIsRestored() throws Exception {
        CgroupFs fs = Privileges.assumeCgroups();
        String key = fs.cpuHierarchy().procKey();
        Process victim = new ProcessBuilder("sleep", "120").start();
        // The victim starts in a group of its own, so that "back where it came from" is not the root.
        CgroupGroup origin = fs.create(
                "",
                "itsrt-origin-" + ProcessHandle.current().pid(),
                new CgroupBandwidth(90_000, 100_000, null, null),
                null);
        try {
            LinuxCgroupTest.awaitAlive(victim.pid());
            origin.attach(victim.pid());
            String before = Proc.SYSTEM.cgroups(victim.pid()).get(key);
            Path beforeDir = fs.cpuHierarchy().mount().resolve(before.replaceAll("^/+", ""));
            assertThat(beforeDir).isEqualTo(origin.cpuDir());
            String quotaBefore = quota(fs, beforeDir);
            Process holder = holder("cgroup", victim.pid());
            Path dir = Path.of(firstLine(holder));

            kill9(holder);

            // The leftover: the victim still held to 20% of a CPU, and the record beside it.
            assertThat(dir).exists();
            assertThat(quota(fs, dir)).isIn("20000", "20000 100000");
            assertThat(Proc.SYSTEM.cgroups(victim.pid()).get(key)).endsWith("/" + dir.getFileName());
            BudgetLedger ledger = new BudgetLedger(state, Proc.SYSTEM);
            assertThat(ledger.records())
                    .singleElement()
                    .satisfies(f -> assertThat(f.record().owner().pid()).isEqualTo(holder.pid()));

            List<LeftoverRestore.Outcome> outcomes =
                    new LeftoverRestore(ledger, CgroupIo.SYSTEM, new Chrt()).restoreDead();

            assertThat(outcomes).singleElement().satisfies(o -> {
                assertThat(o.failed()).as(o.error()).isFalse();
                assertThat(String.join("\n", o.lines()))
                        .contains(dir + " removed")
                        .contains("[" + victim.pid() + "] back to " + beforeDir);
            });
            assertThat(dir).doesNotExist();
            assertThat(Proc.SYSTEM.cgroups(victim.pid()).get(key)).isEqualTo(before);
            assertThat(quota(fs, beforeDir)).isEqualTo(quotaBefore);
            assertThat(quotaBefore).isIn("90000", "90000 100000");
            assertThat(ledger.records()).isEmpty();
            assertThat(state).isEmptyDirectory();
        } finally {
            victim.destroyForcibly();
            victim.waitFor(10, TimeUnit.SECONDS);
            origin.close();
        }
    }

    @Test
    void aDeadlineReservationOfAKilledJvmIsRestoredByTheRestoreCommand() throws Exception {
        Privileges.assumeDeadline();
        Process victim = new ProcessBuilder("sleep", "120").start();
        try {
            LinuxCgroupTest.awaitAlive(victim.pid());
            Process holder = holder("deadline", victim.pid());
            long tid = Long.parseLong(firstLine(holder));
            assertThat(tid).isEqualTo(victim.pid());

            kill9(holder);

            assertThat(Privileges.chrtP(tid)).contains("SCHED_DEADLINE").contains("1000000/10000000/10000000");
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int dry = restoreCommand(out, err).execute("restore", "--dry-run", "--state-dir", state.toString());
            assertThat(dry).isZero();
            assertThat(out.toString()).contains("would restore: ").contains("by process " + holder.pid());
            assertThat(Privileges.chrtP(tid)).as("a dry run changes nothing").contains("SCHED_DEADLINE");

            out.getBuffer().setLength(0);
            int exit = restoreCommand(out, err).execute("restore", "--state-dir", state.toString());

            assertThat(exit).as(err.toString()).isZero();
            assertThat(out.toString())
                    .contains("restored (left by process " + holder.pid() + "): thread " + tid)
                    .contains("SCHED_DEADLINE 1000000/10000000/10000000 ns back to SCHED_OTHER");
            assertThat(Privileges.chrtP(tid)).contains("SCHED_OTHER").doesNotContain("SCHED_DEADLINE");
            assertThat(state).isEmptyDirectory();

            out.getBuffer().setLength(0);
            assertThat(restoreCommand(out, err).execute("restore", "--state-dir", state.toString()))
                    .isZero();
            assertThat(out.toString()).contains("nothing to restore");
        } finally {
            victim.destroyForcibly();
        }
    }

    @Test
    void budgetApplyRestoresWhatAKilledRunLeftBeforeItApplies() throws Exception {
        CgroupFs fs = Privileges.assumeCgroups();
        String key = fs.cpuHierarchy().procKey();
        Process victim = new ProcessBuilder("sleep", "120").start();
        String property = System.getProperty(BudgetLedger.DIR_PROPERTY);
        try {
            LinuxCgroupTest.awaitAlive(victim.pid());
            String before = Proc.SYSTEM.cgroups(victim.pid()).get(key);
            Process holder = holder("cgroup", victim.pid());
            Path dir = Path.of(firstLine(holder));
            kill9(holder);
            assertThat(dir).exists();
            System.setProperty(BudgetLedger.DIR_PROPERTY, state.toString());
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();

            int exit = restoreCommand(out, err)
                    .execute("apply", "--backend", "none", "--pid", Long.toString(victim.pid()), "--for", "0.2s");

            assertThat(exit).as(err.toString()).isZero();
            assertThat(err.toString())
                    .contains("its budget apply: restored what killed process " + holder.pid() + " left: cgroup "
                            + fs.version() + " " + dir + " removed");
            assertThat(dir).doesNotExist();
            assertThat(Proc.SYSTEM.cgroups(victim.pid()).get(key)).isEqualTo(before);
            assertThat(state).isEmptyDirectory();
        } finally {
            if (property == null) {
                System.clearProperty(BudgetLedger.DIR_PROPERTY);
            } else {
                System.setProperty(BudgetLedger.DIR_PROPERTY, property);
            }
            victim.destroyForcibly();
        }
    }

    @Test
    void aBudgetWhoseJvmStillRunsIsLeftAlone() throws Exception {
        CgroupFs fs = Privileges.assumeCgroups();
        Process victim = new ProcessBuilder("sleep", "120").start();
        Process holder = null;
        try {
            LinuxCgroupTest.awaitAlive(victim.pid());
            holder = holder("cgroup", victim.pid());
            Path dir = Path.of(firstLine(holder));
            BudgetLedger ledger = new BudgetLedger(state, Proc.SYSTEM);

            List<LeftoverRestore.Outcome> outcomes =
                    new LeftoverRestore(ledger, CgroupIo.SYSTEM, new Chrt()).restoreDead();
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int exit = restoreCommand(out, err).execute("restore", "--state-dir", state.toString());
            StringWriter listed = new StringWriter();
            restoreCommand(listed, err).execute("restore", "--list", "--state-dir", state.toString());

            assertThat(outcomes).isEmpty();
            assertThat(exit).isZero();
            assertThat(out.toString()).contains("nothing to restore").contains("1 budget(s) of running processes");
            assertThat(listed.toString())
                    .contains("left alone (its process runs): ")
                    .contains(dir.toString());
            assertThat(dir).exists();
            assertThat(quota(fs, dir)).isIn("20000", "20000 100000");
            assertThat(ledger.records()).hasSize(1);

            // An orderly end (SIGTERM runs the shutdown hook) restores and removes the record itself.
            holder.destroy();
            assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(dir).doesNotExist();
            assertThat(ledger.records()).isEmpty();
        } finally {
            if (holder != null) {
                holder.destroyForcibly();
            }
            victim.destroyForcibly();
        }
    }
}
