package org.itsrt.scheduling.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CPU latency request is in force while held and gone after close, and after its process is
 * killed. The host's device needs root; those tests skip without it.
 */
class CpuLatencyRequestTest {

    /** Holds a 0 us request, says so, and waits to be killed. */
    public static final class HoldUntilKilled {
        public static void main(String[] args) throws Exception {
            CpuLatencyRequest.hold(0);
            System.out.println("held");
            System.out.flush();
            Thread.sleep(120_000);
        }
    }

    private static int assumeDeviceWritable() {
        assumeTrue(Files.exists(CpuLatencyRequest.DEVICE), CpuLatencyRequest.DEVICE + " is missing on this host");
        assumeTrue(Privileges.root(), "writing " + CpuLatencyRequest.DEVICE + " needs root");
        OptionalInt before = CpuLatencyRequest.current(CpuLatencyRequest.DEVICE);
        assumeTrue(before.isPresent(), CpuLatencyRequest.DEVICE + " cannot be read");
        assumeTrue(before.getAsInt() > 0, "another process already holds the host at 0 us");
        return before.getAsInt();
    }

    @Test
    void aRequestHoldsTheHostWhileOpenAndEndsOnClose() {
        int before = assumeDeviceWritable();
        try (CpuLatencyRequest request = CpuLatencyRequest.hold(0)) {
            assertThat(CpuLatencyRequest.current(CpuLatencyRequest.DEVICE)).hasValue(0);
            assertThat(request.describe()).contains("0 us", "poll");
        }
        assertThat(CpuLatencyRequest.current(CpuLatencyRequest.DEVICE)).hasValue(before);
    }

    @Test
    void aKilledHolderLeavesNoRequestBehind() throws Exception {
        int before = assumeDeviceWritable();
        Process holder = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        HoldUntilKilled.class.getName()))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream()))) {
            assertThat(out.readLine()).isEqualTo("held");
            assertThat(CpuLatencyRequest.current(CpuLatencyRequest.DEVICE)).hasValue(0);
        } finally {
            holder.destroyForcibly();
            assertThat(holder.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(CpuLatencyRequest.current(CpuLatencyRequest.DEVICE)).hasValue(before);
    }

    @Test
    void aMissingDeviceIsNamedWithWhatIsNeeded(@TempDir Path dir) {
        Path missing = dir.resolve("cpu_dma_latency");
        assertThatThrownBy(() -> CpuLatencyRequest.hold(missing, 0))
                .isInstanceOf(SchedulingException.class)
                .hasMessageStartingWith(missing + ": no such device")
                .hasMessageContaining("PM QoS");
        assertThat(CpuLatencyRequest.current(missing)).isEmpty();
    }

    @Test
    void aNegativeLatencyIsRefused() {
        assertThatThrownBy(() -> CpuLatencyRequest.hold(Path.of("/nonexistent"), -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(">= 0");
    }

    @Test
    void theRequestIsWrittenAsTheKernelReadsIt(@TempDir Path dir) throws Exception {
        // A plain file stands in for the device: the same four bytes in the CPU's order.
        Path file = Files.createFile(dir.resolve("cpu_dma_latency"));
        try (CpuLatencyRequest request = CpuLatencyRequest.hold(file, 150)) {
            assertThat(request.maxWakeupUs()).isEqualTo(150);
            assertThat(Files.size(file)).isEqualTo(4);
            assertThat(CpuLatencyRequest.current(file)).hasValue(150);
            assertThat(request.describe()).doesNotContain("poll");
        }
    }
}
