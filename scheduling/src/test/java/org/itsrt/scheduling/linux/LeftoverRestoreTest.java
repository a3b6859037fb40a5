package org.itsrt.scheduling.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records of applied budgets and their restore, on a simulated cgroup v2 hierarchy and procfs: the
 * owner's liveness (pid and start time) decides, a budget of a running owner is never touched.
 */
class LeftoverRestoreTest {

    private static final long SELF = ProcessHandle.current().pid();

    @TempDir
    Path base;

    FakeCgroupV2 kernel;
    Proc proc;
    CgroupFs fs;
    BudgetLedger ledger;

    @BeforeEach
    void hierarchy() throws Exception {
        kernel = new FakeCgroupV2(base);
        kernel.process(4242, 1, "java", "/");
        proc = new Proc(kernel.proc);
        fs = CgroupFs.detect(kernel.root, kernel, proc);
        ledger = new BudgetLedger(base.resolve("state"), proc);
    }

    /** This JVM as the simulated procfs shows it, started at {@code startTime} ticks after boot. */
    private void ownerStartedAt(long startTime) throws Exception {
        Path dir = Files.createDirectories(kernel.proc.resolve(Long.toString(SELF)));
        Files.writeString(
                dir.resolve("stat"),
                SELF + " (java) S 1 1 1 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 1 0 " + startTime + " 0 0\n");
    }

    private CgroupReservation applyTo(long pid) {
        return new CgroupBackend(fs, "", "itsrt-job", new CgroupBandwidth(20_000, 100_000, null, null), ledger)
                .apply(pid);
    }

    @Test
    void aRunningOwnersBudgetStaysAndAKilledOnesIsRestoredEvenWhenItsPidWasReused() throws Exception {
        ownerStartedAt(100);
        CgroupReservation reservation = applyTo(4242);
        try {
            Path dir = reservation.group().cpuDir();
            assertThat(Files.readString(dir.resolve("cpu.max")).strip()).isEqualTo("20000 100000");
            List<BudgetLedger.Found> records = ledger.records();
            assertThat(records).singleElement().satisfies(f -> {
                assertThat(f.record().owner().pid()).isEqualTo(SELF);
                assertThat(f.record().owner().startTime()).isEqualTo(100);
                assertThat(f.record().cgroup().origins()).containsKey(4242L);
                assertThat(f.record().cgroup().origins().get(4242L)).containsEntry("", "/");
            });

            LeftoverRestore restore = new LeftoverRestore(ledger, kernel, new Chrt("false"));
            assertThat(restore.restoreDead()).as("the owner runs").isEmpty();
            assertThat(dir).exists();
            assertThat(kernel.cgroupOf(4242)).isEqualTo("/" + dir.getFileName());

            // The owner is gone and its pid belongs to a process started later.
            ownerStartedAt(999);
            List<LeftoverRestore.Outcome> outcomes = restore.restoreDead();

            assertThat(outcomes).singleElement().satisfies(o -> {
                assertThat(o.failed()).as(o.error()).isFalse();
                assertThat(o.lines())
                        .singleElement()
                        .asString()
                        .contains(dir + " removed")
                        .contains("process(es) [4242] back to " + kernel.root)
                        .contains("cpu.max \"20000 100000\"");
            });
            assertThat(dir).doesNotExist();
            assertThat(kernel.cgroupOf(4242)).isEqualTo("/");
            assertThat(ledger.records()).isEmpty();
            assertThat(restore.restoreDead()).isEmpty();
        } finally {
            reservation.close();
        }
    }

    @Test
    void aClosedBudgetLeavesNoRecord() throws Exception {
        ownerStartedAt(100);
        CgroupReservation reservation = applyTo(4242);
        assertThat(ledger.records()).hasSize(1);

        reservation.close();

        assertThat(ledger.records()).isEmpty();
        assertThat(ledger.dir()).isEmptyDirectory();
    }

