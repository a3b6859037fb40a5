package org.itsrt.scheduling.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Interference loads in sibling cgroups on this machine; skipped without root or writable cgroups. */
class InterferenceLoadTest {

    @Test
    void aCpuLoadRunsPinnedInASiblingGroupAndLeavesNothingBehind() throws Exception {
        CgroupFs fs = Privileges.assumeCgroups();
        assumeTrue(Privileges.cpusetAvailable(fs), "no writable cpuset hierarchy");
        InterferenceLoad load =
                InterferenceLoad.start(InterferenceLoad.Spec.cpu(1).pinnedTo("0"), fs, "");
        List<Path> dirs;
        long pid = load.pid();
        try {
            assertThat(load.isRunning()).isTrue();
            dirs = load.group().orElseThrow().dirs();
            assertThat(dirs).allSatisfy(d -> assertThat(d.getParent())
                    .isIn(
                            fs.root().resolve("cpu"),
                            fs.root().resolve("cpuset"),
                            fs.root().resolve("cpuacct"),
                            fs.root()));
            String key = fs.cpuHierarchy().procKey();
            assertThat(Proc.SYSTEM.cgroups(pid).get(key))
                    .endsWith("/" + load.group().get().name());
            assertThat(Proc.SYSTEM.cpusAllowed(pid)).contains("0");
            // Until the load has had CPU, not for a fixed time: on a busy machine the pinned CPU
            // may be shared with other work for longer than any sleep chosen here. Counted as the
            // facts count it, from the load's start, not the process's whole CPU time, which also
            // holds what it spent before the load began.
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (loadCpuMillis(load) < 150 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        } finally {
            load.close();
        }
        Map<String, Object> facts = load.facts();
        assertThat((Double) facts.get("cpu_ms")).isGreaterThan(100.0);
        assertThat((String) facts.get("summary")).startsWith("iterations ");
        assertThat(dirs).allSatisfy(d -> assertThat(d).doesNotExist());
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();
    }

    /** The CPU time the running load has had since it started, as its facts report it; 0 when unknown. */
    private static double loadCpuMillis(InterferenceLoad load) {
        Object cpu = load.facts().get("cpu_ms");
        return cpu instanceof Double ms ? ms : 0;
    }

    @Test
    void anIoLoadWritesAndSyncsAFileThatGoesWithIt(@TempDir Path dir) throws Exception {
        CgroupFs fs = Privileges.assumeCgroups();
        Path file;
        try (InterferenceLoad load = InterferenceLoad.start(InterferenceLoad.Spec.io(dir), fs, "")) {
            file = load.file().orElseThrow();
            assertThat(file.getParent()).isEqualTo(dir);
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (Files.size(file) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(Files.size(file)).isPositive();
            Thread.sleep(200);
            load.close();
            assertThat((String) load.facts().get("summary")).matches("fsyncs [1-9][0-9]*");
        }
        assertThat(file).doesNotExist();
    }

    @Test
    void aLoadWithoutCgroupsRunsToo() throws Exception {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "taskset and /proc are Linux only");
        try (InterferenceLoad load = InterferenceLoad.start(InterferenceLoad.Spec.cpu(1))) {
            assertThat(load.group()).isEmpty();
            assertThat(load.isRunning()).isTrue();
        }
    }
}
