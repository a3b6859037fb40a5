package org.itsrt.flink;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A local Flink cluster as a child JVM: a MiniCluster (JobManager and one TaskManager in one
 * process) reachable over REST on a free loopback port, like a session cluster. Its class path is
 * this module's run-time class path, which is what a Flink distribution's {@code lib/} holds for
 * the ITS job (Flink, TensorFlow Java, Log4j) and nothing of the job itself: the job arrives as a
 * job jar with each submission and is loaded child-first, exactly as {@code flink run} does it.
 *
 * <p>A separate process also gives the job its own heap, garbage collector and process tree,
 * which a CPU budget (cgroup, SCHED_DEADLINE) can then be put on without touching the producers,
 * the probe or the broker. Everything goes on {@link #close()}, on Ctrl-C (a shutdown hook) and
 * when this JVM dies (the child watches its stdin, see {@link ClusterMain}).
 */
public final class LocalFlink implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final Path dir;
    private final Process process;
    private final URI restAddress;
    private final Thread shutdownHook;
    private volatile boolean closed;

    /**
     * How to start the cluster.
     *
     * @param slots        task slots of the TaskManager (at least the job's parallelism)
     * @param heap         the child's -Xms/-Xmx
     * @param jvmArgs      further JVM options (garbage collector, pinning-related flags)
     * @param flinkOptions Flink configuration options, as in {@code config.yaml}
     * @param parentDir    where the work folder goes (default java.io.tmpdir)
     * @param classPath    the child's class path: Flink, TensorFlow, logging, this module
     */
    public record Options(int slots, String heap, List<String> jvmArgs, Map<String, String> flinkOptions,
                          Path parentDir, String classPath) {

        public Options {
            if (slots < 1) {
                throw new IllegalArgumentException("slots must be >= 1, got " + slots);
            }
            jvmArgs = List.copyOf(jvmArgs);
            flinkOptions = Map.copyOf(flinkOptions);
        }

        /** One slot, 1 GB heap, the class path this module was built with. */
        public static Options defaults() {
            return new Options(1, "1g", List.of(), Map.of(), null, moduleClassPath());
        }

        public Options withSlots(int n) {
            return new Options(n, heap, jvmArgs, flinkOptions, parentDir, classPath);
        }

        public Options withHeap(String h) {
            return new Options(slots, h, jvmArgs, flinkOptions, parentDir, classPath);
        }

        public Options withJvmArgs(List<String> args) {
            return new Options(slots, heap, args, flinkOptions, parentDir, classPath);
        }

        public Options withFlinkOptions(Map<String, String> options) {
            Map<String, String> all = new LinkedHashMap<>(flinkOptions);
            all.putAll(options);
            return new Options(slots, heap, jvmArgs, all, parentDir, classPath);
        }

        public Options withParentDir(Path parent) {
            return new Options(slots, heap, jvmArgs, flinkOptions, parent, classPath);
        }
    }

    private LocalFlink(Path dir, Process process, URI restAddress) {
        this.dir = dir;
        this.process = process;
        this.restAddress = restAddress;
        this.shutdownHook = new Thread(this::stop, "local-flink-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts the cluster and waits for its REST endpoint; fails with the child's log tail if it does not come up. */
    public static LocalFlink start(Options options) {
        Path dir = null;
        try {
            // Absolute: Flink's REST server stores uploaded job jars under the temporary folder and
            // fails the upload on a relative one.
            dir = (options.parentDir() == null ? Files.createTempDirectory("its-flink-")
                    : Files.createTempDirectory(Files.createDirectories(options.parentDir()), "its-flink-"))
                    .toAbsolutePath();
            Path log4j = writeLogConfig(dir);
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.add("-Xms" + options.heap());
            command.add("-Xmx" + options.heap());
            // The LSTM kernel's vector path (docs/inference.md); scalar loops without it.
            command.add("--add-modules");
            command.add("jdk.incubator.vector");
            command.add("-Djava.awt.headless=true");
            command.add("-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("tmp")));
            command.add("-Dlog4j2.configurationFile=" + log4j.toUri());
            command.addAll(options.jvmArgs());
            command.add("-cp");
            command.add(options.classPath());
            command.add(ClusterMain.class.getName());
            command.add(dir.toString());
            command.add(Integer.toString(options.slots()));
            options.flinkOptions().forEach((k, v) -> command.add(k + "=" + v));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectOutput(dir.resolve("cluster.out").toFile())
                    .redirectErrorStream(true);
            // TensorFlow's native library logs every model load at INFO.
            builder.environment().putIfAbsent("TF_CPP_MIN_LOG_LEVEL", "1");
            Process process = builder.start();
            URI rest = awaitAddress(dir, process);
            return new LocalFlink(dir, process, rest);
        } catch (IOException e) {
            deleteQuietly(dir);
            throw new UncheckedIOException("could not start a local Flink cluster: " + e.getMessage(), e);
        }
    }

    /** The REST endpoint (and web UI) to submit jobs to. */
    public URI restAddress() {
        return restAddress;
    }

    /** The cluster's process: JobManager and TaskManager, where the job's operators run. */
    public long pid() {
        return process.pid();
    }

    /** False once the cluster process has ended, by {@link #close()} or by a crash. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits up to {@code timeout} for the cluster process to end by itself (a crash); true if it did. */
    public boolean awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The work folder: {@code cluster.log}, {@code cluster.out}, Flink's temporary files. */
    public Path dir() {
        return dir;
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or has run
        }
    }

    private synchronized void stop() {
        if (closed) {
            return;
        }
        closed = true;
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        deleteQuietly(dir);
    }

    private static URI awaitAddress(Path dir, Process process) throws IOException {
        Path file = dir.resolve(ClusterMain.ADDRESS_FILE);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        try {
            while (!Files.exists(file)) {
                if (!process.isAlive()) {
                    String tail = logTail(dir);
                    deleteQuietly(dir);
                    throw new IllegalStateException("the local Flink cluster exited with code " + process.exitValue()
                            + " while starting:\n" + tail);
                }
                if (System.nanoTime() > deadline) {
                    String tail = logTail(dir);
                    process.destroyForcibly();
                    deleteQuietly(dir);
                    throw new IllegalStateException("the local Flink cluster did not come up within "
                            + START_TIMEOUT.toSeconds() + " s:\n" + tail);
                }
                Thread.sleep(50);
            }
            return new URI(Files.readString(file, StandardCharsets.UTF_8).trim());
        } catch (InterruptedException e) {
            process.destroyForcibly();
            deleteQuietly(dir);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the local Flink cluster", e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("the local Flink cluster wrote a bad address: " + e.getMessage(), e);
        }
    }

    /**
     * This module's classes and its run-time class path, from {@code target/classpath.txt} beside
     * them (written by the build).
     */
    static String moduleClassPath() {
        Path self;
        try {
            self = Path.of(LocalFlink.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the local-flink classes", e);
        }
        Path listing = self.getParent().resolve("classpath.txt");
        if (!Files.isRegularFile(listing)) {
            throw new IllegalStateException("the cluster's class path listing " + listing + " is missing: build "
                    + "local-flink with Maven (mvn -pl local-flink package) first");
        }
        try {
            return self + File.pathSeparator + Files.readString(listing, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + listing, e);
        }
    }

    private static Path writeLogConfig(Path dir) throws IOException {
        Path file = dir.resolve("log4j2.properties");
        Files.writeString(file, String.join("\n",
                "status = warn",
                "appender.file.type = File",
                "appender.file.name = file",
                "appender.file.fileName = " + dir.resolve("cluster.log"),
                "appender.file.layout.type = PatternLayout",
                "appender.file.layout.pattern = %d{HH:mm:ss.SSS} %-5p %c{1} - %m%n",
                "rootLogger.level = info",
                "rootLogger.appenderRef.file.ref = file",
                ""));
        return file;
    }

    private static String logTail(Path dir) {
        List<String> lines = new ArrayList<>();
        for (String name : List.of("cluster.out", "cluster.log")) {
            Path file = dir.resolve(name);
            try {
                if (Files.isReadable(file)) {
                    List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
                    lines.addAll(all.subList(Math.max(0, all.size() - 30), all.size()));
                }
            } catch (IOException ignored) {
                // best effort: the error stays useful without it
            }
        }
        return String.join("\n", lines);
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp folder is harmless
        }
    }
}
