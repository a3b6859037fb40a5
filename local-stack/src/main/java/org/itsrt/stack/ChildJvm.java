package org.itsrt.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A JVM started as a child process in a fresh work folder of its own, for a server that a run
 * needs beside it (a Kafka broker, a Flink cluster). It is started when a readiness check holds;
 * its stdout and stderr go to {@code NAME.out} in the folder, and a start that fails reports the
 * tail of its logs. It ends with this JVM: on {@link #close()}, on Ctrl-C (a shutdown hook) and
 * when this JVM dies without running hooks, because the child's main watches its stdin (see
 * {@link ParentWatch}), which this JVM holds open. Closing removes the work folder.
 *
 * <p>A child process rather than a thread of this JVM: the server's garbage collector and threads
 * then share no heap with the code under measurement, and a CPU budget can be put on it alone.
 */
public final class ChildJvm implements AutoCloseable {

    /** How long a stopped child may take for its own orderly shutdown before it is killed. */
    public static final Duration STOP_GRACE = Duration.ofSeconds(20);

    private static final int TAIL_LINES = 30;

    private final String description;
    private final Launch launch;
    private final Path dir;
    private final Thread shutdownHook;
    /** Replaced by {@link #restart()}. */
    private volatile Process process;
    /** Kept for {@link #restart()}. */
    private Duration startTimeout;

    private Readiness readiness;
    /** The class-data archive the current process maps or makes; replaced by {@link #restart()}. */
    private ClassDataSharing.Use classData;
    /** Closed: the process is gone for good and the folder removed (or kept on purpose). */
    private boolean closed;

    /**
     * What to run and how to report on it.
     *
     * @param name        its output goes to {@code NAME.out} in the work folder
     * @param classPath   the child's class path
     * @param jvmOptions  options before the main class (heap, collector, system properties)
     * @param mainClass   the child's main class; it should call {@link ParentWatch}
     * @param args        arguments of the main class
     * @param environment variables set for the child unless this JVM's environment has them
     * @param logFiles    further logs in the work folder that the child writes itself, tailed
     *                    with {@code NAME.out} when it fails to start
     */
    public record Launch(
            String name,
            String classPath,
            List<String> jvmOptions,
            String mainClass,
            List<String> args,
            Map<String, String> environment,
            List<String> logFiles) {

        public Launch {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(classPath, "classPath");
            Objects.requireNonNull(mainClass, "mainClass");
            jvmOptions = List.copyOf(jvmOptions);
            args = List.copyOf(args);
            environment = Map.copyOf(environment);
            logFiles = List.copyOf(logFiles);
        }

        public static Launch of(String name, String classPath, String mainClass) {
            return new Launch(name, classPath, List.of(), mainClass, List.of(), Map.of(), List.of());
        }

        public Launch withJvmOptions(List<String> options) {
            return new Launch(name, classPath, options, mainClass, args, environment, logFiles);
        }

        public Launch withArgs(List<String> arguments) {
            return new Launch(name, classPath, jvmOptions, mainClass, arguments, environment, logFiles);
        }

        /** Another program on the same class path and JVM options (a setup step before the server). */
        public Launch withMain(String otherName, String otherMain, List<String> arguments) {
            return new Launch(otherName, classPath, jvmOptions, otherMain, arguments, environment, logFiles);
        }

        public Launch withEnvironmentDefault(String variable, String value) {
            Map<String, String> all = new LinkedHashMap<>(environment);
            all.put(variable, value);
            return new Launch(name, classPath, jvmOptions, mainClass, args, all, logFiles);
        }

        public Launch withLogFiles(String... files) {
            return new Launch(name, classPath, jvmOptions, mainClass, args, environment, List.of(files));
        }

        List<String> commandLine(List<String> classDataOptions) {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(jvmOptions);
            command.addAll(classDataOptions);
            command.add("-cp");
            command.add(classPath);
            command.add(mainClass);
            command.addAll(args);
            return command;
        }

        ProcessBuilder processBuilder(Path dir, ClassDataSharing.Use classData) {
            // The child runs where this JVM runs, so relative paths in its options mean what the
            // caller meant.
            ProcessBuilder builder = new ProcessBuilder(commandLine(classData.jvmOptions()))
                    .redirectOutput(dir.resolve(name + ".out").toFile())
                    .redirectErrorStream(true);
            environment.forEach(builder.environment()::putIfAbsent);
            return builder;
        }
    }

