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
 * Every way opening the TSC can fail (the library not on the class path or absent as a file, a
 * TSC that is not invariant, another architecture) must end in a working nanoTime clock that
 * says why.
 */
class ClocksFallbackTest {

    @TempDir
    Path dir;

    /** Where no library is: this module's own one is on the class path under the default resource. */
    static final String ABSENT_RESOURCE = "org/itsrt/clock/native/linux-absent/libitsclock.so";

    ClockOptions invariantX86;

    @BeforeEach
    void setUp() throws IOException {
        Path cpuinfo = dir.resolve("cpuinfo");
        Files.writeString(cpuinfo, TscInvarianceTest.cpuinfo(TscInvarianceTest.FLAGS_OK, TscInvarianceTest.FLAGS_OK));
        invariantX86 = ClockOptions.defaults()
                .withOsArch("amd64")
                .withLibraryResource(ABSENT_RESOURCE)
                .withCpuinfoFile(cpuinfo)
                .withCacheFile(dir.resolve("cal.json"));
    }

    @Test
    void libraryNotOnTheClassPath() {
        assertThat(getClass().getClassLoader().getResource(ABSENT_RESOURCE)).isNull();
        LatencyClock c = Clocks.open(invariantX86);
        assertThat(c).isInstanceOf(NanoTimeClock.class);
        assertThat(c.info().name()).isEqualTo("nanotime");
        assertThat(c.info().frequencyHz()).isEqualTo(1e9);
        assertThat(c.info().warning())
                .contains(ABSENT_RESOURCE)
                .contains("not on the class path")
                .contains("System.nanoTime");
        assertThat(c.info().describe())
                .startsWith("nanotime at 1000.000 MHz (jvm); ")
                .contains("not on the class path");
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
        Path cpuinfo = Files.writeString(
                dir.resolve("cpuinfo-old"),
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
    void choiceParsing() {
        assertThat(ClockOptions.Choice.parse(" TSC ")).isEqualTo(ClockOptions.Choice.TSC);
        assertThat(ClockOptions.Choice.parse("nanotime")).isEqualTo(ClockOptions.Choice.NANOTIME);
        assertThatThrownBy(() -> ClockOptions.Choice.parse("hpet")).hasMessageContaining("auto, tsc or nanotime");
    }
}
