package org.itsrt.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * its-common's own class path has no {@code libitsclock.so} (it is built into the producers jar),
 * so every attempt here to open the TSC must end in a working nanoTime clock that says why.
 */
class ClocksFallbackTest {

    @TempDir
    Path dir;

    ClockOptions invariantX86;

    @BeforeEach
    void setUp() throws IOException {
        Path cpuinfo = dir.resolve("cpuinfo");
        Files.writeString(cpuinfo, TscInvarianceTest.cpuinfo(TscInvarianceTest.FLAGS_OK, TscInvarianceTest.FLAGS_OK));
        invariantX86 = ClockOptions.defaults().withOsArch("amd64")
                .withLibraryResource(NativeLibraryLoader.defaultResource("amd64"))
                .withCpuinfoFile(cpuinfo).withCacheFile(dir.resolve("cal.json"));
    }

    @Test
    void libraryNotOnTheClassPath() {
        assertThat(getClass().getClassLoader().getResource(NativeLibraryLoader.defaultResource("amd64"))).isNull();
        LatencyClock c = Clocks.open(invariantX86);
        assertThat(c).isInstanceOf(NanoTimeClock.class);
        assertThat(c.info().name()).isEqualTo("nanotime");
        assertThat(c.info().frequencyHz()).isEqualTo(1e9);
        assertThat(c.info().warning())
                .contains("org/itsrt/clock/native/linux-amd64/libitsclock.so")
                .contains("not on the class path")
                .contains("System.nanoTime");
        assertThat(c.info().describe()).startsWith("nanotime at 1000.000 MHz (jvm); ").contains("not on the class path");
        long a = c.nanos();
        long b = c.nanos();
        assertThat(b).isGreaterThanOrEqualTo(a);
        assertThat(dir.resolve("cal.json")).doesNotExist();
    }

    @Test
    void explicitLibraryFileThatIsAbsent() {
        LatencyClock c = Clocks.open(invariantX86.withLibraryFile(dir.resolve("libitsclock.so")));
        assertThat(c.info().name()).isEqualTo("nanotime");
        assertThat(c.info().warning()).contains("libitsclock.so does not exist");
    }

    @Test
    void nonInvariantTscFallsBackNamingTheFlag() throws IOException {
        Path cpuinfo = Files.writeString(dir.resolve("cpuinfo-old"),
                TscInvarianceTest.cpuinfo(TscInvarianceTest.FLAGS_OK.replace(" nonstop_tsc", "")));
        LatencyClock c = Clocks.open(invariantX86.withCpuinfoFile(cpuinfo));
        assertThat(c.info().name()).isEqualTo("nanotime");
        assertThat(c.info().warning()).contains("nonstop_tsc").doesNotContain("constant_tsc");
    }

    @Test
    void unsupportedArchitecture() {
        LatencyClock c = Clocks.open(invariantX86.withOsArch("riscv64"));
        assertThat(c.info().name()).isEqualTo("nanotime");
        assertThat(c.info().warning()).contains("riscv64");
    }

    @Test
    void forcedNanoTimeNeverTouchesTheLibrary() {
        LatencyClock c = Clocks.open(invariantX86.withChoice(ClockOptions.Choice.NANOTIME));
        assertThat(c.info().name()).isEqualTo("nanotime");
        assertThat(c.info().warning()).contains("itsrt.clock=nanotime");
    }

    @Test
    void forcedTscIsAnErrorWhenItCannotLoad() {
        assertThatThrownBy(() -> Clocks.open(invariantX86.withChoice(ClockOptions.Choice.TSC)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("itsrt.clock=tsc")
                .hasMessageContaining("not on the class path");
    }

    @Test
    void systemClockOfThisModuleIsTheFallback() {
        LatencyClock c = Clocks.system();
        assertThat(c).isSameAs(Clocks.system());
        assertThat(c.info().name()).isEqualTo("nanotime");
        assertThat(c.info().warning()).isNotEmpty();
    }

    @Test
    void choiceParsing() {
        assertThat(ClockOptions.Choice.parse(" TSC ")).isEqualTo(ClockOptions.Choice.TSC);
        assertThat(ClockOptions.Choice.parse("nanotime")).isEqualTo(ClockOptions.Choice.NANOTIME);
        assertThatThrownBy(() -> ClockOptions.Choice.parse("hpet")).hasMessageContaining("auto, tsc or nanotime");
    }
}