    @Test
    void aGroupAlreadyRemovedAndAThreadWhoseProcessExitedAreQuietSuccessesWithANote() throws Exception {
        // No owner in the simulated procfs: the JVM that applied these is gone.
        CgroupReservation reservation = applyTo(4242);
        Path dir = reservation.group().cpuDir();
        kernel.write(kernel.root.resolve("cgroup.procs"), "4242");
        kernel.rmdir(dir);
        ledger.open(
                BudgetLedger.Record.DEADLINE,
                "SCHED_DEADLINE on threads of process 5555",
                null,
                new BudgetLedger.DeadlineState(
                        5555,
                        100,
                        1_000_000,
                        10_000_000,
                        10_000_000,
                        List.of(new BudgetLedger.ThreadState(
                                5556, "worker", 100, BudgetLedger.PolicyState.of(Chrt.Policy.OTHER)))));
        // chrt must not be needed: a process that has exited has no policy to restore.
        LeftoverRestore restore = new LeftoverRestore(ledger, kernel, new Chrt("/nonexistent/chrt"));

        List<LeftoverRestore.Outcome> outcomes = restore.restoreDead();

        assertThat(outcomes)
                .hasSize(2)
                .allSatisfy(o -> assertThat(o.failed()).as(o.error()).isFalse());
        assertThat(outcomes.get(0).lines()).singleElement().asString().contains(dir + " was already removed");
        assertThat(outcomes.get(1).lines())
                .singleElement()
                .asString()
                .contains("process 5555 has exited")
                .contains("nothing to restore");
        assertThat(ledger.records()).isEmpty();
        reservation.close();
    }

    @Test
    void aGroupThatCannotBeRemovedIsAnErrorNamingTheRecordAndWhatToDo() throws Exception {
        CgroupReservation reservation = applyTo(4242);
        Path dir = reservation.group().cpuDir();
        // A child group inside: rmdir refuses a group with children, as the kernel does.
        kernel.mkdir(dir.resolve("inner"));
        LeftoverRestore restore = new LeftoverRestore(ledger, kernel, new Chrt("false"));
        Path file = ledger.records().get(0).file();

        List<LeftoverRestore.Outcome> outcomes = restore.restoreDead();

        assertThat(outcomes).singleElement().satisfies(o -> assertThat(o.error())
                .contains("restoring " + file)
                .contains(dir.toString())
                .contains("./its budget restore again")
                .contains("rmdir"));
        assertThat(file).as("kept for the next try").exists();
        kernel.rmdir(dir.resolve("inner"));
        assertThat(restore.restoreDead()).singleElement().satisfies(o -> assertThat(o.failed())
                .isFalse());
        assertThat(dir).doesNotExist();
        reservation.close();
    }

    @Test
    void anApplyLeavesARecordedGroupOfAGoneJvmToItsRecord() throws Exception {
        Process exited = new ProcessBuilder("true").start();
        exited.waitFor();
        // A group named as a killed JVM's, with its record: only the record knows where 4242 came from.
        kernel.mkdir(kernel.root.resolve("app"));
        kernel.write(kernel.root.resolve("app").resolve("cgroup.procs"), "4242");
        CgroupGroup group = fs.create(
                "", "itsrt-job-" + exited.pid() + "-1", new CgroupBandwidth(20_000, 100_000, null, null), ledger);
        group.attachTree(4242);
        Path dir = group.cpuDir();

        assertThat(fs.removeStale("", "itsrt-job", ledger)).isEmpty();
        assertThat(dir).exists();

        List<LeftoverRestore.Outcome> outcomes = new LeftoverRestore(ledger, kernel, new Chrt("false")).restoreDead();
        assertThat(outcomes).singleElement().satisfies(o -> assertThat(o.lines())
                .singleElement()
                .asString()
                .contains("back to " + kernel.root.resolve("app")));
        assertThat(kernel.cgroupOf(4242)).isEqualTo("/app");
        assertThat(dir).doesNotExist();
    }

    @Test
    void aFileThatIsNoRecordIsNamed() throws Exception {
        Files.createDirectories(ledger.dir());
        Path bad = ledger.dir().resolve("cgroup-1-1.json");
        Files.writeString(bad, "{not json");

        assertThatThrownBy(() -> new LeftoverRestore(ledger, kernel, new Chrt()).list())
                .isInstanceOf(SchedulingException.class)
                .hasMessageContaining(bad.toString())
                .hasMessageContaining("delete it");
    }

    @Test
    void theFolderComesFromThePropertyFirst() {
        String before = System.getProperty(BudgetLedger.DIR_PROPERTY);
        System.setProperty(BudgetLedger.DIR_PROPERTY, base.resolve("elsewhere").toString());
        try {
            assertThat(BudgetLedger.system().dir()).isEqualTo(base.resolve("elsewhere"));
        } finally {
            if (before == null) {
                System.clearProperty(BudgetLedger.DIR_PROPERTY);
            } else {
                System.setProperty(BudgetLedger.DIR_PROPERTY, before);
            }
        }
    }
}
