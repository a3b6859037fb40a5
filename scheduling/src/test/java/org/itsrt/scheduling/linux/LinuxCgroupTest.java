package org.itsrt.scheduling.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** linux-cgroup on this machine's real cgroups (v1 here); skipped without root or writable cgroups. */
class LinuxCgroupTest {

    private static final Proc PROC = Proc.SYSTEM;

    @Test
    void aBusyProcessTreeIsHeldToItsBudgetAndReturnedWhereItWas() throws Exception {
        CgroupFs fs = Privileges.assumeCgroups();
        String key = fs.cpuHierarchy().procKey();
        // A shell with one busy child now and a second one born after the budget is applied.
        Process shell = new ProcessBuilder(
                        "sh", "-c", "(while :; do :; done) & sleep 0.6; (while :; do :; done) & wait")
                .start();
        long pid = shell.pid();
        try {
            awaitDescendants(pid, 1);
            String before = PROC.cgroups(pid).get(key);
            CgroupBackend backend =
                    new CgroupBackend(fs, "", "itsrt-test", new CgroupBandwidth(20_000, 100_000, null, null));
            Path dir;
            List<Long> busy;
            CgroupReservation reservation = backend.apply(pid);
            try {
                dir = reservation.group().cpuDir();
                assertThat(dir).exists();
                assertThat(reservation.movedProcesses()).startsWith(pid).hasSizeGreaterThanOrEqualTo(2);
                Thread.sleep(900); // the second busy child is born inside
                busy = PROC.descendants(pid).stream()
                        .filter(p ->
                                PROC.threads(p).stream().anyMatch(t -> t.comm().equals("sh")))
                        .toList();
                assertThat(busy).hasSize(2);
                for (long p : busy) {
                    assertThat(PROC.cgroups(p).get(key))
                            .as("process %d's cgroup", p)
                            .endsWith("/" + dir.getFileName());
                }
                long t0 = System.nanoTime();
                long ticks0 = busy.stream().mapToLong(PROC::cpuTicks).sum();
                Thread.sleep(2_000);
                long ticks1 = busy.stream().mapToLong(PROC::cpuTicks).sum();
                double seconds = (System.nanoTime() - t0) / 1e9;
                double share = (ticks1 - ticks0) / (double) Proc.TICKS_PER_SECOND / seconds;
                // Two busy loops would take two CPUs; the budget is 20% of one for the whole tree.
                assertThat(share)
                        .as("CPUs used by the two busy children")
                        .isLessThan(0.4)
                        .isGreaterThan(0.05);
                CpuStat stat = reservation.cpuStat();
                assertThat(stat.nrThrottled()).isPositive();
                // Periods elapsed, and the group was throttled. Not nr_periods >= nr_throttled: the
                // kernel documents nr_throttled as the times the group was throttled, and Linux 6.18
                // reported 30 of them in 29 periods here.
                assertThat(stat.nrPeriods()).isPositive();
                assertThat(stat.throttledNs()).isPositive();
                if (stat.usageNs() >= 0) {
                    // cpuacct (v1) or usage_usec (v2): the whole group's CPU time since it was created
                    assertThat(stat.usageNs() / 1e9).isLessThan(0.4 * (System.nanoTime() - t0) / 1e9 + 0.5);
                }
            } finally {
                reservation.close();
            }
            assertThat(dir).doesNotExist();
            assertThat(reservation.facts())
                    .containsEntry("cgroup_version", fs.version())
                    .containsEntry("quota_us", 20_000L)
                    .containsEntry("period_us", 100_000L);
            assertThat((Long) reservation.facts().get("nr_throttled")).isPositive();
            assertThat(PROC.cgroups(pid).get(key)).isEqualTo(before);
            for (long p : busy) {
                assertThat(PROC.cgroups(p).get(key)).as("process %d back", p).isEqualTo(before);
            }
        } finally {
            Privileges.killTree(shell.toHandle());
        }
    }

    @Test
    void pinningMovesThreadsToTheCpusAndRestoresTheirAffinity() throws Exception {
        CgroupFs fs = Privileges.assumeCgroups();
        assumeTrue(Privileges.cpusetAvailable(fs), "no writable cpuset hierarchy");
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "pinning is visible only with 2 CPUs or more");
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try {
            long pid = sleeper.pid();
            awaitAlive(pid);
            String affinity = PROC.cpusAllowed(pid).orElseThrow();
            Map<String, String> before = PROC.cgroups(pid);
            List<Path> dirs;
            try (CgroupReservation r = new CgroupBackend(
                            fs, "", "itsrt-test", CgroupBandwidth.unlimited().pinnedTo("0"))
                    .apply(pid)) {
                dirs = r.group().dirs();
                assertThat(dirs)
                        .anySatisfy(d -> assertThat(d.resolve("cpuset.cpus")).exists());
                assertThat(PROC.cpusAllowed(pid)).contains("0");
                assertThat(r.facts()).containsEntry("cpus", "0").containsEntry("quota_us", null);
            }
            assertThat(dirs).allSatisfy(d -> assertThat(d).doesNotExist());
            assertThat(PROC.cpusAllowed(pid)).contains(affinity);
            assertThat(PROC.cgroups(pid)).isEqualTo(before);
        } finally {
            sleeper.destroyForcibly();
        }
    }

    @Test
    void aProcessThatExitsInsideLeavesNoGroupBehind() throws Exception {
        CgroupFs fs = Privileges.assumeCgroups();
        Process quick = new ProcessBuilder("sleep", "0.3").start();
        awaitAlive(quick.pid());
        CgroupReservation r = new CgroupBackend(fs, "", "itsrt-test", CgroupBandwidth.unlimited()).apply(quick.pid());
        Path dir = r.group().cpuDir();
        assertThat(quick.waitFor(5, TimeUnit.SECONDS)).isTrue();
        r.close();
        assertThat(dir).doesNotExist();
    }

    private static void awaitDescendants(long pid, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (PROC.descendants(pid).size() < n && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(PROC.descendants(pid)).hasSizeGreaterThanOrEqualTo(n);
    }

    static void awaitAlive(long pid) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!PROC.alive(pid) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }
}
