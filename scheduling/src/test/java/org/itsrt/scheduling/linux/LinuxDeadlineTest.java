package org.itsrt.scheduling.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.assertj.core.data.Offset;
import org.itsrt.scheduling.budget.Reservation;
import org.junit.jupiter.api.Test;

/** linux-deadline with the real chrt and kernel; skipped without root or SCHED_DEADLINE. */
class LinuxDeadlineTest {

    private static final long SELF = ProcessHandle.current().pid();
    private static final DeadlineParams TENTH = new DeadlineParams(1_000_000, 10_000_000, 10_000_000);

    @Test
    void aNamedThreadOfThisJvmGetsAReservationAndLosesItOnClose() throws Exception {
        Privileges.assumeDeadline();
        CountDownLatch done = new CountDownLatch(1);
        Thread sleeper = started("itsrt-dl-test", done);
        try {
            DeadlineReservation r = new DeadlineBackend(TENTH, ThreadSelector.matching("^itsrt-dl-test$")).apply(SELF);
            long tid;
            try {
                assertThat(r.threads()).singleElement().satisfies(t -> {
                    assertThat(t.comm()).isEqualTo("itsrt-dl-test");
                    assertThat(t.original().name()).isEqualTo("SCHED_OTHER");
                });
                tid = r.threads().get(0).tid();
                String readBack = Privileges.chrtP(tid);
                assertThat(readBack)
                        .contains("SCHED_DEADLINE")
                        .contains("runtime/deadline/period parameters: 1000000/10000000/10000000");
                assertThat(r.facts())
                        .containsEntry("backend", "linux-deadline")
                        .containsEntry("runtime_ns", 1_000_000L)
                        .containsEntry("utilization_total", 0.1);
                assertThat(r.description()).contains("1 thread(s)").contains("'itsrt-dl-test'");
            } finally {
                r.close();
            }
            assertThat(Privileges.chrtP(tid)).contains("SCHED_OTHER").doesNotContain("SCHED_DEADLINE");
        } finally {
            done.countDown();
            sleeper.join();
        }
    }

    @Test
    void everyThreadOfASleepingProcessAndBack() throws Exception {
        Privileges.assumeDeadline();
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try {
            LinuxCgroupTest.awaitAlive(sleeper.pid());
            try (DeadlineReservation r =
                    LinuxBackends.deadline(new Reservation(2_000, 20_000), null).apply(sleeper.pid())) {
                assertThat(r.threads())
                        .extracting(DeadlineReservation.ReservedThread::tid)
                        .containsExactly(sleeper.pid());
                assertThat(Privileges.chrtP(sleeper.pid()))
                        .contains("SCHED_DEADLINE")
                        .contains("2000000/20000000/20000000");
            }
            assertThat(Privileges.chrtP(sleeper.pid())).contains("SCHED_OTHER");
        } finally {
            sleeper.destroyForcibly();
        }
    }

    @Test
    void admissionControlRefusesWithTheNumbersAndRestoresWhatItAdmitted() throws Exception {
        Privileges.assumeDeadline();
        int cpus = Runtime.getRuntime().availableProcessors();
        int n = (int) Math.floor(0.95 * cpus / 0.9) + 1; // 0.9 of a CPU each: one more than 95% of the CPUs hold
        CountDownLatch done = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            threads.add(started("itsrt-adm-" + i, done));
        }
        try {
            DeadlineParams heavy = new DeadlineParams(90_000_000, 100_000_000, 100_000_000);
            assertThatThrownBy(() -> new DeadlineBackend(heavy, ThreadSelector.matching("^itsrt-adm-")).apply(SELF))
                    .isInstanceOf(DeadlineAdmissionException.class)
                    .hasMessageContaining("EBUSY, admission control")
                    .hasMessageContaining(n + " thread(s) x 0.9000")
                    .hasMessageContaining("kernel.sched_rt_runtime_us")
                    .satisfies(e -> {
                        DeadlineAdmissionException a = (DeadlineAdmissionException) e;
                        assertThat(a.requested()).isEqualTo(n * 0.9, Offset.offset(1e-9));
                        assertThat(a.requested() + a.alreadyReserved()).isGreaterThan(a.limit());
                    });
            for (Proc.ThreadInfo t : ThreadSelector.matching("^itsrt-adm-").select(Proc.SYSTEM.threads(SELF))) {
                assertThat(Privileges.chrtP(t.tid())).as("thread %s", t.comm()).contains("SCHED_OTHER");
            }
        } finally {
            done.countDown();
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    @Test
    void restoringSleepingThreadsGivesTheirBandwidthBackAtOnce() throws Exception {
        Privileges.assumeDeadline();
        // As much as admission control allows at once (0.8 of a CPU per thread, within 90% of the CPUs), three
        // times over: a restore that left the bandwidth counted would make the second round fail with EBUSY.
        int cpus = Runtime.getRuntime().availableProcessors();
        int n = Math.max(1, (int) Math.floor(0.9 * cpus / 0.8));
        CountDownLatch done = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            threads.add(started("itsrt-bw-" + i, done));
        }
        try {
            DeadlineBackend backend = new DeadlineBackend(
                    new DeadlineParams(8_000_000, 10_000_000, 10_000_000), ThreadSelector.matching("^itsrt-bw-"));
            for (int round = 0; round < 3; round++) {
                try (DeadlineReservation r = backend.apply(SELF)) {
                    assertThat(r.threads()).as("round %d", round).hasSize(n);
                }
            }
        } finally {
            done.countDown();
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    @Test
    void noMatchingThreadListsTheNamesThereAre() throws Exception {
        Privileges.assumeDeadline();
        assertThatThrownBy(() -> new DeadlineBackend(TENTH, ThreadSelector.matching("^no such thread$")).apply(SELF))
                .isInstanceOf(SchedulingException.class)
                .hasMessageContaining("no thread of process " + SELF + " has a name matching")
                .hasMessageContaining("/proc/" + SELF + "/task/*/comm")
                .hasMessageContaining("java");
    }

    @Test
    void periodsOutsideTheKernelsLimitsAreNamedBeforeAnyThreadIsTouched() {
        Privileges.assumeDeadline();
        DeadlineParams tooShort = new DeadlineParams(10_000, 50_000, 50_000); // 50 us < 100 us minimum
        assertThatThrownBy(() -> new DeadlineBackend(tooShort, ThreadSelector.all()).apply(SELF))
                .hasMessageContaining("kernel.sched_deadline_period_min_us/max_us");
    }

    private static Thread started(String name, CountDownLatch done) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        Thread t = new Thread(
                () -> {
                    running.countDown();
                    try {
                        done.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                name);
        t.start();
        running.await();
        return t;
    }
}
