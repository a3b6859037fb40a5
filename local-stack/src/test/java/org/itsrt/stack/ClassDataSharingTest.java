package org.itsrt.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archive creation, use and every fallback, on real JVMs of this JDK running a one-class program
 * from a jar (a second or two per JVM on a busy machine).
 */
class ClassDataSharingTest {

    @TempDir
    Path temp;

    private Path cache;
    private Path jar;
    private final List<String> notes = new ArrayList<>();
    private ClassDataSharing sharing;

    @BeforeEach
    void setUp() throws IOException {
        cache = temp.resolve("cds");
        jar = programJar(temp.resolve("program.jar"));
        sharing = ClassDataSharing.in(cache, notes::add);
    }

    @Test
    void firstStartMakesTheArchiveAtExitAndTheNextMapsIt() throws Exception {
        ClassDataSharing.Use first = sharing.prepare("program", jar.toString(), List.of("-Xmx32m"));
        assertThat(first.archiving()).isTrue();
        assertThat(first.jvmOptions()).anyMatch(o -> o.startsWith("-XX:ArchiveClassesAtExit="));
        assertThat(notes).anyMatch(n -> n.contains("program: no class-data archive yet"));
        first.ended(run(first, "-Xmx32m"));
        assertThat(archives()).singleElement().satisfies(a -> assertThat(
                        a.getFileName().toString())
                .matches("program-[0-9a-f]{16}-" + Files.size(a) + "\\.jsa"));

        ClassDataSharing.Use second = sharing.prepare("program", jar.toString(), List.of("-Xmx32m"));
        assertThat(second.archiving()).isFalse();
        assertThat(second.jvmOptions())
                .containsExactly("-XX:SharedArchiveFile=" + archives().get(0));
        // -Xlog:class+load names where each class came from: the program's own class from the archive.
        Process mapped = start(second, "-Xmx32m", "-Xlog:class+load=info");
        String output = new String(mapped.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(mapped.waitFor()).isZero();
        assertThat(output).contains("CdsProgram source: shared objects file (top)", "program ran");
    }

    @Test
    void anotherClassPathOrJvmOptionMakesAnotherArchiveAndTheOldOneGoes() throws Exception {
        makeArchive("-Xmx32m");
        Path old = archives().get(0);
        Files.setLastModifiedTime(
                jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));
        ClassDataSharing.Use rebuilt = sharing.prepare("program", jar.toString(), List.of("-Xmx32m"));
        assertThat(rebuilt.archiving()).isTrue();
        rebuilt.ended(run(rebuilt, "-Xmx32m"));
        assertThat(archives()).singleElement().isNotEqualTo(old);

        assertThat(sharing.prepare("program", jar.toString(), List.of("-Xmx64m"))
                        .archiving())
                .as("a heap option is part of the key")
                .isTrue();
        assertThat(sharing.prepare("program", jar.toString(), List.of("-Xmx32m", "-Dlog.file=/elsewhere"))
                        .archiving())
                .as("a system property is not")
                .isFalse();
    }

    @Test
    void aTruncatedArchiveIsRemovedAndTheStartRunsWithoutIt() throws Exception {
        makeArchive("-Xmx32m");
        Path archive = archives().get(0);
        byte[] whole = Files.readAllBytes(archive);
        archive.toFile().setWritable(true);
        Files.write(archive, java.util.Arrays.copyOf(whole, whole.length / 3));

        ClassDataSharing.Use use = sharing.prepare("program", jar.toString(), List.of("-Xmx32m"));
        assertThat(use.archiving()).as("made again").isTrue();
        assertThat(notes).anyMatch(n -> n.contains("is damaged"));
        assertThat(archive).doesNotExist();
        assertThat(run(use, "-Xmx32m")).isZero();
    }

