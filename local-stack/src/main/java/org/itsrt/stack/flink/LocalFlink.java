package org.itsrt.stack.flink;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.itsrt.stack.ChildJvm;

/**
 * A local Flink cluster as a {@link ChildJvm}: a MiniCluster (JobManager and one TaskManager in
 * one process, see {@link ClusterMain}) reachable over REST on a free loopback port, like a
 * session cluster. Its class path is what a Flink distribution's {@code lib/} holds for the ITS
 * job (Flink, TensorFlow Java, Log4j; {@code target/flink-lib-classpath.txt}, written by the build)
 * and nothing of the job itself: the job arrives as a job jar with each submission and is loaded
 * child-first, exactly as {@code flink run} does it.
 *
 * <p>A separate process also gives the job its own heap, garbage collector and process tree,
 * which a CPU budget (cgroup, SCHED_DEADLINE) can then be put on without touching the producers,
 * the probe or the broker.
 */
public final class LocalFlink implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    /** The listing of the child's class path, beside this module's classes (pom.xml, execution flink-lib). */
    static final String CLASS_PATH_LISTING = "flink-lib-classpath.txt";

    private final ChildJvm cluster;
    private final URI restAddress;

    /**
     * How to start the cluster.
     *
     * @param slots        task slots of the TaskManager (at least the job's parallelism)
     * @param heap         the child's -Xms/-Xmx
     * @param jvmArgs      further JVM options (garbage collector, pinning-related flags)
     * @param flinkOptions Flink configuration options, as in {@code config.yaml}
     * @param parentDir    where the work folder goes (default java.io.tmpdir)
     * @param classPath    the child's class path: Flink, TensorFlow, logging, this module's classes
     */
    public record Options(
            int slots,
            String heap,
            List<String> jvmArgs,
            Map<String, String> flinkOptions,
            Path parentDir,
            String classPath) {

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

    private LocalFlink(ChildJvm cluster, URI restAddress) {
        this.cluster = cluster;
        this.restAddress = restAddress;
    }

    /** Starts the cluster and waits for its REST endpoint; fails with the child's log tail if it does not come up. */
    public static LocalFlink start(Options options) {
        ChildJvm cluster = ChildJvm.start(
                "the local Flink cluster",
                options.parentDir(),
                "its-flink-",
                START_TIMEOUT,
                dir -> launch(options, dir),
                dir -> Files.exists(dir.resolve(ClusterMain.ADDRESS_FILE)));
        Path file = cluster.dir().resolve(ClusterMain.ADDRESS_FILE);
        try {
            return new LocalFlink(
                    cluster,
                    new URI(Files.readString(file, StandardCharsets.UTF_8).trim()));
        } catch (IOException | URISyntaxException e) {
            cluster.close();
            throw new IllegalStateException(
                    "the local Flink cluster wrote no usable REST address to " + file + ": " + e.getMessage(), e);
        }
    }

    /** The REST endpoint (and web UI) to submit jobs to. */
    public URI restAddress() {
        return restAddress;
    }

    /** The cluster's process: JobManager and TaskManager, where the job's operators run. */
    public long pid() {
        return cluster.pid();
    }

    /** False once the cluster process has ended, by {@link #close()} or by a crash. */
    public boolean isAlive() {
        return cluster.isAlive();
    }

    /** Waits up to {@code timeout} for the cluster process to end by itself (a crash); true if it did. */
    public boolean awaitExit(Duration timeout) throws InterruptedException {
        return cluster.awaitExit(timeout);
    }

    /** The work folder: {@code cluster.log}, {@code cluster.out}, Flink's temporary files. */
    public Path dir() {
        return cluster.dir();
    }

    @Override
    public void close() {
        cluster.close();
    }

    private static ChildJvm.Launch launch(Options options, Path dir) throws IOException {
        List<String> jvmOptions = new ArrayList<>();
        jvmOptions.add("-Xms" + options.heap());
        jvmOptions.add("-Xmx" + options.heap());
        // The LSTM kernel's vector path (docs/inference.md); scalar loops without it.
        jvmOptions.add("--add-modules");
        jvmOptions.add("jdk.incubator.vector");
        jvmOptions.add("-Djava.awt.headless=true");
        jvmOptions.add("-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("tmp")));
        jvmOptions.add(ChildJvm.log4jToFile(dir, "cluster.log", "%d{HH:mm:ss.SSS} %-5p %c{1} - %m%n"));
        jvmOptions.addAll(options.jvmArgs());
        List<String> args = new ArrayList<>(List.of(dir.toString(), Integer.toString(options.slots())));
        options.flinkOptions().forEach((k, v) -> args.add(k + "=" + v));
        return ChildJvm.Launch.of("cluster", options.classPath(), ClusterMain.class.getName())
                .withJvmOptions(jvmOptions)
                .withArgs(args)
                // TensorFlow's native library logs every model load at INFO.
                .withEnvironmentDefault("TF_CPP_MIN_LOG_LEVEL", "1")
                .withLogFiles("cluster.log");
    }

    /**
     * The Flink processes' class path: what a Flink distribution's {@code lib/} holds for this job
     * (Flink, TensorFlow Java, Log4j) and this module's classes, from {@value #CLASS_PATH_LISTING}
     * beside them (written by the build).
     */
    public static String moduleClassPath() {
        Path self;
        try {
            self = Path.of(LocalFlink.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the local-stack classes", e);
        }
        Path listing = self.getParent().resolve(CLASS_PATH_LISTING);
        if (!Files.isRegularFile(listing)) {
            throw new IllegalStateException("the cluster's class path listing " + listing + " is missing: build "
                    + "local-stack with Maven (mvn -pl local-stack package) first");
        }
        try {
            return self
                    + File.pathSeparator
                    + Files.readString(listing, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + listing, e);
        }
    }
}
