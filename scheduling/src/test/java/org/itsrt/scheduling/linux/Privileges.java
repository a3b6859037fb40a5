package org.itsrt.scheduling.linux;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Skips tests that need what only some machines give: root, writable cgroups, SCHED_DEADLINE. */
final class Privileges {

    private Privileges() {}

    static boolean root() {
        try {
            return Files.readString(Path.of("/proc/self/status"))
                    .lines()
                    .anyMatch(l -> l.startsWith("Uid:") && l.split("\\s+")[1].equals("0"));
        } catch (IOException e) {
            return false;
        }
    }

    /** The system's cgroups with a writable CPU controller. */
    static CgroupFs assumeCgroups() {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "cgroups are Linux only");
        assumeTrue(root(), "moving processes between cgroups needs root");
        CgroupFs fs;
        try {
            fs = CgroupFs.detect();
        } catch (SchedulingException e) {
            assumeTrue(false, "no usable cgroup CPU controller: " + e.getMessage());
            throw e;
        }
        Path procs = fs.cpuHierarchy().mount().resolve("cgroup.procs");
        assumeTrue(Files.isWritable(procs), procs + " is not writable (read-only cgroup mount, e.g. in a container)");
        return fs;
    }

    static boolean cpusetAvailable(CgroupFs fs) {
        return fs instanceof CgroupV2
                || Files.isWritable(fs.root().resolve("cpuset").resolve("cgroup.procs"));
    }

    /** Root and a chrt that knows SCHED_DEADLINE. */
    static void assumeDeadline() {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "SCHED_DEADLINE is Linux only");
        assumeTrue(root(), "SCHED_DEADLINE needs root or CAP_SYS_NICE");
        try {
            Process chrt = new ProcessBuilder("chrt", "--max")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(chrt.getInputStream().readAllBytes());
            assumeTrue(
                    chrt.waitFor(5, TimeUnit.SECONDS) && out.contains("SCHED_DEADLINE"),
                    "chrt --max does not list SCHED_DEADLINE: " + out);
        } catch (IOException e) {
            assumeTrue(false, "chrt (util-linux) cannot run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            assumeTrue(false, "interrupted");
        }
    }

    static String chrtP(long tid) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("chrt", "-p", Long.toString(tid))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(5, TimeUnit.SECONDS);
        return out;
    }

    static void killTree(ProcessHandle root) {
        root.descendants().forEach(ProcessHandle::destroyForcibly);
        root.destroyForcibly();
    }
}
