package org.itsrt.pipeline.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The profile report on a small flight recording made here, of a method that burns CPU and one that allocates. */
class ProfileReportTest {

    @TempDir
    static Path dir;

    private static Path jfr;
    private static Instant start;
    private static Instant end;
    static volatile long sink;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    static volatile Object kept;

    @BeforeAll
    static void record() throws Exception {
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
            recording.enable("jdk.ObjectAllocationSample").with("throttle", "10000/s");
            recording.enable("jdk.GarbageCollection");
            recording.enable("jdk.ThreadCPULoad").withPeriod(Duration.ofMillis(100));
            recording.start();
            start = Instant.now();
            // The busy method does about a thousand times the work of the allocating one per
            // round, so that it leads the self time even where garbage collection or a slow
            // first compile makes the allocator's share larger than its arithmetic. The loop
            // runs until this thread has had 400 ms of CPU, not for 400 ms: on a loaded machine
            // the wall time holds fewer samples than the tests below need.
            long cpuUntil =
                    THREADS.getCurrentThreadCpuTime() + Duration.ofMillis(400).toNanos();
            long giveUp = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            while (THREADS.getCurrentThreadCpuTime() < cpuUntil && System.nanoTime() < giveUp) {
                sink += burnCpu(1_000_000);
                kept = allocate();
            }
            end = Instant.now();
            recording.stop();
            jfr = dir.resolve("test.jfr");
            recording.dump(jfr);
        }
    }

    /** A loop the JIT cannot remove: its result is kept. */
    static long burnCpu(int n) {
        long h = 17;
        for (int i = 0; i < n; i++) {
            h = h * 31 + (i ^ (h >>> 7));
        }
        return h;
    }

    /**
     * A quarter of a megabyte per call: allocation samples are taken as thread-local allocation
     * buffers fill, and a loaded machine may run the loop only a few dozen times in its 400 ms, so
     * each call must fill buffers on its own for the allocator to be seen at all.
     */
    static byte[][] allocate() {
        byte[][] arrays = new byte[16][];
        for (int i = 0; i < arrays.length; i++) {
            arrays[i] = new byte[16 * 1024];
        }
        return arrays;
    }

    @Test
    void theBusyMethodLeadsTheSelfTimeAndTheAllocatorTheAllocation() throws Exception {
        JfrCosts costs = JfrCosts.read(jfr, start, end);

        assertThat(costs.samples()).isPositive();
        String busy = ProfileReportTest.class.getName() + ".burnCpu";
        assertThat(costs.selfByMethod().get(0).getKey()).isEqualTo(busy);
        assertThat(costs.byStack().get(0).getKey()).startsWith(busy + " <- ");
        assertThat(costs.byThread().get(0).getKey()).isEqualTo("main");
        assertThat(costs.allocByMethod())
                .extracting(Map.Entry::getKey)
                .contains(ProfileReportTest.class.getName() + ".allocate");
        assertThat(costs.allocatedBytes()).isPositive();
        // The busy thread's CPU is counted (how much it got depends on what else the machine ran),
        // and so are the JIT compiler's threads, which compiled the loop meanwhile.
        assertThat(costs.cpuByThread()).extracting(Map.Entry::getKey).contains("main");
        assertThat(costs.cpuByThread().stream()
                        .filter(e -> e.getKey().equals("main"))
                        .findFirst()
                        .orElseThrow()
                        .getValue())
                .isPositive();
        assertThat(costs.jitCores()).isPositive();
    }

    @Test
    void onlyEventsInsideTheWindowCount() throws Exception {
        JfrCosts before = JfrCosts.read(jfr, start.minusSeconds(60), start.minusSeconds(30));
        assertThat(before.samples()).isZero();
        assertThat(before.selfByMethod()).isEmpty();
        JfrCosts firstHalf = JfrCosts.read(jfr, start, start.plusMillis(200));
        JfrCosts whole = JfrCosts.read(jfr, start, end);
        assertThat(firstHalf.samples()).isPositive().isLessThan(whole.samples());
    }

    @Test
    void cpuUsageIsTheDifferenceOfTwoSamplesOverTheirSpan() {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        List<CpuSampler.Sample> samples = List.of(
                new CpuSampler.Sample(t0, Map.of("a", 0L, "b", 1_000_000_000L)),
                new CpuSampler.Sample(t0.plusSeconds(1), Map.of("a", 500_000_000L, "b", 2_000_000_000L)),
                new CpuSampler.Sample(t0.plusSeconds(3), Map.of("a", 1_500_000_000L, "b", 2_000_000_000L)));
        Map<String, CpuSampler.Usage> all = CpuSampler.usage(samples, t0, t0.plusSeconds(3));
        assertThat(all.get("a").cores()).isEqualTo(0.5);
        assertThat(all.get("b").cpuSeconds()).isEqualTo(1.0);
        assertThat(CpuSampler.usage(samples, t0.plusMillis(500), t0.plusSeconds(3))
                        .get("a")
                        .cores())
                .isEqualTo(0.5);
        assertThat(CpuSampler.usage(samples, t0.plusSeconds(2), t0.plusSeconds(3)))
                .isEmpty();
    }

    @Test
    void theReportGivesCoresAndCpuPerRecordPerJvmAndItsHotMethods() throws Exception {
        // This JVM as the only profiled process: its CPU time is real, and the recording above.
        // The window opens before the sampler starts, and a sample is taken in it on this thread:
        // the timer's first sample runs on its own thread and may land before or after any
        // instant read here, and the window needs two samples of its own.
        Instant from = Instant.now();
        CpuSampler sampler =
                CpuSampler.start(Map.of("test", ProcessHandle.current().pid()), Duration.ofHours(1));
        sampler.sample();
        // 300 ms of this thread's CPU, however long the machine takes to give it.
        long cpuFrom = THREADS.getCurrentThreadCpuTime();
        long giveUp = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (THREADS.getCurrentThreadCpuTime() - cpuFrom
                        < Duration.ofMillis(300).toNanos()
                && System.nanoTime() < giveUp) {
            sink += burnCpu(50_000);
        }
        sampler.close();
        Instant to = Instant.now();
        ProfileReport report =
                new ProfileReport(start, end, start.plusMillis(100), 1_000, 800, List.of(), Map.of("test", jfr));
        String md = report.markdown();
        assertThat(md)
                .contains("1,000 records measured")
                .contains("| of which JIT |")
                .contains("## test")
                .contains("`" + ProfileReportTest.class.getName() + ".burnCpu` |")
                .contains("| threads by CPU (user + system, jdk.ThreadCPULoad) | cores |")
                .contains("| `main` | ");

        ProfileReport withCpu = new ProfileReport(from, to, from, 100, 100, sampler.samples(), Map.of());
        double[] cpu = withCpu.cpuAfterWarmup().get("test");
        // CPU per record: the window's CPU seconds over the 100 records, in microseconds. The
        // window is the span between its first and last sample, which a loaded machine can make
        // shorter than from..to by more than any tolerance, so it is taken from the samples too.
        CpuSampler.Usage usage = CpuSampler.usage(sampler.samples(), from, to).get("test");
        // The busy thread's 300 ms are in the process's CPU over the window (the kernel counts in
        // 10 ms ticks, one lost at each end), and the JVM has other threads; the cores it used
        // over the window are more than none and at most the machine's.
        assertThat(usage.cpuSeconds()).isGreaterThanOrEqualTo(0.28);
        assertThat(cpu[0]).isPositive().isLessThanOrEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(cpu[0]).isEqualTo(usage.cores());
        assertThat(cpu[1]).isCloseTo(usage.cpuSeconds() * 1e6 / 100, within(1e-9));
        assertThat(withCpu.markdown()).contains("| test | ");
    }
}