    /** Writes what the child needs into its (new, empty) work folder and says what to run. */
    @FunctionalInterface
    public interface Preparation {
        Launch prepare(Path dir) throws IOException;
    }

    /** Asked repeatedly while the child starts; true once it serves. */
    @FunctionalInterface
    public interface Readiness {
        boolean isReady(Path dir) throws InterruptedException;
    }

    /**
     * Where children's class-data archives are kept (docs/pipeline.md, "Start-up"); replaced
     * only by tests.
     */
    static volatile ClassDataSharing classDataSharing = ClassDataSharing.fromEnvironment();

    /**
     * The archive's role: the child's name without a trailing number (all TaskManagers load the
     * same classes).
     */
    static String classDataRole(Launch launch) {
        return launch.name().replaceFirst("-\\d+$", "");
    }

    private static ClassDataSharing.Use prepareClassData(Launch launch) {
        return classDataSharing.prepare(classDataRole(launch), launch.classPath(), launch.jvmOptions());
    }

    private ChildJvm(String description, Launch launch, Path dir, Process process, ClassDataSharing.Use classData) {
        this.description = description;
        this.launch = launch;
        this.dir = dir;
        this.process = process;
        this.classData = classData;
        this.shutdownHook = new Thread(() -> close(false), launch.name() + "-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Creates a work folder, prepares it, starts the child there and waits until {@code readiness}
     * holds. If anything fails, the child is killed, the folder removed and the error carries the
     * tail of the child's logs.
     *
     * @param description  what it is, for errors: "the local Kafka broker"
     * @param parentDir    where the work folder goes (null: java.io.tmpdir)
     * @param folderPrefix the start of the work folder's name
     */
    public static ChildJvm start(
            String description,
            Path parentDir,
            String folderPrefix,
            Duration startTimeout,
            Preparation preparation,
            Readiness readiness) {
        Path dir = null;
        ChildJvm child = null;
        try {
            // Absolute: paths into it are handed to the child (Flink's REST server, for one, fails
            // to store an uploaded job jar under a relative temporary folder).
            dir = (parentDir == null
                            ? Files.createTempDirectory(folderPrefix)
                            : Files.createTempDirectory(Files.createDirectories(parentDir), folderPrefix))
                    .toAbsolutePath();
            Launch launch = preparation.prepare(dir);
            ClassDataSharing.Use classData = prepareClassData(launch);
            child = new ChildJvm(
                    description,
                    launch,
                    dir,
                    launch.processBuilder(dir, classData).start(),
                    classData);
            child.startTimeout = startTimeout;
            child.readiness = readiness;
            child.awaitReady();
            return child;
        } catch (IOException e) {
            abandon(child, dir);
            throw new UncheckedIOException("could not start " + description + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            abandon(child, dir);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting " + description, e);
        } catch (RuntimeException e) {
            abandon(child, dir);
            throw e;
        }
    }

    /**
     * Runs a program to its end in a work folder (output in {@code NAME.out}); fails with its
     * output unless it exits with status 0 within {@code timeout}.
     *
     * @param description what it does, for errors: "formatting the KRaft storage"
     */
    public static void runToEnd(String description, Path dir, Launch launch, Duration timeout) throws IOException {
        ClassDataSharing.Use classData = prepareClassData(launch);
        Process process = launch.processBuilder(dir, classData).start();
        try {
            boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (ended && process.exitValue() == 0) {
                classData.ended(0);
            }
            if (!ended || process.exitValue() != 0) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                classData.discard();
                throw new IOException(description
                        + (ended
                                ? " failed with exit code " + process.exitValue()
                                : " did not end within " + timeout.toSeconds() + " s")
                        + ":\n"
                        + tail(dir.resolve(launch.name() + ".out")));
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while " + description, e);
        }
    }

    /**
     * A Log4j 2 configuration in {@code dir} that writes everything at INFO and above to
     * {@code dir/logFile}; returns the JVM option that selects it.
     */
    public static String log4jToFile(Path dir, String logFile, String pattern) throws IOException {
        Path file = dir.resolve("log4j2.properties");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "status = warn",
                        "appender.file.type = File",
                        "appender.file.name = file",
                        "appender.file.fileName = " + dir.resolve(logFile),
                        "appender.file.layout.type = PatternLayout",
                        "appender.file.layout.pattern = " + pattern,
                        "rootLogger.level = info",
                        "rootLogger.appenderRef.file.ref = file",
                        ""),
                StandardCharsets.UTF_8);
        return "-Dlog4j2.configurationFile=" + file.toUri();
    }

    public long pid() {
        return process.pid();
    }

    /** False once the child has ended, by {@link #close()} or by itself (a crash). */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits up to {@code timeout} for the child to end by itself; true if it did. */
    public boolean awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * True when the running process makes its class-data archive at its exit ({@link
     * ClassDataSharing}): ending it by {@link #kill()} would lose the archive.
     */
    public boolean makesClassDataArchive() {
        return classData.archiving();
    }

    /** The work folder; removed by {@link #close()}. */
    public Path dir() {
        return dir;
    }

    /** The child's main log: the first log file it writes itself, else its output ({@code NAME.out}). */
    public Path log() {
        return dir.resolve(
                launch.logFiles().isEmpty()
                        ? launch.name() + ".out"
                        : launch.logFiles().get(0));
    }

    /** The last lines of the child's output and of its own logs. */
    public String logTail() {
        List<String> parts = new ArrayList<>();
        parts.add(tail(dir.resolve(launch.name() + ".out")));
        for (String log : launch.logFiles()) {
            parts.add(tail(dir.resolve(log)));
        }
        return String.join("\n", parts);
    }

    /** Stops the child (its own orderly shutdown, killed after {@link #STOP_GRACE}) and removes the work folder. */
    @Override
    public void close() {
        close(false);
        removeShutdownHook();
    }

    /** {@link #close()}, but the work folder and its logs stay (for a look afterwards). */
    public void closeKeepingFolder() {
        close(true);
        removeShutdownHook();
    }

    /**
     * Stops the process as {@link #close()} does but keeps the work folder, so that
     * {@link #restart()} can start it again on the same data and ports (a broker or ZooKeeper taken
     * down for a while).
     */
    public synchronized void stop() {
        stopProcess(process, classData);
    }

    /** Ends the process at once (SIGKILL), as a crash would; the work folder stays. */
    public synchronized void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        // SIGKILL skips the JVM's exit, where the archive would have been written
        classData.discard();
    }

    /**
     * Starts the process again, in the same folder with the same command, after {@link #stop()},
     * {@link #kill()} or a crash, and waits for it to be ready as at the first start.
     */
    public synchronized void restart() throws InterruptedException, IOException {
        if (closed) {
            throw new IllegalStateException(description + " is closed; it cannot be restarted");
        }
        if (process.isAlive()) {
            throw new IllegalStateException(description + " is running (pid " + process.pid() + ")");
        }
        // After stop() or kill() the archive is dealt with; one that ended by itself (a crash) may
        // have written one of a run that went wrong.
        classData.discard();
        classData = prepareClassData(launch);
        // Appends to NAME.out: the output before the stop stays for a look afterwards.
        process = launch.processBuilder(dir, classData)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dir.resolve(launch.name() + ".out").toFile()))
                .start();
        try {
            awaitReady();
        } catch (RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
    }