    @Test
    void anArchiveTheJvmRefusesLeavesTheStartToRunWithoutIt() throws Exception {
        // An archive of this key whose content is another class path's: the JVM's own check refuses
        // it, warns and starts without it (what a stale archive would meet).
        Path otherJar = programJar(temp.resolve("other.jar"));
        ClassDataSharing.Use other = sharing.prepare("other", otherJar.toString(), List.of("-Xmx32m"));
        other.ended(run(other, "-Xmx32m", otherJar));
        Path foreign = archives().get(0);
        ClassDataSharing.Use making = sharing.prepare("program", jar.toString(), List.of("-Xmx32m"));
        String key = making.jvmOptions().get(0).replaceAll(".*/program-([0-9a-f]{16})\\..*", "$1");
        Files.move(foreign, cache.resolve("program-" + key + "-" + Files.size(foreign) + ".jsa"));

        ClassDataSharing.Use use = sharing.prepare("program", jar.toString(), List.of("-Xmx32m"));
        assertThat(use.archiving()).isFalse();
        Process process = start(use, "-Xmx32m");
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).isZero();
        assertThat(output).contains("program ran");
    }

    @Test
    void aDumpFromAKilledJvmOrOneThatDoesNotMapIsDropped() throws Exception {
        ClassDataSharing.Use killed = sharing.prepare("program", jar.toString(), List.of());
        Path dump = Path.of(killed.jvmOptions().get(0).substring("-XX:ArchiveClassesAtExit=".length()));
        Files.write(dump, new byte[4096]);
        killed.ended(137);
        assertThat(dump).doesNotExist();

        ClassDataSharing.Use garbage = sharing.prepare("program", jar.toString(), List.of());
        Path garbageDump = Path.of(garbage.jvmOptions().get(0).substring("-XX:ArchiveClassesAtExit=".length()));
        Files.write(garbageDump, "not an archive".repeat(1000).getBytes(StandardCharsets.UTF_8));
        garbage.ended(0);
        assertThat(garbageDump).doesNotExist();
        assertThat(archives()).isEmpty();
        assertThat(notes).anyMatch(n -> n.contains("does not map; dropped"));

        // A JVM that failed to start wrote a dump of a start gone wrong: not kept, even though it maps.
        ClassDataSharing.Use failed = sharing.prepare("program", jar.toString(), List.of("-Xmx32m"));
        assertThat(run(failed, "-Xmx32m")).isZero();
        failed.discard();
        assertThat(archives()).isEmpty();
        try (Stream<Path> files = Files.list(cache)) {
            assertThat(files).noneMatch(f -> f.toString().endsWith(".dump"));
        }
    }

    @Test
    void aFolderOfClassesBeforeAJarGetsNoArchiveAfterTheLastJarItDoes() throws IOException {
        Path classes = Files.createDirectories(temp.resolve("classes"));
        Files.writeString(classes.resolve("A.class"), "x");
        Path empty = Files.createDirectories(temp.resolve("empty"));

        assertThat(ClassDataSharing.unarchivableClassPath(classes + File.pathSeparator + jar))
                .hasValueSatisfying(reason -> assertThat(reason).contains(classes.toString()));
        assertThat(ClassDataSharing.unarchivableClassPath(jar + File.pathSeparator + classes))
                .isEmpty();
        assertThat(ClassDataSharing.unarchivableClassPath(empty + File.pathSeparator + jar))
                .isEmpty();

        ClassDataSharing.Use use = sharing.prepare("program", classes + File.pathSeparator + jar, List.of());
        assertThat(use.jvmOptions()).isEmpty();
        assertThat(notes).anyMatch(n -> n.contains("before its jars"));
    }

    @Test
    void offByTheEnvironmentMeansNoOptionsAndNoFolder() {
        ClassDataSharing off = ClassDataSharing.fromEnvironment(
                Map.of(ClassDataSharing.SWITCH_VARIABLE, "off", ClassDataSharing.DIR_VARIABLE, cache.toString()),
                notes::add);
        assertThat(off.enabled()).isFalse();
        assertThat(off.prepare("program", jar.toString(), List.of()).jvmOptions())
                .isEmpty();
        assertThat(cache).doesNotExist();

        assertThat(ClassDataSharing.cacheDir(Map.of(ClassDataSharing.DIR_VARIABLE, "/x/cds")))
                .isEqualTo(Path.of("/x/cds"));
        assertThat(ClassDataSharing.cacheDir(Map.of("XDG_CACHE_HOME", "/x/cache")))
                .isEqualTo(Path.of("/x/cache/its-rt/cds"));
    }

    @Test
    void keyOptionsLeaveOutPropertiesAndTheArchiveAndRecorderOptions() {
        assertThat(ClassDataSharing.keyOptions(List.of(
                        "-Xmx512m",
                        "--add-modules=jdk.incubator.vector",
                        "-Dlog.file=/tmp/x",
                        "-XX:SharedArchiveFile=/a.jsa",
                        "-XX:StartFlightRecording=name=its-profile",
                        "-XX:+UseG1GC")))
                .containsExactly("-Xmx512m", "--add-modules=jdk.incubator.vector", "-XX:+UseG1GC");
    }

    @Test
    void aRecordingJvmMapsTheArchiveOfItsKeyButNeverMakesOne() throws Exception {
        String recording = "-XX:StartFlightRecording=name=its-profile,settings=profile";
        ClassDataSharing.Use profiledFirst = sharing.prepare("program", jar.toString(), List.of("-Xmx32m", recording));
        assertThat(profiledFirst.archiving()).isFalse();
        assertThat(profiledFirst.jvmOptions()).isEmpty();
        assertThat(notes).anyMatch(n -> n.contains("records with JFR"));

        makeArchive("-Xmx32m");
        ClassDataSharing.Use profiled = sharing.prepare("program", jar.toString(), List.of("-Xmx32m", recording));
        assertThat(profiled.jvmOptions())
                .containsExactly("-XX:SharedArchiveFile=" + archives().get(0));
    }

    @Test
    void aChildsRoleIsItsNameWithoutItsNumber() {
        assertThat(ChildJvm.classDataRole(ChildJvm.Launch.of("taskmanager-2", "cp", "Main")))
                .isEqualTo("taskmanager");
        assertThat(ChildJvm.classDataRole(ChildJvm.Launch.of("broker", "cp", "Main")))
                .isEqualTo("broker");
    }

    private void makeArchive(String... jvmOptions) throws Exception {
        ClassDataSharing.Use use = sharing.prepare("program", jar.toString(), List.of(jvmOptions));
        assertThat(use.archiving()).isTrue();
        use.ended(run(use, jvmOptions));
        assertThat(archives()).hasSize(1);
    }

    private List<Path> archives() throws IOException {
        try (Stream<Path> files = Files.list(cache)) {
            return files.filter(f -> f.toString().endsWith(".jsa")).sorted().toList();
        }
    }

    private int run(ClassDataSharing.Use use, String... jvmOptions) throws Exception {
        return run(use, jvmOptions[0], jar);
    }

    private int run(ClassDataSharing.Use use, String heap, Path programJar) throws Exception {
        Process process = start(use, List.of(heap), programJar);
        process.getInputStream().transferTo(OutputStream.nullOutputStream());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return process.exitValue();
    }

    private Process start(ClassDataSharing.Use use, String... jvmOptions) throws IOException {
        return start(use, List.of(jvmOptions), jar);
    }

    private static Process start(ClassDataSharing.Use use, List<String> jvmOptions, Path programJar)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(use.jvmOptions());
        command.addAll(List.of("-cp", programJar.toString(), CdsProgram.class.getName()));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** A jar with {@link CdsProgram} alone: the JDK archives classes from jars only. */
    private static Path programJar(Path jar) throws IOException {
        String entry = CdsProgram.class.getName().replace('.', '/') + ".class";
        try (InputStream in = CdsProgram.class.getClassLoader().getResourceAsStream(entry);
                JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry(entry));
            in.transferTo(out);
            out.closeEntry();
        }
        return jar;
    }
}
