package org.itsrt.clock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The frequency lookup and the per-boot cache, against a simulated counter at 3 GHz. */
class TscFrequencyTest {

    @TempDir
    Path dir;

    Path cache;
    Path bootId;
    ClockOptions options;

    @BeforeEach
    void setUp() throws IOException {
        cache = dir.resolve("cal.json");
        bootId = dir.resolve("boot_id");
        Files.writeString(bootId, CalibrationCacheTest.BOOT_A + "\n", StandardCharsets.US_ASCII);
        options = ClockOptions.defaults()
                .withCacheFile(cache)
                .withBootIdFile(bootId)
                .withCalibrationMillis(30);
    }

    @Test
    void firstProcessCalibratesAndLaterOnesReuseExactlyTheSameConversion() throws Exception {
        FakeCounter counter = new FakeCounter(3_000_000_000L, 123_456_789L);
        TscFrequency.Resolved first = TscFrequency.resolve(counter, "tsc-rdtscp", options);
        assertThat(first.fromCache()).isFalse();
        assertThat(first.note()).isEmpty();
        assertThat(first.conversion().frequencyHz()).isEqualTo(3_000_000_000L);
        assertThat(first.source())
                .startsWith("calibrated against CLOCK_MONOTONIC_RAW (")
                .contains("cached for this boot in " + cache);
        CalibrationCache.Entry written = CalibrationCache.read(cache);
        assertThat(written.bootId()).isEqualTo(CalibrationCacheTest.BOOT_A);
        assertThat(written.counter()).isEqualTo("tsc-rdtscp");

        TscFrequency.Resolved second = TscFrequency.resolve(counter, "tsc-rdtscp", options);
        assertThat(second.fromCache()).isTrue();
        assertThat(second.source()).isEqualTo(first.source());
        assertThat(second.conversion().anchorTicks())
                .isEqualTo(first.conversion().anchorTicks());
        assertThat(second.conversion().anchorNanos())
                .isEqualTo(first.conversion().anchorNanos());
        for (long t = 0; t < 1L << 50; t += 1L << 40) {
            assertThat(second.conversion().toNanos(t))
                    .isEqualTo(first.conversion().toNanos(t));
        }
        // the cached file is not rewritten by readers
        assertThat(CalibrationCache.read(cache)).isEqualTo(written);
    }

    @Test
    void anotherBootsFileIsReplacedSilently() throws Exception {
        FakeCounter counter = new FakeCounter(3_000_000_000L, 0);
        CalibrationCache.write(cache, CalibrationCacheTest.entry(CalibrationCacheTest.BOOT_B));
        TscFrequency.Resolved r = TscFrequency.resolve(counter, "tsc-rdtscp", options);
        assertThat(r.fromCache()).isFalse();
        assertThat(r.note()).isEmpty();
        assertThat(r.conversion().frequencyHz()).isEqualTo(3_000_000_000L);
        assertThat(CalibrationCache.read(cache).bootId()).isEqualTo(CalibrationCacheTest.BOOT_A);
    }

    @Test
    void unreadableFileIsRecalibratedAndSaysSo() throws Exception {
        Files.writeString(cache, "{\"v\":1,\"boot_id\":\"" + CalibrationCacheTest.BOOT_A + "\",\"frequ");
        TscFrequency.Resolved r = TscFrequency.resolve(new FakeCounter(3_000_000_000L, 0), "tsc-rdtscp", options);
        assertThat(r.fromCache()).isFalse();
        assertThat(r.note()).contains("unreadable").contains("recalibrated");
        assertThat(CalibrationCache.read(cache).result().frequencyHz()).isEqualTo(3_000_000_000L);
    }

    @Test
    void aFileThatDoesNotFitTheCounterIsRecalibrated() throws Exception {
        FakeCounter counter = new FakeCounter(3_000_000_000L, 0);
        long raw = System.nanoTime();
        // right frequency and boot, but an anchor 2 s off the counter's real line
        CalibrationCache.write(
                cache,
                new CalibrationCache.Entry(
                        CalibrationCacheTest.BOOT_A,
                        "tsc-rdtscp",
                        new TscCalibration.Result(3_000_000_000L, counter.ticksAt(raw), raw + 2_000_000_000L, 500),
                        "x"));
        TscFrequency.Resolved r = TscFrequency.resolve(counter, "tsc-rdtscp", options);
        assertThat(r.fromCache()).isFalse();
        assertThat(r.note()).contains("off CLOCK_MONOTONIC_RAW");
    }

    @Test
    void aFileForAnotherCounterIsRecalibrated() throws Exception {
        CalibrationCache.write(
                cache,
                new CalibrationCache.Entry(
                        CalibrationCacheTest.BOOT_A,
                        "cntvct",
                        new TscCalibration.Result(3_000_000_000L, 0, 0, 500),
                        "x"));
        TscFrequency.Resolved r = TscFrequency.resolve(new FakeCounter(3_000_000_000L, 0), "tsc-rdtscp", options);
        assertThat(r.fromCache()).isFalse();
        assertThat(CalibrationCache.read(cache).counter()).isEqualTo("tsc-rdtscp");
    }

    @Test
    void withoutABootIdNothingIsCached() throws Exception {
        TscFrequency.Resolved r = TscFrequency.resolve(
                new FakeCounter(3_000_000_000L, 0),
                "tsc-rdtscp",
                options.withBootIdFile(dir.resolve("no-such-boot-id")));
        assertThat(r.source()).contains("not cached").contains("boot id");
        assertThat(cache).doesNotExist();
    }

    @Test
    void aReportedFrequencyIsUsedFromTickZero() throws Exception {
        FakeCounter counter = new FakeCounter(3_000_000_000L, 0).reporting(3_000_000_000L, NativeTsc.SOURCE_CPUID_15);
        TscFrequency.Resolved r = TscFrequency.resolve(counter, "tsc-rdtscp", options);
        assertThat(r.source()).isEqualTo("cpuid leaf 0x15 (crystal clock x TSC ratio)");
        assertThat(r.conversion().frequencyHz()).isEqualTo(3_000_000_000L);
        assertThat(r.conversion().toNanos(3_000_000_000L)).isEqualTo(1_000_000_000L);
        assertThat(cache).doesNotExist();
    }

    @Test
    void aReportedFrequencyThatIsPlainlyWrongIsReplacedByCalibration() throws Exception {
        FakeCounter counter =
                new FakeCounter(3_000_000_000L, 0).reporting(2_000_000_000L, NativeTsc.SOURCE_CPUID_HYPERVISOR);
        TscFrequency.Resolved r = TscFrequency.resolve(counter, "tsc-rdtscp", options);
        assertThat(r.conversion().frequencyHz()).isEqualTo(3_000_000_000L);
        assertThat(r.note()).contains("0x40000010").contains("2000000000 Hz");
        assertThat(r.source()).startsWith("calibrated against CLOCK_MONOTONIC_RAW");
    }
}
