package org.itsrt.experiments.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The environment facts hold the kernel's values whole (sysctl files report size 0). */
class EnvironmentTest {

    @Test
    void realTimeThrottlingIsReportedAsTheKernelHasIt() throws Exception {
        Path runtime = Path.of("/proc/sys/kernel/sched_rt_runtime_us");
        Path period = Path.of("/proc/sys/kernel/sched_rt_period_us");
        assumeTrue(Files.isReadable(runtime) && Files.isReadable(period), "no /proc/sys/kernel/sched_rt_* here");
        String expected = untilEof(runtime) + " / " + untilEof(period);

        assertThat(Environment.facts(List.of()))
                .containsEntry("real-time throttling (sched_rt_runtime_us / sched_rt_period_us)", expected);
    }

    private static String untilEof(Path file) throws Exception {
        try (InputStream in = Files.newInputStream(file)) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip();
        }
    }
}
