package org.itsrt.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pinning a running process: every thread's allowed CPUs, as the kernel reports them, become the set given. */
class CpuPinningTest {

    @Test
    void aPinnedProcessMayRunOnlyOnTheGivenCpus() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try {
            CpuPinning.pin("broker", sleeper.pid(), "0");
            List<String> status = Files.readAllLines(Path.of("/proc", Long.toString(sleeper.pid()), "status"));
            assertThat(status).contains("Cpus_allowed_list:\t0");
        } finally {
            sleeper.destroyForcibly();
        }
    }

    @Test
    void aCpuTheMachineLacksFailsNamingThePart() {
        assertThatThrownBy(() -> CpuPinning.pin("flink", ProcessHandle.current().pid(), "4095"))
                .hasMessageContaining("--pin flink=4095")
                .hasMessageContaining("taskset failed");
    }
}
