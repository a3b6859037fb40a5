package org.itsrt.scheduling.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.itsrt.scheduling.budget.Reservation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cgroup v2 code against a simulated v2 hierarchy (this machine's cgroups are v1). */
class CgroupV2FakeTest {

    @TempDir
    Path base;

    FakeCgroupV2 kernel;
    CgroupFs fs;

    @BeforeEach
    void hierarchy() throws Exception {
        kernel = new FakeCgroupV2(base);
        kernel.mkdir(kernel.root.resolve("app"));
        // As under systemd: the app's group has the controllers (its parent enabled them once).
        Files.writeString(kernel.root.resolve("app").resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
        // 4242 (the job) in /app with a child 4243 at the root and a grandchild 4244; 999 unrelated.
        kernel.process(4242, 1, "java", "/app");
        kernel.process(4243, 4242, "sh", "/");
        kernel.process(4244, 4243, "sleep", "/");
        kernel.process(999, 1, "other", "/");
        fs = CgroupFs.detect(kernel.root, kernel, new Proc(kernel.proc));
    }

    @Test
    void detectsV2WhenTheRootListsTheCpuController() {
        assertThat(fs).isInstanceOf(CgroupV2.class);
        assertThat(fs.version()).isEqualTo("v2");
    }

    @Test
    void aQuotaChangedWhileTheProcessesRunIsRecordedFirstAndTheGroupStillComesBack() throws Exception {
        BudgetLedger ledger = new BudgetLedger(base.resolve("ledger"), new Proc(kernel.proc));
        CgroupReservation reservation = new CgroupBackend(
                        fs, "", "itsrt-job", CgroupBandwidth.of(new Reservation(50_000, 100_000), 2), ledger)
                .apply(4242);
        Path dir = reservation.group().cpuDir();
        assertThat(Files.readString(dir.resolve("cpu.max")).strip()).isEqualTo("100000 100000");

        reservation.changeQuota(37_500);
        assertThat(Files.readString(dir.resolve("cpu.max")).strip()).isEqualTo("37500 100000");
        assertThat(reservation.group().bandwidth().quotaUs()).isEqualTo(37_500);
        assertThat(ledger.records()).singleElement().satisfies(found -> {
            assertThat(found.record().cgroup().quotaUs()).isEqualTo(37_500);
            assertThat(found.record().description()).contains("37500 us every 100000 us");
        });

        // Refused before anything is written: below the kernel's minimum quota.
        assertThatThrownBy(() -> reservation.changeQuota(500)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Files.readString(dir.resolve("cpu.max")).strip()).isEqualTo("37500 100000");
        assertThat(ledger.records().get(0).record().cgroup().quotaUs()).isEqualTo(37_500);

        reservation.close();
        assertThat(dir).doesNotExist();
        assertThat(kernel.cgroupOf(4242)).isEqualTo("/app");
        assertThat(ledger.records()).isEmpty();
        assertThatThrownBy(() -> reservation.changeQuota(50_000)).isInstanceOf(RuntimeException.class);
    }

    @Test
    void theWholeTreeGoesIntoAGroupWithCpuMaxAndComesBackWhereItWas() throws Exception {
        CgroupBackend backend = new CgroupBackend(
                fs,
                "",
                "itsrt-job",
                CgroupBandwidth.of(new Reservation(76_750, 100_000), 2).pinnedTo("1,0"));
        CgroupReservation reservation = backend.apply(4242);
        Path dir = reservation.group().cpuDir();
        assertThat(dir.getParent()).isEqualTo(kernel.root);
        assertThat(dir.getFileName().toString()).startsWith("itsrt-job-");
        assertThat(Files.readString(kernel.root.resolve("cgroup.subtree_control")))
                .contains("cpu")
                .contains("cpuset");
        assertThat(Files.readString(dir.resolve("cpu.max")).strip()).isEqualTo("153500 100000");
        assertThat(Files.readString(dir.resolve("cpuset.cpus")).strip()).isEqualTo("0-1");
        assertThat(kernel.procsOf(dir)).containsExactly(4242L, 4243L, 4244L);
        assertThat(reservation.movedProcesses()).containsExactly(4242L, 4243L, 4244L);
        assertThat(kernel.cgroupOf(999)).isEqualTo("/");

        // A child born inside after the move, and the kernel's counters during the run.
        kernel.process(5000, 4244, "late", "/" + dir.getFileName());
        Files.writeString(
                dir.resolve("cpu.stat"),
                "usage_usec 2000000\nuser_usec 1900000\nsystem_usec 100000\n"
                        + "nr_periods 20\nnr_throttled 15\nthrottled_usec 1234567\nnr_bursts 0\nburst_usec 0\n");
        CpuStat stat = reservation.cpuStat();
        assertThat(stat).isEqualTo(new CpuStat(20, 15, 1_234_567_000L, 2_000_000_000L));
        assertThat(stat.throttledShare()).isEqualTo(0.75);

        reservation.close();
        assertThat(dir).doesNotExist();
        assertThat(kernel.cgroupOf(4242)).isEqualTo("/app");
        assertThat(kernel.cgroupOf(4243)).isEqualTo("/");
        assertThat(kernel.cgroupOf(4244)).isEqualTo("/");
        assertThat(kernel.cgroupOf(5000))
                .as("born inside: goes where the tree's root came from")
                .isEqualTo("/app");
        // Counters stay readable after the group is gone, as they were at close.
        Map<String, Object> facts = reservation.facts();
        assertThat(facts)
                .containsEntry("cgroup_version", "v2")
                .containsEntry("nr_throttled", 15L)
                .containsEntry("throttled_ms", 1234.567)
                .containsEntry("quota_us", 153_500L)
                .containsEntry("cpus", "0-1")
                .containsEntry("usage_ms", 2000.0);
        reservation.close(); // idempotent
    }

    @Test
    void groupsLeftByAKilledRunAreRemovedByTheNext() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path stale = kernel.root.resolve("itsrt-job-" + gone.pid() + "-1");
        kernel.mkdir(stale);
        kernel.process(6000, 1, "orphan", "/" + stale.getFileName());
        Path live = kernel.root.resolve("itsrt-job-" + ProcessHandle.current().pid() + "-999");
        kernel.mkdir(live);
        try (CgroupReservation r = new CgroupBackend(fs, "", "itsrt-job", CgroupBandwidth.unlimited()).apply(4243)) {
            assertThat(stale).doesNotExist();
            assertThat(kernel.cgroupOf(6000)).isEqualTo("/");
            assertThat(live).as("a group of a JVM that still runs").exists();
            assertThat(r.group().cpuDir()).exists();
        }
    }

    @Test
    void anUnlimitedGroupWritesMax() throws Exception {
        try (CgroupGroup group = fs.create("", "acct", CgroupBandwidth.unlimited())) {
            assertThat(Files.readString(group.cpuDir().resolve("cpu.max")).strip())
                    .isEqualTo("max 100000");
            assertThat(group.cpuDir().resolve("cpuset.cpus")).doesNotExist(); // cpuset not enabled: no pinning asked
        }
    }

    @Test
    void aParentWithProcessesOfItsOwnCannotHoldTheGroup() {
        assertThatThrownBy(() -> fs.create("app", "itsrt-job-x", CgroupBandwidth.unlimited()))
                .isInstanceOf(SchedulingException.class)
                .hasMessageContaining("cannot enable the cpu controller for children")
                .hasMessageContaining(kernel.root
                        .resolve("app")
                        .resolve("cgroup.subtree_control")
                        .toString())
                .hasMessageContaining("holds processes of its own");
        assertThat(kernel.root.resolve("app").resolve("itsrt-job-x")).doesNotExist();
    }

    @Test
    void aMissingControllerIsNamedWithTheFileThatLacksIt() throws Exception {
        Files.writeString(kernel.root.resolve("cgroup.controllers"), "cpu io memory pids\n");
        assertThatThrownBy(() -> fs.create("", "g", CgroupBandwidth.unlimited().pinnedTo("0")))
                .isInstanceOf(SchedulingException.class)
                .hasMessageContaining("the cpuset controller is not available under " + kernel.root)
                .hasMessageContaining("cgroup.controllers lists 'cpu io memory pids'");
    }

    @Test
    void anExistingGroupIsNotTakenOver() throws Exception {
        Files.createDirectory(kernel.root.resolve("taken"));
        assertThatThrownBy(() -> fs.create("", "taken", CgroupBandwidth.unlimited()))
                .hasMessageContaining("taken already exists");
        assertThatThrownBy(() -> fs.create("missing/parent", "g", CgroupBandwidth.unlimited()))
                .hasMessageContaining("cgroup parent " + kernel.root.resolve("missing/parent") + " does not exist");
        assertThatThrownBy(() -> fs.create("", "cpu.max", CgroupBandwidth.unlimited()))
                .hasMessageContaining("not a cgroup interface file name");
    }

    @Test
    void aProcessThatIsNotThereIsNamed() {
        CgroupBackend backend = new CgroupBackend(fs, "", "itsrt-job", CgroupBandwidth.unlimited());
        assertThatThrownBy(() -> backend.apply(31337))
                .isInstanceOf(SchedulingException.class)
                .hasMessageContaining("no running process 31337");
        try (var dirs = Files.list(kernel.root)) {
            assertThat(dirs.filter(p -> p.getFileName().toString().startsWith("itsrt-job")))
                    .isEmpty();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
