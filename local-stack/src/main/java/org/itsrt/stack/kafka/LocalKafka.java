package org.itsrt.stack.kafka;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.itsrt.stack.ChildJvm;

/**
 * A real single-node Kafka 4.x broker in KRaft mode (broker and controller in one process) as a
 * {@link ChildJvm}, for local runs and tests: free loopback ports, its own temporary data folder,
 * topics created on request, and everything removed on {@link #close()}, on Ctrl-C and when this
 * JVM dies.
 */
public final class LocalKafka implements AutoCloseable {

    /** The pipeline's topics (docs/records.md). */
    public static final List<String> PIPELINE_TOPICS = org.itsrt.records.Topics.PIPELINE;

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration FORMAT_TIMEOUT = Duration.ofSeconds(60);

    private final ChildJvm broker;
    private final int brokerPort;

    /** How to start the broker; {@link #defaults()} suits tests and the embedded demo. */
    public record Options(String heap, List<String> extraJvmArgs, Path parentDir, String classPath) {

        public static Options defaults() {
            // This JVM's class path holds the broker (a run-time dependency of this module).
            // Another SLF4J binding beside the broker's log4j one would win by chance and log to
            // the console.
            String classPath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                    .filter(entry -> !entry.contains("slf4j-simple"))
                    .collect(Collectors.joining(File.pathSeparator));
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

    private LocalKafka(ChildJvm broker, int brokerPort) {
        this.broker = broker;
        this.brokerPort = brokerPort;
    }

    /**
     * Ports are chosen free, but another process may take one before the broker binds it (tests
     * and runs start brokers and clusters side by side): a start that fails that way is tried
     * again on new ports, this many times in all.
     */
    private static final int START_ATTEMPTS = 3;

    /** Starts a broker and waits until it answers; fails with the broker's log tail if it does not. */
    public static LocalKafka start(Options options) {
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(options);
            } catch (IllegalStateException e) {
                if (attempt >= START_ATTEMPTS
                        || e.getMessage() == null
                        || !e.getMessage().contains("Address already in use")) {
                    throw e;
                }
            }
        }
    }

    private static LocalKafka startOnce(Options options) {
        int brokerPort;
        int controllerPort;
        try {
            brokerPort = ChildJvm.freeLoopbackPort();
            controllerPort = ChildJvm.freeLoopbackPort();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "could not find a free loopback port for the local Kafka broker: " + e.getMessage(), e);
        }
        try (Admin admin = admin(bootstrapServers(brokerPort))) {
            ChildJvm broker = ChildJvm.start(
                    "the local Kafka broker",
                    options.parentDir(),
                    "its-kafka-",
                    START_TIMEOUT,
                    dir -> prepare(options, dir, brokerPort, controllerPort),
                    dir -> answers(admin));
            return new LocalKafka(broker, brokerPort);
        }
    }

    public String bootstrapServers() {
        return bootstrapServers(brokerPort);
    }

    /** The broker's data folder (logs in {@code broker.log}); removed by {@link #close()}. */
    public Path dataDir() {
        return broker.dir();
    }

    public long pid() {
        return broker.pid();
    }

    /** Creates topics; existing ones are left as they are. */
    public void createTopics(Collection<String> names, int partitions) {
        try {
            ensureTopics(bootstrapServers(), names, partitions);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(
                    e.getMessage() + "; broker log: " + dataDir().resolve("broker.log"), e.getCause());
        }
    }

    /**
     * Creates the topics that a Kafka cluster (this broker or any other) lacks, with the
     * cluster's default replication factor; existing ones are left as they are.
     */
    public static void ensureTopics(String bootstrapServers, Collection<String> names, int partitions) {
        try (Admin admin = admin(bootstrapServers)) {
            List<NewTopic> topics = names.stream()
                    .map(n -> new NewTopic(n, Optional.of(partitions), Optional.empty()))
                    .toList();
            for (var entry : admin.createTopics(topics).values().entrySet()) {
                try {
                    entry.getValue().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException(
                                "cannot create topic " + entry.getKey() + " on " + bootstrapServers + ": "
                                        + e.getCause().getMessage(),
                                e.getCause());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("creating topics on " + bootstrapServers + " timed out", e);
        }
    }

    public Admin admin() {
        return admin(bootstrapServers());
    }

    /** Stops the broker (a controlled shutdown, forced after 20 s) and deletes its data folder. */
    @Override
    public void close() {
        broker.close();
    }

    private static String bootstrapServers(int brokerPort) {
        return "127.0.0.1:" + brokerPort;
    }

    private static Admin admin(String bootstrapServers) {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                10_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                30_000));
    }

    /** Ready once the admin client can describe the cluster. */
    private static boolean answers(Admin admin) throws InterruptedException {
        try {
            admin.describeCluster().nodes().get(2, TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException | TimeoutException notYet) {
            return false;
        }
    }

    /** The broker's configuration and formatted KRaft storage in {@code dir}; what to run on them. */
    private static ChildJvm.Launch prepare(Options options, Path dir, int brokerPort, int controllerPort)
            throws IOException {
        Path config = writeConfig(dir, brokerPort, controllerPort);
        List<String> jvmOptions = new ArrayList<>();
        jvmOptions.add("-Xms" + options.heap());
        jvmOptions.add("-Xmx" + options.heap());
        // G1 with a short pause goal unless the options choose a collector (the JVM refuses two).
        if (options.extraJvmArgs().stream().noneMatch(a -> a.matches("-XX:\\+Use\\w*GC"))) {
            jvmOptions.add("-XX:+UseG1GC");
            jvmOptions.add("-XX:MaxGCPauseMillis=20");
        }
        jvmOptions.add("-Djava.awt.headless=true");
        jvmOptions.add(ChildJvm.log4jToFile(dir, "broker.log", "[%d] %p %m (%c)%n"));
        jvmOptions.addAll(options.extraJvmArgs());
        ChildJvm.Launch broker = ChildJvm.Launch.of("broker", options.classPath(), BrokerMain.class.getName())
                .withJvmOptions(jvmOptions)
                .withArgs(List.of(config.toString()))
                .withLogFiles("broker.log");
        // KRaft storage must be formatted with a cluster id before the first start.
        ChildJvm.runToEnd(
                "formatting the KRaft storage",
                dir,
                broker.withMain(
                        "format",
                        "kafka.tools.StorageTool",
                        List.of("format", "-t", Uuid.randomUuid().toString(), "-c", config.toString())),
                FORMAT_TIMEOUT);
        return broker;
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
}
