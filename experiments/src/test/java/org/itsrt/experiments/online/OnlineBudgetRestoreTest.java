package org.itsrt.experiments.online;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.itsrt.probe.arrival.Arrival;
import org.itsrt.scheduling.linux.BudgetLedger;
import org.itsrt.scheduling.linux.CgroupFs;
import org.itsrt.scheduling.linux.CgroupIo;
import org.itsrt.scheduling.linux.Chrt;
import org.itsrt.scheduling.linux.LeftoverRestore;
import org.itsrt.scheduling.linux.Proc;
import org.itsrt.scheduling.linux.SchedulingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A budget that follows the load changes a live cgroup's quota: each change is in the ledger, the
 * group is gone when the run ends, and a JVM killed with SIGKILL mid-run leaves a record from
 * which the group is restored. Skipped without root and writable cgroups.
 */
class OnlineBudgetRestoreTest {

    @TempDir
    Path state;

    /** 30 ms SLO, 10,000..100,000 us every 100 ms on one CPU: calm arrivals take a tenth off every 2 intervals. */
    static OnlineBudget budget(PrintStream log) {
        return new OnlineBudget(
                new BudgetController(BudgetController.Settings.of(30, 10_000, 100_000)),
                100_000,
                1,
                null,
                Duration.ofMillis(150),
                log);
    }

