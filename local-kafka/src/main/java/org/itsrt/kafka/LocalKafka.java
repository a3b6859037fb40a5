package org.itsrt.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * A real single-node Kafka 4.x broker in KRaft mode (broker and controller in one process) as a
 * child JVM, for local runs and tests: free loopback ports, its own temporary data folder, topics
 * created on request, and everything removed on {@link #close()}, on Ctrl-C (a shutdown hook) and
 * when this JVM dies (the child watches its stdin, see {@link BrokerMain}).
 *
 * <p>A child process rather than a broker inside this JVM: the broker's garbage collector and
 * threads then do not share a heap with the code under measurement, as in a deployment.
 */
public final class LocalKafka implements AutoCloseable {

    /** The pipeline's topics (docs/records.md). */
    public static final List<String> PIPELINE_TOPICS = org.itsrt.records.Topics.PIPELINE;

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Options options;
    private final Path dir;
    private final int brokerPort;
    private final Process process;
    private final Thread shutdownHook;
    private volatile boolean closed;

    /** How to start the broker; {@link #defaults()} suits tests and the embedded demo. */
    public record Options(String heap, List<String> extraJvmArgs, Path parentDir, String classPath) {

        public static Options defaults() {
            // This JVM's class path holds the broker (a dependency of this module). Another SLF4J
            // binding beside the broker's log4j one would win by chance and log to the console.
            String classPath = Stream.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                    .filter(entry -> !entry.contains("slf4j-simple"))
                    .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
            return new Options("512m", List.of(), null, classPath);
        }

        public Options withHeap(String heap) {
            return new Options(heap, extraJvmArgs, parentDir, classPath);
        }

        public Options withExtraJvmArgs(List<String> args) {
            return new Options(heap, List.copyOf(args), parentDir, classPath);
        }

        /** Where the temporary data folder goes (default: java.io.tmpdir). */
        public Options withParentDir(Path parent) {
            return new Options(heap, extraJvmArgs, parent, classPath);
        }
    }

    private LocalKafka(Options options, Path dir, int brokerPort, Process process) {
        this.options = options;
        this.dir = dir;
        this.brokerPort = brokerPort;
        this.process = process;
        this.shutdownHook = new Thread(this::stop, "local-kafka-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts a broker and waits until it answers; fails with the broker's log tail if it does not. */
    public static LocalKafka start(Options options) {
        Path dir = null;
        try {
            dir = options.parentDir() == null ? Files.createTempDirectory("its-kafka-")
                    : Files.createTempDirectory(Files.createDirectories(options.parentDir()), "its-kafka-");
            int brokerPort = freePort();
            int controllerPort = freePort();
            Path config = writeConfig(dir, brokerPort, controllerPort);
            Path log4j = writeLogConfig(dir);
            format(options, dir, config, log4j);
            Process process = java(options, log4j, List.of(BrokerMain.class.getName(), config.toString()))
                    .redirectOutput(dir.resolve("broker.out").toFile())
                    .redirectErrorStream(true)
                    .start();
            LocalKafka kafka = new LocalKafka(options, dir, brokerPort, process);
            kafka.awaitReady();
            return kafka;
        } catch (IOException e) {
            deleteQuietly(dir);
            throw new UncheckedIOException("could not start a local Kafka broker: " + e.getMessage(), e);
        }
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    /** The broker's data folder (logs in {@code broker.log}); removed by {@link #close()}. */
    public Path dataDir() {
        return dir;
    }

    public long pid() {
        return process.pid();
    }

    /** Creates topics; existing ones are left as they are. */
    public void createTopics(Collection<String> names, int partitions) {
        try {
            ensureTopics(bootstrapServers(), names, partitions);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "; broker log: " + dir.resolve("broker.log"), e.getCause());
        }
    }

    /**
     * Creates the topics that a Kafka cluster (this broker or any other) lacks, with the
     * cluster's default replication factor; existing ones are left as they are.
     */
    public static void ensureTopics(String bootstrapServers, Collection<String> names, int partitions) {
        try (Admin admin = admin(bootstrapServers)) {
            List<NewTopic> topics = names.stream()
                    .map(n -> new NewTopic(n, java.util.Optional.of(partitions), java.util.Optional.empty())).toList();
            for (var entry : admin.createTopics(topics).values().entrySet()) {
                try {
                    entry.getValue().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + entry.getKey() + " on "
                                + bootstrapServers + ": " + e.getCause().getMessage(), e.getCause());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("creating topics on " + bootstrapServers + " timed out", e);
        }
    }

    public Admin admin() {
        return admin(bootstrapServers());
    }

    private static Admin admin(String bootstrapServers) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
    }

    /** Stops the broker (a controlled shutdown, forced after 20 s) and deletes its data folder. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or has run; nothing to remove
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

    private void awaitReady() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        try (Admin admin = admin()) {
            while (true) {
                if (!process.isAlive()) {
                    String tail = logTail();
                    stop();
                    throw new IllegalStateException("the local Kafka broker exited with code " + process.exitValue()
                            + " while starting:\n" + tail);
                }
                try {
                    admin.describeCluster().nodes().get(2, TimeUnit.SECONDS);
                    return;
                } catch (ExecutionException | java.util.concurrent.TimeoutException notYet) {
                    if (System.nanoTime() > deadline) {
                        String tail = logTail();
                        stop();
                        throw new IllegalStateException("the local Kafka broker did not answer within "
                                + START_TIMEOUT.toSeconds() + " s:\n" + tail);
                    }
                }
            }
        } catch (InterruptedException e) {
            stop();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the local Kafka broker", e);
        }
    }

    private String logTail() {
        List<String> lines = new ArrayList<>();
        for (String name : List.of("broker.out", "broker.log")) {
            Path file = dir.resolve(name);
            try {
                if (Files.isReadable(file)) {
                    List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
                    lines.addAll(all.subList(Math.max(0, all.size() - 30), all.size()));
                }
            } catch (IOException ignored) {
                // best effort: the error message stays useful without it
            }
        }
        return String.join("\n", lines);
    }

    private static void format(Options options, Path dir, Path config, Path log4j) throws IOException {
        // KRaft storage must be formatted with a cluster id before the first start.
        Process format = java(options, log4j, List.of("kafka.tools.StorageTool", "format", "-t",
                Uuid.randomUuid().toString(), "-c", config.toString()))
                .redirectOutput(dir.resolve("format.out").toFile())
                .redirectErrorStream(true)
                .start();
        try {
            if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
                format.destroyForcibly();
                throw new IOException("formatting the KRaft storage failed:\n"
                        + Files.readString(dir.resolve("format.out")));
            }
        } catch (InterruptedException e) {
            format.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while formatting the KRaft storage", e);
        }
    }

    private static ProcessBuilder java(Options options, Path log4j, List<String> mainAndArgs) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xms" + options.heap());
        command.add("-Xmx" + options.heap());
        // G1 with a short pause goal unless the options choose a collector (the JVM refuses two).
        if (options.extraJvmArgs().stream().noneMatch(a -> a.matches("-XX:\\+Use\\w*GC"))) {
            command.add("-XX:+UseG1GC");
            command.add("-XX:MaxGCPauseMillis=20");
        }
        command.add("-Djava.awt.headless=true");
        command.add("-Dlog4j2.configurationFile=" + log4j.toUri());
        command.addAll(options.extraJvmArgs());
        command.add("-cp");
        command.add(options.classPath());
        command.addAll(mainAndArgs);
        return new ProcessBuilder(command);
    }

    private static Path writeConfig(Path dir, int brokerPort, int controllerPort) throws IOException {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        // A static voter set: no --standalone formatting step is needed.
        p.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("log.dirs", dir.resolve("data").toString());
        p.setProperty("num.partitions", "1");
        // One broker: every internal topic has one replica.
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        // Consumers of a fresh group start at once instead of after the default 3 s.
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        // Topics are created on purpose; a typo in a topic name must fail, not create a topic.
        p.setProperty("auto.create.topics.enable", "false");
        Path file = dir.resolve("server.properties");
        try (var out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(out, "single-node KRaft broker for local runs");
        }
        return file;
    }

    private static Path writeLogConfig(Path dir) throws IOException {
        Path file = dir.resolve("log4j2.properties");
        Files.writeString(file, String.join("\n",
                "status = warn",
                "appender.file.type = File",
                "appender.file.name = file",
                "appender.file.fileName = " + dir.resolve("broker.log"),
                "appender.file.layout.type = PatternLayout",
                "appender.file.layout.pattern = [%d] %p %m (%c)%n",
                "rootLogger.level = info",
                "rootLogger.appenderRef.file.ref = file",
                ""));
        return file;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp folder is harmless; the run's result does not depend on it
        }
    }
}
