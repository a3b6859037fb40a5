package org.itsrt.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildJvmTest {

    /** Far longer than a JVM takes to start: only a hung child reaches it. */
    private static final Duration GENEROUS = Duration.ofSeconds(60);

    private static final Pattern PID = Pattern.compile("pid (\\d+)");

    /** {@link WaitingMain} as a child, ready once it has said that it waits. */
    static ChildJvm startWaitingMain(Path parent, Duration timeout, String... args) {
        return ChildJvm.start(
                "the waiting child", parent, "waiting-", timeout, dir -> launch(args), dir -> saysItWaits(dir));
    }

    private static ChildJvm.Launch launch(String... args) {
        return ChildJvm.Launch.of("waiting", System.getProperty("java.class.path"), WaitingMain.class.getName())
                .withJvmOptions(List.of("-Xmx32m"))
                .withArgs(List.of(args));
    }

    private static boolean saysItWaits(Path dir) {
        try {
            return Files.readString(dir.resolve("waiting.out"), StandardCharsets.UTF_8)
                    .contains("waiting for the parent");
        } catch (IOException notYet) {
            return false;
        }
    }

    @Test
    void startsOnceReadyWritesItsOutputToItsFolderAndRemovesItOnClose(@TempDir Path parent) throws Exception {
        Path dir;
        ProcessHandle child;
        try (ChildJvm jvm = startWaitingMain(parent, GENEROUS)) {
            dir = jvm.dir();
            child = ProcessHandle.of(jvm.pid()).orElseThrow();
            assertThat(jvm.isAlive()).isTrue();
            assertThat(dir).startsWith(parent).isAbsolute();
            assertThat(Files.readString(dir.resolve("waiting.out"))).contains("pid " + jvm.pid());
            assertThat(jvm.logTail()).contains("--- waiting.out", "waiting for the parent");
        }
        assertThat(child.isAlive()).isFalse();
        assertThat(dir).doesNotExist();
    }

    @Test
    void aKilledChildRestartsInTheSameFolderAndItsEarlierOutputStays(@TempDir Path parent) throws Exception {
        try (ChildJvm jvm = startWaitingMain(parent, GENEROUS)) {
            long first = jvm.pid();
            jvm.kill();
            assertThat(jvm.isAlive()).isFalse();
            assertThat(jvm.dir()).isDirectory();

            jvm.restart();
            assertThat(jvm.isAlive()).isTrue();
            assertThat(jvm.pid()).isNotEqualTo(first);
            assertThatThrownBy(jvm::restart).hasMessageContaining("is running (pid " + jvm.pid() + ")");
            awaitOutput(jvm, "pid " + jvm.pid());
            assertThat(Files.readString(jvm.dir().resolve("waiting.out"))).contains("pid " + first);

            jvm.stop();
            assertThat(jvm.isAlive()).isFalse();
            jvm.restart();
            assertThat(jvm.isAlive()).isTrue();
        }
    }

    @Test
    void closingKeepingTheFolderStopsTheChildButLeavesItsLogs(@TempDir Path parent) throws Exception {
        ChildJvm jvm = startWaitingMain(parent, GENEROUS);
        jvm.closeKeepingFolder();
        assertThat(jvm.isAlive()).isFalse();
        assertThat(jvm.dir().resolve("waiting.out")).content().contains("waiting for the parent");
        assertThatThrownBy(jvm::restart).hasMessageContaining("is closed");
    }

    private static void awaitOutput(ChildJvm jvm, String text) throws Exception {
        long deadline = System.nanoTime() + GENEROUS.toNanos();
        while (!Files.readString(jvm.dir().resolve("waiting.out")).contains(text)) {
            assertThat(System.nanoTime()).as("'" + text + "' in waiting.out").isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    @Test
    void aTakenPortIsNamedWithWhatItWasFor() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> ChildJvm.requireFreePort(taken.getLocalPort(), "Flink REST of JobManager 1"))
                    .hasMessageContaining("port " + taken.getLocalPort())
                    .hasMessageContaining("(Flink REST of JobManager 1) is taken");
        }
        int free = ChildJvm.freeLoopbackPort();
        ChildJvm.requireFreePort(free, "anything");
    }

    @Test
    void aChildThatExitsWhileStartingFailsTheStartWithItsOutput(@TempDir Path parent) throws IOException {
        assertThatThrownBy(() -> startWaitingMain(parent, GENEROUS, "fail"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the waiting child exited with code 3 while starting")
                .hasMessageContaining("no such setting: " + WaitingMain.class.getName());
        assertThat(folders(parent)).as("the work folder is removed").isEmpty();
    }

    @Test
    void aChildThatIsNotReadyInTimeIsKilledAndTheErrorShowsItsOutput(@TempDir Path parent) throws Exception {
        Throwable error = null;
        try (ChildJvm never = ChildJvm.start(
                "the waiting child", parent, "waiting-", Duration.ofSeconds(3), dir -> launch(), dir -> false)) {
            throw new AssertionError("started although never ready: " + never.dir());
        } catch (IllegalStateException e) {
            error = e;
        }
        assertThat(error).hasMessageContaining("the waiting child was not ready within 3 s");
        // The child may not have said anything yet when the time is up; when it has, it is dead now.
        Matcher pid = PID.matcher(error.getMessage());
        if (pid.find()) {
            assertThat(ProcessHandle.of(Long.parseLong(pid.group(1))).filter(ProcessHandle::isAlive))
                    .isEmpty();
        }
        assertThat(folders(parent)).isEmpty();
    }

    @Test
    void aFailingPreparationRemovesTheFolderAndNamesTheChild(@TempDir Path parent) throws IOException {
        assertThatThrownBy(() -> ChildJvm.start(
                        "the waiting child",
                        parent,
                        "waiting-",
                        GENEROUS,
                        dir -> {
                            throw new IOException("cannot write " + dir.resolve("server.properties"));
                        },
                        dir -> true))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("could not start the waiting child: cannot write");
        assertThat(folders(parent)).isEmpty();
    }

    @Test
    void aProgramRunToItsEndFailsWithItsOutputUnlessItSucceeds(@TempDir Path dir) {
        assertThatThrownBy(() -> ChildJvm.runToEnd("checking the setting", dir, launch("fail"), GENEROUS))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("checking the setting failed with exit code 3")
                .hasMessageContaining("no such setting");
    }

    /** The parent dies by SIGKILL, so no hook of its runs: the child sees its stdin end and exits. */
    @Test
    void theChildEndsWhenItsParentIsKilled(@TempDir Path parent) throws Exception {
        Process parentJvm = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx64m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        ParentOfWaitingMain.class.getName(),
                        parent.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        ProcessHandle child;
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(parentJvm.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertThat(line).as("the parent's first line").startsWith("child ");
            child = ProcessHandle.of(Long.parseLong(line.substring("child ".length())))
                    .orElseThrow();
            assertThat(child.isAlive()).isTrue();
        } finally {
            parentJvm.destroyForcibly();
        }
        assertThat(parentJvm.waitFor(GENEROUS.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(child.onExit().get(GENEROUS.toSeconds(), TimeUnit.SECONDS).isAlive())
                .isFalse();
    }

    private static List<Path> folders(Path parent) throws IOException {
        try (Stream<Path> list = Files.list(parent)) {
            return list.toList();
        }
    }
}