    /** Records arriving 1 ms after they were due, every few milliseconds, until interrupted. */
    static Thread calmArrivals(OnlineBudget budget) {
        Thread feed = new Thread(() -> {
            long seq = 0;
            while (!Thread.currentThread().isInterrupted()) {
                long now = System.nanoTime();
                budget.arrivals().arrived(new Arrival(1, seq++, now - 1_000_000, now - 1_000_000, -1, -1, -1, now));
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        feed.setDaemon(true);
        feed.start();
        return feed;
    }

    /** Puts a following budget on another process, says each budget it set, and holds until killed. */
    public static final class FollowAndHold {
        public static void main(String[] args) throws Exception {
            OnlineBudget budget = budget(System.err);
            budget.jobLive(OptionalLong.of(Long.parseLong(args[0])));
            calmArrivals(budget);
            long said = -1;
            while (true) {
                List<OnlineStep> steps = budget.steps();
                if (!steps.isEmpty() && steps.get(steps.size() - 1).nextBudgetUs() != said) {
                    said = steps.get(steps.size() - 1).nextBudgetUs();
                    System.out.println(said);
                    System.out.flush();
                }
                Thread.sleep(20);
            }
        }
    }

    static CgroupFs assumeCgroups() {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "cgroups are Linux only");
        boolean root;
        try {
            root = Files.readString(Path.of("/proc/self/status"))
                    .lines()
                    .anyMatch(l -> l.startsWith("Uid:") && l.split("\\s+")[1].equals("0"));
        } catch (java.io.IOException e) {
            root = false;
        }
        assumeTrue(root, "moving processes between cgroups needs root");
        CgroupFs fs;
        try {
            fs = CgroupFs.detect();
        } catch (SchedulingException e) {
            assumeTrue(false, "no usable cgroup CPU controller: " + e.getMessage());
            throw e;
        }
        Path mount = CgroupFs.DEFAULT_ROOT;
        boolean writable = fs.version().equals("v2")
                ? Files.isWritable(mount.resolve("cgroup.procs"))
                : Files.isWritable(mount.resolve("cpu").resolve("cgroup.procs"))
                        || Files.isWritable(mount.resolve("cpu,cpuacct").resolve("cgroup.procs"));
        assumeTrue(writable, "the cgroup CPU hierarchy under " + mount + " is not writable (e.g. in a container)");
        return fs;
    }

    private static String quotaFile(CgroupFs fs, Path dir) throws Exception {
        return Files.readString(dir.resolve(fs.version().equals("v2") ? "cpu.max" : "cpu.cfs_quota_us"))
                .strip()
                .split(" ")[0];
    }

    private static Path groupDir(BudgetLedger.Found found) {
        return Path.of(found.record().cgroup().dirs().get(0).dir());
    }

    @Test
    void aFollowingBudgetKilledMidRunIsRestoredFromItsRecord() throws Exception {
        CgroupFs fs = assumeCgroups();
        Process victim = new ProcessBuilder("sleep", "120").start();
        try {
            Map<String, String> before = Proc.SYSTEM.cgroups(victim.pid());
            ProcessBuilder builder = new ProcessBuilder(List.of(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            FollowAndHold.class.getName(),
                            Long.toString(victim.pid())))
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            builder.environment().put(BudgetLedger.DIR_ENV, state.toString());
            Process holder = builder.start();
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream()));
            // Wait for the budget to have stepped down twice from the ceiling.
            long last = 100_000;
            while (last > 81_000) {
                String line = out.readLine();
                assertThat(line).as("the holder's budgets").isNotNull();
                last = Long.parseLong(line.strip());
            }
            holder.destroyForcibly(); // SIGKILL: no shutdown hook runs
            assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();

            BudgetLedger ledger = new BudgetLedger(state, Proc.SYSTEM);
            assertThat(ledger.records()).hasSize(1);
            BudgetLedger.Found found = ledger.records().get(0);
            Path dir = groupDir(found);
            long recorded = found.record().cgroup().quotaUs();
            long inFile = Long.parseLong(quotaFile(fs, dir));
            assertThat(recorded).as("a changed quota, not the one applied").isLessThanOrEqualTo(81_000);
            // The record is written before the file: a kill between the two leaves it one step ahead.
            assertThat(inFile).isIn(recorded, Math.round(recorded / 0.9));
            assertThat(Proc.SYSTEM.cgroups(victim.pid()).values()).anyMatch(g -> g.endsWith("/" + dir.getFileName()));

            List<LeftoverRestore.Outcome> outcomes =
                    new LeftoverRestore(ledger, CgroupIo.SYSTEM, new Chrt()).restoreDead();

            assertThat(outcomes)
                    .singleElement()
                    .satisfies(o -> assertThat(o.failed()).as(o.error()).isFalse());
            assertThat(dir).doesNotExist();
            assertThat(Proc.SYSTEM.cgroups(victim.pid())).isEqualTo(before);
            assertThat(ledger.records()).isEmpty();
        } finally {
            victim.destroyForcibly();
            victim.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theRunsEndRestoresTheGroupWhateverQuotaItReached() throws Exception {
        CgroupFs fs = assumeCgroups();
        Process victim = new ProcessBuilder("sleep", "120").start();
        String property = System.getProperty(BudgetLedger.DIR_PROPERTY);
        System.setProperty(BudgetLedger.DIR_PROPERTY, state.toString());
        try {
            Map<String, String> before = Proc.SYSTEM.cgroups(victim.pid());
            OnlineBudget budget = budget(new PrintStream(java.io.OutputStream.nullOutputStream()));
            AutoCloseable applied = budget.jobLive(OptionalLong.of(victim.pid()));
            Thread feed = calmArrivals(budget);
            BudgetLedger ledger = new BudgetLedger(state, Proc.SYSTEM);
            Path dir = groupDir(ledger.records().get(0));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (Long.parseLong(quotaFile(fs, dir)) > 90_000 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(Long.parseLong(quotaFile(fs, dir))).isLessThanOrEqualTo(90_000);
            assertThat(ledger.records().get(0).record().cgroup().quotaUs()).isLessThanOrEqualTo(90_000);

            feed.interrupt();
            applied.close();

            assertThat(dir).doesNotExist();
            assertThat(Proc.SYSTEM.cgroups(victim.pid())).isEqualTo(before);
            assertThat(ledger.records()).isEmpty();
            assertThat(budget.steps()).isNotEmpty().allSatisfy(s -> assertThat(s.records())
                    .isPositive());
            assertThat(budget.steps().stream().map(OnlineStep::action)).contains(BudgetController.Action.DECREASE);
        } finally {
            if (property == null) {
                System.clearProperty(BudgetLedger.DIR_PROPERTY);
            } else {
                System.setProperty(BudgetLedger.DIR_PROPERTY, property);
            }
            victim.destroyForcibly();
            victim.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
