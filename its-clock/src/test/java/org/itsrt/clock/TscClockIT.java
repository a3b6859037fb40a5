package org.itsrt.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The clock as other processes get it: fresh JVMs whose class path holds the packaged its-clock
 * jar (with the library inside) and slf4j-api, and nothing from target/classes; or a copy of the
 * jar without the library.
 */
class TscClockIT {

    @TempDir
    Path dir;

    static Path clockJar;
    static List<String> supportJars;

    @BeforeAll
    static void findJars() {
        String jar = System.getProperty("itsrt.clock.jar");
        assertThat(jar).as("itsrt.clock.jar (set by its-clock/pom.xml)").isNotBlank();
        clockJar = Path.of(jar);
        assertThat(clockJar).isRegularFile();
        supportJars = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (Path.of(entry).getFileName().toString().startsWith("slf4j-api")) {
                supportJars.add(entry);
            }
        }
        assertThat(supportJars).as("slf4j-api on the test class path").hasSize(1);
    }

    /** Runs ClockReport in a fresh JVM and returns its key=value lines. */
    Map<String, String> report(boolean withLibrary, String... jvmArgs) throws IOException, InterruptedException {
        List<String> cp = new ArrayList<>();
        cp.add((withLibrary ? clockJar : jarWithoutLibrary()).toString());
        cp.addAll(supportJars);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(String.join(File.pathSeparator, cp));
        cmd.add("-Djava.io.tmpdir=" + dir);
        cmd.addAll(List.of(jvmArgs));
        cmd.add("org.itsrt.clock.ClockReport");
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue())
                .as("exit of %s\nstdout:\n%s\nstderr:\n%s", cmd, out, Files.readString(err))
                .isZero();
        Map<String, String> kv = new LinkedHashMap<>();
        for (String line : out.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                kv.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return kv;
    }

    /** A copy of the packaged jar with the classes but without the native library. */
    Path jarWithoutLibrary() throws IOException {
        Path copy = dir.resolve("its-clock-without-library.jar");
        if (Files.exists(copy)) {
            return copy;
        }
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(clockJar));
                ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(copy))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                if (entry.getName().startsWith("org/itsrt/clock/native/")) {
                    continue;
                }
                out.putNextEntry(new ZipEntry(entry.getName()));
                in.transferTo(out);
                out.closeEntry();
            }
        }
        return copy;
    }

    @Test
    void freshJvmLoadsTheLibraryFromThePackagedJar() throws Exception {
        String problem = TscHost.problem();
        assumeTrue(problem == null, "no invariant TSC on this host: " + problem);
        Map<String, String> r = report(true, "-Ditsrt.clock.cache=" + dir.resolve("cal.json"));
        assertThat(r.get("clock")).as(r.toString()).isEqualTo(TscHost.expectedName());
        assertThat(r.get("warning")).isEmpty();
        assertThat(r.get("library"))
                .startsWith("jar:file:")
                .contains(clockJar.getFileName().toString())
                .endsWith("!/" + NativeLibraryLoader.defaultResource(TscHost.arch()));
        assertThat(Double.parseDouble(r.get("frequency_hz"))).isGreaterThan(1e6);
        assertThat(r.get("frequency_source")).isNotBlank();
        // the library was extracted to a temp file, loaded and removed again
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.startsWith("libitsclock"));
        }
    }

    @Test
    void twoProcessesStampOnOneTimeline() throws Exception {
        String problem = TscHost.problem();
        assumeTrue(problem == null, "no invariant TSC on this host: " + problem);
        String cache = "-Ditsrt.clock.cache=" + dir.resolve("cal.json");
        Map<String, String> a = report(true, cache);
        Thread.sleep(1_000);
        Map<String, String> b = report(true, cache);

        assertThat(b.get("clock")).isEqualTo(a.get("clock")).isEqualTo(TscHost.expectedName());
        assertThat(b.get("frequency_hz")).isEqualTo(a.get("frequency_hz"));
        assertThat(b.get("frequency_source")).isEqualTo(a.get("frequency_source"));
        if (a.get("frequency_source").startsWith("calibrated")) {
            // the first process calibrated for this (test) boot cache, the second reused it
            assertThat(a.get("from_cache")).isEqualTo("false");
            assertThat(b.get("from_cache")).isEqualTo("true");
        }

        long tscElapsed = Long.parseLong(b.get("nanos")) - Long.parseLong(a.get("nanos"));
        long nanoTimeElapsed = Long.parseLong(b.get("nanotime")) - Long.parseLong(a.get("nanotime"));
        assertThat(tscElapsed).isPositive();
        assertThat(nanoTimeElapsed).isGreaterThan(1_000_000_000L);
        assertThat(Math.abs(tscElapsed - nanoTimeElapsed) / (double) nanoTimeElapsed)
                .as("A->B: tsc %d ns, nanoTime %d ns", tscElapsed, nanoTimeElapsed)
                .isLessThan(1e-3);
    }

    @Test
    void aJarWithoutTheLibraryFallsBackToNanoTime() throws Exception {
        Map<String, String> r = report(false);
        assertThat(r.get("clock")).isEqualTo("nanotime");
        assertThat(r.get("warning")).contains("not on the class path").contains("System.nanoTime");
        assertThat(r.get("describe")).startsWith("nanotime at 1000.000 MHz (jvm); ");
    }

    @Test
    void nanoTimeCanBeForced() throws Exception {
        Map<String, String> r = report(true, "-Ditsrt.clock=nanotime");
        assertThat(r.get("clock")).isEqualTo("nanotime");
        assertThat(r.get("warning")).contains("itsrt.clock=nanotime");
        assertThat(r.get("library")).isEmpty();
    }
}
