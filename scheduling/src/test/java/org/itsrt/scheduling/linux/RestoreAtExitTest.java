package org.itsrt.scheduling.linux;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A JVM that exits without closing its budgets still restores them, from its shutdown hook. */
class RestoreAtExitTest {

    /** Applies a cgroup budget to one process and a deadline reservation to another, then exits. */
    public static final class ExitWithoutClosing {
        public static void main(String[] args) {
            CgroupReservation cg =
                    new CgroupBackend(new CgroupBandwidth(50_000, 100_000, null, null)).apply(Long.parseLong(args[0]));
            DeadlineReservation dl = new DeadlineBackend(
                            new DeadlineParams(1_000_000, 10_000_000, 10_000_000), ThreadSelector.all())
                    .apply(Long.parseLong(args[1]));
            System.out.println(cg.group().cpuDir());
            System.out.println(dl.threads().get(0).tid());
            System.out.flush();
            System.exit(0);
        }
    }

    @Test
    void cgroupAndDeadlineAreRestoredWhenTheJvmExits() throws Exception {
        CgroupFs fs = Privileges.assumeCgroups();
        Privileges.assumeDeadline();
        Process a = new ProcessBuilder("sleep", "30").start();
        Process b = new ProcessBuilder("sleep", "30").start();
        try {
            LinuxCgroupTest.awaitAlive(a.pid());
            LinuxCgroupTest.awaitAlive(b.pid());
            String before = Proc.SYSTEM.cgroups(a.pid()).get(fs.cpuHierarchy().procKey());
            Process child = new ProcessBuilder(List.of(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            ExitWithoutClosing.class.getName(),
                            Long.toString(a.pid()),
                            Long.toString(b.pid())))
                    .redirectErrorStream(true)
                    .start();
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()));
            String dir = out.readLine();
            String tid = out.readLine();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(dir).as("the child's output").startsWith(fs.root().toString());
            assertThat(tid).isEqualTo(Long.toString(b.pid()));
            assertThat(Path.of(dir)).doesNotExist();
            assertThat(Proc.SYSTEM.cgroups(a.pid()).get(fs.cpuHierarchy().procKey()))
                    .isEqualTo(before);
            assertThat(Privileges.chrtP(b.pid())).contains("SCHED_OTHER");
        } finally {
            a.destroyForcibly();
            b.destroyForcibly();
        }
    }
}
