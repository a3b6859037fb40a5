package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.itsrt.scheduling.budget.Reservation;
import org.itsrt.scheduling.linux.AppliedBudget;
import org.itsrt.scheduling.linux.LinuxBackends;
import org.itsrt.scheduling.linux.SchedulingException;

/** For tests that put the pipeline under a cgroup budget: whether this host lets them. */
public final class CgroupBandwidth {

    private CgroupBandwidth() {}

    /** Skips, with the reason, where this process cannot create a CPU-bandwidth cgroup. */
    public static void assumeAvailable() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try (AppliedBudget probe =
                LinuxBackends.cgroup(new Reservation(50_000, 100_000), 1, null).apply(sleeper.pid())) {
            assertThat(probe.description()).isNotBlank();
        } catch (SchedulingException e) {
            assumeTrue(false, "cgroup CPU bandwidth is not available here: " + e.getMessage());
        } finally {
            sleeper.destroyForcibly();
        }
    }
}