    private synchronized void close(boolean keepFolder) {
        if (closed) {
            return;
        }
        closed = true;
        stopProcess(process, classData);
        if (!keepFolder) {
            deleteQuietly(dir);
        }
    }

    private void removeShutdownHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or has run; nothing to remove
        }
    }

    private static void stopProcess(Process process, ClassDataSharing.Use classData) {
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            if (!process.isAlive()) {
                // Written at its exit (SIGTERM runs it too); checked before it is kept.
                classData.ended(process.exitValue());
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void awaitReady() throws InterruptedException {
        Duration timeout = startTimeout;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!readiness.isReady(dir)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        description + " exited with code " + process.exitValue() + " while starting:\n" + logTail());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        description + " was not ready within " + timeout.toSeconds() + " s:\n" + logTail());
            }
            Thread.sleep(50);
        }
    }

    /** A start that failed: the child, if any, is killed without grace; the folder goes. */
    private static void abandon(ChildJvm child, Path dir) {
        if (child != null) {
            child.closed = true;
            child.process.destroyForcibly();
            try {
                if (child.process.waitFor(10, TimeUnit.SECONDS)) {
                    // a start that failed is no run to archive
                    child.classData.discard();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(child.shutdownHook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // the hook is running or has run
            }
        }
        deleteQuietly(dir);
    }

    private static String tail(Path file) {
        try {
            if (!Files.isReadable(file)) {
                return "--- " + file.getFileName() + ": none";
            }
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            List<String> lines = new ArrayList<>();
            lines.add("--- " + file.getFileName() + (all.size() > TAIL_LINES ? ", last " + TAIL_LINES + " lines" : ""));
            lines.addAll(all.subList(Math.max(0, all.size() - TAIL_LINES), all.size()));
            return String.join("\n", lines);
        } catch (IOException | UncheckedIOException e) {
            // best effort: the error stays useful without it
            return "--- " + file.getFileName() + ": unreadable (" + e.getMessage() + ")";
        }
    }

    /** Removes a folder and everything in it; a folder that is not there is no error. */
    public static void deleteTree(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** {@link #deleteTree}, ignoring a failure. */
    public static void deleteQuietly(Path dir) {
        try {
            deleteTree(dir);
        } catch (IOException ignored) {
            // a leftover temporary folder is harmless; the run's result does not depend on it
        }
    }

    /**
     * Fails, naming the port and what it was meant for, unless {@code port} can be bound on
     * loopback now: a fixed port that another process holds is reported before any child starts,
     * not as a child that dies starting.
     *
     * @param purpose what would listen there: "Flink REST of JobManager 1"
     */
    public static void requireFreePort(int port, String purpose) {
        requireFreePort(InetAddress.getLoopbackAddress().getHostAddress(), port, purpose);
    }

    /**
     * As {@link #requireFreePort(int, String)} on {@code host}, an address of this machine.
     *
     * @throws IllegalStateException naming the port, or the address when this machine has none such
     */
    public static void requireFreePort(String host, int port, String purpose) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new java.net.InetSocketAddress(InetAddress.getByName(host), port), 1);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(
                    "port " + port + " on " + host + " (" + purpose + "): no such address (" + e.getMessage() + ")");
        } catch (java.net.BindException e) {
            if (e.getMessage() == null || !e.getMessage().contains("in use")) {
                throw new IllegalStateException("port " + port + " on " + host + " (" + purpose + ") cannot be bound ("
                        + e.getMessage() + "): is " + host + " an address of this machine?");
            }
            throw new IllegalStateException("port " + port + " on " + host + " (" + purpose
                    + ") is taken by another process (" + e.getMessage() + ")");
        } catch (IOException e) {
            throw new IllegalStateException("port " + port + " on " + host + " (" + purpose
                    + ") is taken by another process (" + e.getMessage() + ")");
        }
    }

    /**
     * A loopback port that was free a moment ago, for a child to bind. Another process may take
     * it first: the child then fails to start naming the port.
     */
    public static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
