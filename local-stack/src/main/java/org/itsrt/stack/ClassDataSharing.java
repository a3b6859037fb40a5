package org.itsrt.stack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Application class-data sharing (AppCDS) for the JVMs this project starts: a JVM started with
 * {@code -XX:SharedArchiveFile} maps the classes it loaded last time, already parsed and verified,
 * instead of reading them from the jars, which shortens its start and its first seconds of work.
 *
 * <p>One archive per role (the broker, a JobManager, a TaskManager, ...) and per <em>key</em>: the
 * JDK, the class path (every entry's size and modification time) and the JVM options that change
 * what the JVM maps (everything but {@code -D} properties). A JVM with no archive for its key makes
 * one when it exits ({@code -XX:ArchiveClassesAtExit}, JDK 13+); the archive is published only
 * after a throwaway JVM has mapped it with {@code -Xshare:on}, and under a name that holds its size,
 * because the JDK writes it in place and a JVM that maps a truncated archive crashes. A new key
 * makes a new archive and the role's older ones are removed, so the JVM's own refusal of a
 * mismatched archive is never reached in practice; were it reached, the JVM warns in one line and
 * starts without it ({@code -Xshare:auto}, the default).
 *
 * <p>Only classes of the JDK's built-in loaders are archived by JDK 17: the class path's jars, not
 * a folder of classes before a jar (such a class path gets no archive: the JDK refuses to dump it),
 * and not what a custom class loader loads (Flink's user-code class loader, i.e. the job jar).
 *
 * <p>{@value #SWITCH_VARIABLE}{@code =off} turns it off; {@value #DIR_VARIABLE} moves the cache
 * (default {@code $XDG_CACHE_HOME/its-rt/cds}, else {@code ~/.cache/its-rt/cds}).
 */
public final class ClassDataSharing {

    /** {@code off} (or {@code 0}, {@code false}, {@code no}): no archive is used or made. */
    public static final String SWITCH_VARIABLE = "ITS_CDS";

    /** The folder the archives are kept in. */
    public static final String DIR_VARIABLE = "ITS_CDS_DIR";

    private static final String NOTE_PREFIX = "its-cds: ";

    /** ROLE-KEY-SIZE.jsa: the size is what the archive had when it was checked. */
    private static final Pattern PUBLISHED = Pattern.compile("(.+)-([0-9a-f]{16})-(\\d+)\\.jsa");

    /** How long the throwaway JVM that checks a new archive may take. */
    private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(30);

    /** Dumps abandoned by a JVM that died mid-way are removed once this old. */
    private static final Duration STALE_DUMP = Duration.ofHours(1);

    /** Whether this JDK can dump with given options; probed once per JVM and option set. */
    private static final Map<List<String>, Boolean> DUMP_SUPPORT = new ConcurrentHashMap<>();

    /** Notes already given, so that ten TaskManagers do not say the same thing ten times. */
    private static final Set<String> NOTES_GIVEN = ConcurrentHashMap.newKeySet();

    private final Path dir;
    private final Path javaHome;
    private final Consumer<String> notes;

    private ClassDataSharing(Path dir, Path javaHome, Consumer<String> notes) {
        this.dir = dir;
        this.javaHome = javaHome;
        this.notes = notes;
    }

    /** Archives in {@code dir} for JVMs of this JVM's JDK; notes go to {@code notes}. */
    public static ClassDataSharing in(Path dir, Consumer<String> notes) {
        return new ClassDataSharing(dir.toAbsolutePath(), Path.of(System.getProperty("java.home")), notes);
    }

    /** Never uses or makes an archive. */
    public static ClassDataSharing off() {
        return new ClassDataSharing(null, Path.of(System.getProperty("java.home")), note -> {});
    }

    /** As the environment says ({@value #SWITCH_VARIABLE}, {@value #DIR_VARIABLE}); notes on stderr. */
    public static ClassDataSharing fromEnvironment() {
        return fromEnvironment(System.getenv(), System.err::println);
    }

    static ClassDataSharing fromEnvironment(Map<String, String> environment, Consumer<String> notes) {
        String enabled = environment.getOrDefault(SWITCH_VARIABLE, "on").trim().toLowerCase(java.util.Locale.ROOT);
        if (Set.of("off", "0", "false", "no").contains(enabled)) {
            return off();
        }
        return in(cacheDir(environment), notes);
    }

    static Path cacheDir(Map<String, String> environment) {
        String explicit = environment.get(DIR_VARIABLE);
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        String xdg = environment.get("XDG_CACHE_HOME");
        Path cache = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return cache.resolve("its-rt").resolve("cds");
    }

    public boolean enabled() {
        return dir != null;
    }

    /** The folder the archives are in (null when off). */
    public Path dir() {
        return dir;
    }

    /**
     * What a JVM of {@code role} on {@code classPath} with {@code jvmOptions} starts with: an
     * archive to map, or one to make at its exit, or nothing (off, a class path the JDK cannot
     * archive, a JDK that cannot dump). Never fails: a problem becomes a note and no archive.
     */
    public Use prepare(String role, String classPath, List<String> jvmOptions) {
        if (dir == null) {
            return Use.NONE;
        }
        try {
            Optional<String> unarchivable = unarchivableClassPath(classPath);
            if (unarchivable.isPresent()) {
                noteOnce(role + " " + unarchivable.get(), role + ": no class-data archive: " + unarchivable.get());
                return Use.NONE;
            }
            List<String> keyOptions = keyOptions(jvmOptions);
            String key = key(classPath, keyOptions);
            Files.createDirectories(dir);
            Optional<Path> archive = published(role, key);
            if (archive.isPresent()) {
                return new Use(List.of("-XX:SharedArchiveFile=" + archive.get()), this, null);
            }
            if (records(jvmOptions)) {
                // The JDK turns JFR off in a JVM that dumps an archive ("JFR will be disabled during
                // CDS dumping"), and a profiled run would lose its recording to it.
                noteOnce(
                        role + " recording",
                        role + ": no class-data archive yet, and this start records with JFR, which a JVM "
                                + "making one cannot: it starts without one");
                return Use.NONE;
            }
            if (!canDump(keyOptions)) {
                noteOnce(
                        role + " no-dump",
                        role + ": no class-data archive: this JVM cannot make one (" + javaHome + ")");
                return Use.NONE;
            }
            Path dump = dir.resolve(role + "-" + key + "." + UUID.randomUUID() + ".dump");
            notes.accept(NOTE_PREFIX + role + ": no class-data archive yet for this JDK and class path: this start "
                    + "makes one at its exit (" + dir + ")");
            return new Use(
                    // The dump's own warnings (classes it skips) are no one's business.
                    List.of("-XX:ArchiveClassesAtExit=" + dump, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"),
                    this,
                    new Pending(role, key, dump, classPath, keyOptions));
        } catch (IOException | UncheckedIOException | SecurityException e) {
            noteOnce(role + " io", role + ": no class-data archive (" + e.getMessage() + ")");
            return Use.NONE;
        }
    }

    /** The options of one JVM start and, when it makes an archive, what to do once it has ended. */
    public static final class Use {
        /** No archive: no options, nothing to do afterwards. */
        public static final Use NONE = new Use(List.of(), null, null);

        private final List<String> jvmOptions;
        private final ClassDataSharing owner;
        private final Pending pending;

        private Use(List<String> jvmOptions, ClassDataSharing owner, Pending pending) {
            this.jvmOptions = List.copyOf(jvmOptions);
            this.owner = owner;
            this.pending = pending;
        }

        /** The options to start the JVM with, before its class path. */
        public List<String> jvmOptions() {
            return jvmOptions;
        }

        /** True when this start makes the archive (it maps none). */
        public boolean archiving() {
            return pending != null;
        }

        /**
         * Called once the JVM has ended: a dump it wrote is checked and published, or removed.
         * Never fails.
         */
        public void ended(int exitCode) {
            if (pending != null) {
                owner.publish(pending, exitCode);
            }
        }

        /**
         * Called instead of {@link #ended} for a JVM that failed to start or to finish its work: the
         * classes it loaded are not those of a run, so a dump it wrote is removed. Never fails.
         */
        public void discard() {
            if (pending != null) {
                try {
                    Files.deleteIfExists(pending.dump());
                } catch (IOException ignored) {
                    // a leftover dump is removed by a later publication once stale
                }
            }
        }
    }

    private record Pending(String role, String key, Path dump, String classPath, List<String> keyOptions) {}

    private void publish(Pending pending, int exitCode) {
        try {
            if (!Files.isRegularFile(pending.dump())) {
                return; // a JVM killed before its exit hook writes none
            }
            // 128 + 9: SIGKILL, perhaps in the middle of writing it
            if (exitCode == 137 || !mapsCleanly(pending.dump(), pending.classPath(), pending.keyOptions())) {
                notes.accept(NOTE_PREFIX + pending.role() + ": the class-data archive written at exit (code " + exitCode
                        + ") does not map; dropped, the next start makes another");
                Files.deleteIfExists(pending.dump());
                return;
            }
            long size = Files.size(pending.dump());
            Path target = dir.resolve(pending.role() + "-" + pending.key() + "-" + size + ".jsa");
            try {
                Files.move(pending.dump(), target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(pending.dump(), target, StandardCopyOption.REPLACE_EXISTING);
            } catch (java.nio.file.FileAlreadyExistsException sameSizeFromAnotherJvm) {
                Files.deleteIfExists(pending.dump());
            }
            removeOthers(pending.role(), target);
        } catch (IOException | UncheckedIOException e) {
            notes.accept(NOTE_PREFIX + pending.role() + ": could not keep the class-data archive: " + e.getMessage());
            try {
                Files.deleteIfExists(pending.dump());
            } catch (IOException ignored) {
                // a leftover dump is removed by a later publication once stale
            }
        }
    }

    /**
     * The archive published for this role and key, if one is there whole; a damaged one (its size
     * is not the one it was published with) is removed with a note.
     */
    private Optional<Path> published(String role, String key) throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, role + "-" + key + "-*.jsa")) {
            for (Path file : files) {
                Matcher m = PUBLISHED.matcher(file.getFileName().toString());
                if (!m.matches() || !m.group(1).equals(role)) {
                    continue;
                }
                long expected = Long.parseLong(m.group(3));
                long actual = Files.size(file);
                if (actual == expected) {
                    return Optional.of(file);
                }
                notes.accept(NOTE_PREFIX + role + ": the class-data archive " + file + " is damaged (" + actual
                        + " bytes, published with " + expected + "): removed, this start makes another");
                Files.deleteIfExists(file);
            }
        }
        return Optional.empty();
    }

    /** Removes the role's archives of other keys (an older class path or JDK) and stale dumps. */
    private void removeOthers(String role, Path keep) throws IOException {
        long staleBefore = System.currentTimeMillis() - STALE_DUMP.toMillis();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                Matcher m = PUBLISHED.matcher(name);
                boolean olderArchive = m.matches() && m.group(1).equals(role) && !file.equals(keep);
                boolean staleDump = name.endsWith(".dump")
                        && Files.getLastModifiedTime(file).toMillis() < staleBefore;
                if (olderArchive || staleDump) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    /**
     * Why the JDK cannot archive this class path, if it cannot: JDK 17 refuses to dump (and the
     * JVM then fails at its exit) when a folder holding files comes before a jar it loaded from.
     */
    static Optional<String> unarchivableClassPath(String classPath) {
        List<String> entries = List.of(classPath.split(File.pathSeparator));
        int lastJar = -1;
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).endsWith(".jar")) {
                lastJar = i;
            }
        }
        for (int i = 0; i < lastJar; i++) {
            Path entry = Path.of(entries.get(i));
            if (Files.isDirectory(entry) && !isEmptyDirectory(entry)) {
                return Optional.of("the class path has the folder " + entry
                        + " before its jars (the JDK archives classes from jars only)");
            }
        }
        return Optional.empty();
    }

    private static boolean isEmptyDirectory(Path folder) {
        try (DirectoryStream<Path> any = Files.newDirectoryStream(folder)) {
            return !any.iterator().hasNext();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The JVM options that decide what a JVM maps: modules, heap and collector ({@code -X...},
     * {@code --...}); {@code -D} properties do not, and some of them name a run's own folders;
     * nor do the flight recorder's.
     */
    static List<String> keyOptions(List<String> jvmOptions) {
        List<String> kept = new ArrayList<>();
        for (String option : jvmOptions) {
            boolean property = option.startsWith("-D");
            boolean ours = option.startsWith("-XX:SharedArchiveFile")
                    || option.startsWith("-XX:ArchiveClassesAtExit")
                    || option.startsWith("-Xlog:");
            if (!property && !ours && !isFlightRecorderOption(option)) {
                kept.add(option);
            }
        }
        return kept;
    }

    /**
     * A flight recording changes nothing the JVM maps, so a profiled JVM maps the same archive as
     * an unprofiled one; it cannot make one ({@link #prepare}).
     */
    static boolean isFlightRecorderOption(String option) {
        return option.startsWith("-XX:StartFlightRecording")
                || option.startsWith("-XX:FlightRecorderOptions")
                || option.equals("-XX:+FlightRecorder");
    }

    private static boolean records(List<String> jvmOptions) {
        return jvmOptions.stream().anyMatch(ClassDataSharing::isFlightRecorderOption);
    }

    /** The JDK (its path, version and class library), the class path with each entry's size and time, the options. */
    String key(String classPath, List<String> keyOptions) throws IOException {
        StringBuilder text = new StringBuilder();
        text.append(javaHome)
                .append('\n')
                .append(System.getProperty("java.vm.version"))
                .append('\n');
        text.append(fileStamp(javaHome.resolve("lib").resolve("modules"))).append('\n');
        for (String entry : classPath.split(File.pathSeparator)) {
            text.append(entry).append(' ').append(fileStamp(Path.of(entry))).append('\n');
        }
        keyOptions.forEach(option -> text.append(option).append('\n'));
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static String fileStamp(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return "-";
        }
        return Files.size(file) + "@" + Files.getLastModifiedTime(file).toMillis();
    }

    /**
     * Whether a JVM of this JDK can dump with these options: it fails to start when the JDK's base
     * archive does not map (no base archive, {@code -Xshare:off}), or does not know the option.
     */
    private boolean canDump(List<String> keyOptions) {
        return DUMP_SUPPORT.computeIfAbsent(List.copyOf(keyOptions), options -> {
            try {
                Path probe = Files.createTempFile(dir, "probe-", ".dump");
                Files.delete(probe);
                List<String> command = new ArrayList<>(List.of(java()));
                command.addAll(options);
                command.addAll(List.of("-XX:ArchiveClassesAtExit=" + probe, "-Xlog:disable", "-version"));
                boolean ok = runQuietly(command);
                Files.deleteIfExists(probe);
                return ok;
            } catch (IOException e) {
                return false;
            }
        });
    }

    /** A throwaway JVM that must map the archive ({@code -Xshare:on}) or fail; a damaged one may crash it. */
    private boolean mapsCleanly(Path archive, String classPath, List<String> keyOptions) {
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(keyOptions);
        command.addAll(List.of("-Xshare:on", "-XX:SharedArchiveFile=" + archive, "-cp", classPath, "-version"));
        return runQuietly(command);
    }

    private String java() {
        return javaHome.resolve("bin").resolve("java").toString();
    }

    private static boolean runQuietly(List<String> command) {
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!process.waitFor(CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                return false;
            }
            return process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void noteOnce(String what, String note) {
        if (NOTES_GIVEN.add(dir + " " + what)) {
            notes.accept(NOTE_PREFIX + note);
        }
    }
}
