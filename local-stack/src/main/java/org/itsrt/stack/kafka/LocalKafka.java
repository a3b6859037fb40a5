package org.itsrt.stack.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.records.Workload;
import org.itsrt.stack.ChildJvm;

/**
 * A real Kafka 4.x cluster in KRaft mode on loopback for local runs and tests: one node or three,
 * each node a {@link ChildJvm} that is broker and controller at once, with node ids 1..N. Ports are
 * free loopback ports unless fixed; the data goes to a temporary cluster folder with one folder
 * per node ({@code its-kafka-XXXX/broker-1-XXXX/}); topics are created on request. The nodes end
 * and the folder is removed on {@link #close()} and on Ctrl-C; the nodes also end when this JVM dies
 * without running its shutdown hooks ({@link org.itsrt.stack.ParentWatch}).
 *
 * <p>Three nodes make a cluster on which a pipeline runs as in a deployment: replication factor 3
 * with {@code min.insync.replicas=2}, so that one broker can be stopped, killed and restarted
 * ({@link #stopBroker}, {@link #killBroker}, {@link #restartBroker}) while producers with
 * {@code acks=all} go on and no acknowledged record is lost. One node is the default: it starts
 * fastest and puts no replication into a latency measurement.
 */
public final class LocalKafka implements AutoCloseable {

    /** The pipeline's topics (docs/records.md). */
    public static final List<String> PIPELINE_TOPICS = Workload.STUDY.topics();

    /** The name of each node's log file in its folder. */
    public static final String LOG_FILE = "broker.log";

    /** Where the nodes listen unless {@link LocalKafkaOptions#withHost} says otherwise. */
    public static final String LOOPBACK = "127.0.0.1";

    /** For the node of a one-node cluster, from its start to its first answer. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    /** The same for each node of three: they share the cores and none answers before a quorum runs. */
    private static final Duration CLUSTER_START_TIMEOUT = Duration.ofSeconds(180);

    private static final Duration FORMAT_TIMEOUT = Duration.ofSeconds(60);
    /** For every node to appear in the cluster's metadata once each answers on its own. */
    private static final Duration MEMBERSHIP_TIMEOUT = Duration.ofSeconds(30);
    /** For the replicas of newly created topics to be in sync. */
    private static final Duration TOPIC_SYNC_TIMEOUT = Duration.ofSeconds(60);

    /**
     * Ports are chosen free, but another process may take one before a node binds it (tests and
     * runs start brokers and clusters side by side): a start that fails that way is tried again on
     * new ports, this many times in all.
     */
    private static final int START_ATTEMPTS = 3;

    private final Path dir;
    /** Null for a PLAINTEXT cluster. */
    private final KafkaSecurity security;
    /** How this class's own admin clients connect: as {@code admin} on a secured cluster. */
    private final KafkaClientConfig adminConfig;

    private final List<Integer> brokerPorts;
    /** The address of the client listeners ({@link LocalKafkaOptions#host()}). */
    private final String host;

    private final List<NodeCheck> checks;
    /** Node id N at index N-1; null until that node has started. */
    private final AtomicReferenceArray<ChildJvm> nodes;

    private final Thread shutdownHook;
    private boolean closed;

    private LocalKafka(Path dir, List<Integer> brokerPorts, String host, KafkaSecurity security) throws IOException {
        this.dir = dir;
        this.host = host;
        this.security = security;
        this.brokerPorts = List.copyOf(brokerPorts);
        if (security != null) {
            security.writeClientFiles(bootstrapServers());
            this.adminConfig = security.clientConfig(KafkaSecurity.User.ADMIN);
        } else {
            this.adminConfig = KafkaClientConfig.none();
        }
        this.checks = IntStream.rangeClosed(1, brokerPorts.size())
                .mapToObj(id -> new NodeCheck(id, address(host, brokerPorts.get(id - 1)), adminConfig))
                .toList();
        this.nodes = new AtomicReferenceArray<>(brokerPorts.size());
        // The nodes' own hooks stop them; this one also removes the cluster folder around them.
        this.shutdownHook = new Thread(() -> close(false), "its-kafka-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts the cluster and waits until every node serves and the cluster's metadata lists all
     * of them; fails with the failing node's log tail if one does not start. Three nodes start in
     * parallel: none serves before a majority of the controller quorum runs.
     *
     * @throws IllegalArgumentException when the fixed ports do not fit the number of brokers
     * @throws IllegalStateException    when a fixed port is taken or a node does not start; no
     *                                  process and no folder are left behind
     */
    public static LocalKafka start(LocalKafkaOptions options) {
        checkFixedPorts(options);
        boolean allFixed =
                !options.brokerPorts().isEmpty() && !options.controllerPorts().isEmpty();
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(options);
            } catch (IllegalStateException e) {
                if (allFixed
                        || attempt >= START_ATTEMPTS
                        || e.getMessage() == null
                        || !e.getMessage().contains("Address already in use")) {
                    throw e;
                }
            }
        }
    }

    private static LocalKafka startOnce(LocalKafkaOptions options) {
        int n = options.brokers();
        // Before anything starts: a taken fixed port is named here, not found in a dead node's log.
        for (int id = 1; id <= n; id++) {
            if (!options.brokerPorts().isEmpty()) {
                ChildJvm.requireFreePort(
                        options.host(), options.brokerPorts().get(id - 1), "Kafka broker " + id + " listener");
            }
            if (!options.controllerPorts().isEmpty()) {
                ChildJvm.requireFreePort(options.controllerPorts().get(id - 1), "Kafka controller " + id + " listener");
            }
        }
        List<Integer> brokerPorts;
        List<Integer> controllerPorts;
        Path dir;
        try {
            Set<Integer> used = new HashSet<>(options.brokerPorts());
            used.addAll(options.controllerPorts());
            brokerPorts = portsOrFree(options.brokerPorts(), n, used);
            controllerPorts = portsOrFree(options.controllerPorts(), n, used);
            dir = (options.parentDir() == null
                            ? Files.createTempDirectory("its-kafka-")
                            : Files.createTempDirectory(Files.createDirectories(options.parentDir()), "its-kafka-"))
                    .toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare the local Kafka cluster: " + e.getMessage(), e);
        }
        LocalKafka kafka;
        try {
            kafka = new LocalKafka(
                    dir, brokerPorts, options.host(), options.secure() ? KafkaSecurity.create(dir) : null);
        } catch (IOException | RuntimeException e) {
            ChildJvm.deleteQuietly(dir);
            throw new IllegalStateException("could not prepare the secured local Kafka cluster: " + e.getMessage(), e);
        }
        try {
            kafka.startNodes(options, controllerPorts);
            kafka.awaitMembers(MEMBERSHIP_TIMEOUT);
            if (kafka.security != null) {
                kafka.createAcls();
            }
            return kafka;
        } catch (RuntimeException | Error e) {
            kafka.close();
            throw e;
        }
    }

    private static void checkFixedPorts(LocalKafkaOptions options) {
        int n = options.brokers();
        for (List<Integer> ports : List.of(options.brokerPorts(), options.controllerPorts())) {
            if (!ports.isEmpty() && ports.size() != n) {
                throw new IllegalArgumentException(
                        "fixed ports " + ports + " do not fit " + n + " brokers: give one port per broker or none");
            }
        }
        List<Integer> all = new ArrayList<>(options.brokerPorts());
        all.addAll(options.controllerPorts());
        if (new HashSet<>(all).size() != all.size()) {
            throw new IllegalArgumentException("the fixed ports " + all + " are not all different");
        }
    }

    private static List<Integer> portsOrFree(List<Integer> fixed, int n, Set<Integer> used) throws IOException {
        if (!fixed.isEmpty()) {
            return fixed;
        }
        List<Integer> ports = new ArrayList<>();
        while (ports.size() < n) {
            int port = ChildJvm.freeLoopbackPort();
            // A port just released may come back at once; each listener needs its own.
            if (used.add(port)) {
                ports.add(port);
            }
        }
        return ports;
    }

    /** Starts node 1..N: one in this thread, three in parallel (each waits for the quorum). */
    private void startNodes(LocalKafkaOptions options, List<Integer> controllerPorts) {
        int n = brokerPorts.size();
        String clusterId = Uuid.randomUuid().toString();
        String voters = IntStream.rangeClosed(1, n)
                .mapToObj(id -> id + "@" + address(LOOPBACK, controllerPorts.get(id - 1)))
                .collect(Collectors.joining(","));
        if (n == 1) {
            startNode(options, 1, controllerPorts.get(0), clusterId, voters);
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(n, task -> {
            Thread thread = new Thread(task, "its-kafka-start");
            thread.setDaemon(true);
            return thread;
        });
        try {
            CompletionService<Void> started = new ExecutorCompletionService<>(pool);
            for (int id = 1; id <= n; id++) {
                int nodeId = id;
                started.submit(() -> {
                    startNode(options, nodeId, controllerPorts.get(nodeId - 1), clusterId, voters);
                    return null;
                });
            }
            for (int i = 0; i < n; i++) {
                try {
                    started.take().get();
                } catch (ExecutionException e) {
                    // The first failure is the cause; the others are stopped by the interrupt
                    // below (a node that waits for a quorum that will not come).
                    if (e.getCause() instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the local Kafka cluster", e);
        } finally {
            // Interrupted, a starting node is killed and its folder removed by ChildJvm.start.
            pool.shutdownNow();
            try {
                pool.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void startNode(LocalKafkaOptions options, int id, int controllerPort, String clusterId, String voters) {
        NodeCheck check = checks.get(id - 1);
        int n = brokerPorts.size();
        try {
            nodes.set(
                    id - 1,
                    ChildJvm.start(
                            description(id),
                            dir,
                            "broker-" + id + "-",
                            options.startTimeout() != null ? options.startTimeout() : defaultStartTimeout(n),
                            nodeDir -> prepare(
                                    options,
                                    nodeDir,
                                    new NodeConfig(id, n, host, brokerPorts.get(id - 1), controllerPort, voters),
                                    clusterId,
                                    security),
                            check));
        } finally {
            check.close();
        }
    }

    /** How long each node of a cluster of {@code brokers} may take to answer unless the options say. */
    public static Duration defaultStartTimeout(int brokers) {
        return brokers == 1 ? START_TIMEOUT : CLUSTER_START_TIMEOUT;
    }

    private String description(int id) {
        return brokerPorts.size() == 1 ? "the local Kafka broker" : "Kafka broker " + id + " of the local cluster";
    }

    /**
     * Every broker's address, node 1 first: {@code 127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3}, or
     * the {@link LocalKafkaOptions#withHost host} given.
     */
    public String bootstrapServers() {
        return brokerPorts.stream().map(port -> address(host, port)).collect(Collectors.joining(","));
    }

    /** The users, passwords and client files of a secured cluster; empty for a PLAINTEXT one. */
    public Optional<KafkaSecurity> security() {
        return Optional.ofNullable(security);
    }

    /**
     * The client settings of {@code user} on a secured cluster (its file in {@link #dataDir()});
     * on a PLAINTEXT cluster, none for every user.
     */
    public KafkaClientConfig clientConfig(KafkaSecurity.User user) {
        return security == null ? KafkaClientConfig.none() : security.clientConfig(user);
    }

    /** The number of nodes, whether running or not. */
    public int brokers() {
        return brokerPorts.size();
    }

    /** The client port of node {@code nodeId} (1..N). */
    public int port(int nodeId) {
        checkNodeId(nodeId);
        return brokerPorts.get(nodeId - 1);
    }

    /** The cluster folder, which holds one folder per node; removed by {@link #close()}. */
    public Path dataDir() {
        return dir;
    }

    /** Node {@code nodeId}'s log file, in its folder inside {@link #dataDir()}. */
    public Path logFile(int nodeId) {
        return broker(nodeId).dir().resolve(LOG_FILE);
    }

    /** The process of node 1 (the only one of a one-node cluster). */
    public long pid() {
        return broker(1).pid();
    }

    /** Each node's process, node 1 first; a stopped node's is the process that ended. */
    public List<Long> pids() {
        return IntStream.rangeClosed(1, brokers())
                .mapToObj(id -> broker(id).pid())
                .toList();
    }

    /** Node {@code nodeId} (1..N) as a child process: its folder, process, log tail. */
    public ChildJvm broker(int nodeId) {
        checkNodeId(nodeId);
        return nodes.get(nodeId - 1);
    }

    /**
     * Stops node {@code nodeId} in order (a controlled shutdown: its partitions' leadership moves
     * to the others, and it leaves their in-sync replicas); its data and ports stay for
     * {@link #restartBroker}.
     */
    public void stopBroker(int nodeId) {
        broker(nodeId).stop();
    }

    /**
     * Kills node {@code nodeId} (SIGKILL), as a crash would. The controllers notice when its
     * heartbeats stop ({@code broker.session.timeout.ms}, 9 s): until then, partitions it leads
     * take no writes. Its data and ports stay for {@link #restartBroker}.
     */
    public void killBroker(int nodeId) {
        try {
            broker(nodeId).kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing " + description(nodeId), e);
        }
    }

    /**
     * Starts node {@code nodeId} again after {@link #stopBroker} or {@link #killBroker}, on the same
     * ports and data, and waits until it serves and the cluster lists it again. Its replicas then
     * catch up with the leaders: {@link #awaitInSync} waits for that.
     */
    public void restartBroker(int nodeId) {
        ChildJvm node = broker(nodeId);
        try {
            node.restart();
        } catch (IOException e) {
            throw new UncheckedIOException("could not restart " + description(nodeId) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while restarting " + description(nodeId), e);
        } finally {
            checks.get(nodeId - 1).close();
        }
        awaitMembers(MEMBERSHIP_TIMEOUT);
    }

    /**
     * Creates topics with one replica on every broker (replication factor N) and, on three
     * brokers, {@code min.insync.replicas=2}, then waits until all their replicas are in sync.
     * Existing topics are left as they are. Every broker must be running.
     */
    public void createTopics(Collection<String> names, int partitions) {
        Map<String, String> configs = brokers() >= 3
                ? Map.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(minInsync(brokers())))
                : Map.of();
        try {
            KafkaTopics.create(
                    bootstrapServers(), adminConfig, names, partitions, Optional.of((short) brokers()), configs);
            awaitInSync(names, TOPIC_SYNC_TIMEOUT);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "; broker logs: " + dir + "/broker-*/" + LOG_FILE, e);
        }
    }

    /**
     * Waits until every partition of {@code topics} has a leader and all its replicas in sync (a
     * restarted broker has caught up, a new topic is fully replicated).
     *
     * @throws IllegalStateException naming each partition that is behind, with its replicas and
     *                               in-sync replicas, if that does not happen within
     *                               {@code timeout}
     */
    public void awaitInSync(Collection<String> topics, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String behind;
        try (Admin admin = admin()) {
            while (true) {
                try {
                    behind = KafkaTopics.describe(admin, topics).values().stream()
                            .flatMap(List::stream)
                            .filter(p -> !p.inSync())
                            .map(PartitionState::toString)
                            .collect(Collectors.joining("; "));
                    if (behind.isEmpty()) {
                        return;
                    }
                } catch (ExecutionException e) {
                    // A topic just created may not be known to the broker asked yet.
                    behind = e.getCause().getMessage();
                } catch (TimeoutException e) {
                    behind = "describing the topics timed out";
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("partitions of " + topics + " on " + bootstrapServers()
                            + " not in sync within " + timeout.toSeconds() + " s: " + behind);
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for in-sync replicas of " + topics, e);
        }
    }

    /** The partitions of {@code topics} on this cluster, by topic in the order given. */
    public Map<String, List<PartitionState>> describe(Collection<String> topics) {
        return KafkaTopics.describe(bootstrapServers(), adminConfig, topics);
    }

    /** An admin client on every broker of this cluster (as {@code admin} when secured); the caller closes it. */
    public Admin admin() {
        return KafkaTopics.admin(bootstrapServers(), adminConfig);
    }

    /** Gives every user of the secured cluster its ACLs ({@link KafkaSecurity#acls()}). */
    private void createAcls() {
        try (Admin admin = admin()) {
            admin.createAcls(KafkaSecurity.acls()).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot create the ACLs on " + bootstrapServers() + ": "
                            + e.getCause().getMessage(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("creating the ACLs on " + bootstrapServers() + " timed out", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating ACLs", e);
        }
    }

    /**
     * Ends every node and deletes the cluster folder. The nodes are killed rather than shut down in
     * order: nothing of their data is kept.
     */
    @Override
    public void close() {
        close(false);
        removeShutdownHook();
    }

    /**
     * Stops every node in order (a controlled shutdown each, in parallel, forced after 20 s); the
     * cluster folder with the nodes' data and logs stays.
     */
    public void closeKeepingFolder() {
        close(true);
        removeShutdownHook();
    }

    private synchronized void close(boolean keepFolder) {
        if (closed) {
            return;
        }
        closed = true;
        // In parallel: stopped one by one, the last node would wait for a controller majority
        // that is gone to approve its controlled shutdown. Even so, the last controller of three
        // waits 5 s for the others to take over: when the data goes anyway, the nodes are killed.
        Consumer<ChildJvm> stop = keepFolder ? ChildJvm::closeKeepingFolder : LocalKafka::killAndRemove;
        List<Thread> stopping = new ArrayList<>();
        for (int i = 0; i < nodes.length(); i++) {
            ChildJvm node = nodes.get(i);
            if (node != null) {
                Thread thread = new Thread(() -> stop.accept(node), "its-kafka-stop-" + node.pid());
                thread.start();
                stopping.add(thread);
            }
        }
        for (Thread thread : stopping) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        checks.forEach(NodeCheck::close);
        if (!keepFolder) {
            ChildJvm.deleteQuietly(dir);
        }
    }

    private static void killAndRemove(ChildJvm node) {
        if (node.makesClassDataArchive()) {
            // Its class-data archive is written at its exit, which SIGKILL skips: the first run
            // with a new class path stops the broker in order (a few seconds more), once.
            node.close();
            return;
        }
        try {
            node.kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        node.close();
    }

    private void removeShutdownHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or has run; nothing to remove
        }
    }

    private void checkNodeId(int nodeId) {
        if (nodeId < 1 || nodeId > brokers()) {
            throw new IllegalArgumentException("no broker " + nodeId + " in a local cluster of nodes 1.." + brokers());
        }
    }

    /** Waits until the cluster's metadata lists every node as a running broker. */
    private void awaitMembers(Duration timeout) {
        Set<Integer> expected = new TreeSet<>();
        IntStream.rangeClosed(1, brokers()).forEach(expected::add);
        long deadline = System.nanoTime() + timeout.toNanos();
        Set<Integer> seen = Set.of();
        try (Admin admin = admin()) {
            while (true) {
                try {
                    seen = admin.describeCluster().nodes().get(2, TimeUnit.SECONDS).stream()
                            .map(Node::id)
                            .collect(Collectors.toCollection(TreeSet::new));
                    if (seen.containsAll(expected)) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException notYet) {
                    // asked again below
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the local Kafka cluster at " + bootstrapServers()
                            + " lists brokers " + seen + " of " + expected + " after " + timeout.toSeconds() + " s");
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the local Kafka cluster", e);
        }
    }

    /**
     * A listener's address, {@code HOST:PORT}: the client listeners' on {@link LocalKafkaOptions#host()}
     * (loopback unless told), the controllers' always on loopback.
     */
    private static String address(String host, int port) {
        return host + ":" + port;
    }

    /** Three brokers take writes with one of them down; one broker has no other replica. */
    private static int minInsync(int brokers) {
        return brokers >= 3 ? 2 : 1;
    }

    /**
     * Whether one node serves: it answers a request addressed to it by node id (its own broker
     * configuration), which a broker does only once the controllers have unfenced it. Asking the
     * cluster instead could be answered by another node that still lists a killed one. The admin
     * client lives from a start or restart until it is over, not while the node is down.
     */
    private static final class NodeCheck implements ChildJvm.Readiness {

        private final int nodeId;
        private final String bootstrap;
        private final KafkaClientConfig clientConfig;
        private Admin admin;

        NodeCheck(int nodeId, String bootstrap, KafkaClientConfig clientConfig) {
            this.nodeId = nodeId;
            this.bootstrap = bootstrap;
            this.clientConfig = clientConfig;
        }

        @Override
        public synchronized boolean isReady(Path dir) throws InterruptedException {
            if (admin == null) {
                admin = KafkaTopics.admin(bootstrap, clientConfig);
            }
            try {
                admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(nodeId))))
                        .all()
                        .get(2, TimeUnit.SECONDS);
                return true;
            } catch (ExecutionException | TimeoutException notYet) {
                return false;
            }
        }

        synchronized void close() {
            if (admin != null) {
                // Without waiting for the calls still pending on a node that did not answer.
                admin.close(Duration.ZERO);
                admin = null;
            }
        }
    }

    /** What sets one node apart from the others of its cluster. */
    private record NodeConfig(
            int nodeId, int brokers, String host, int brokerPort, int controllerPort, String voters) {}

    /** A node's configuration and formatted KRaft storage in {@code dir}; what to run on them. */
    private static ChildJvm.Launch prepare(
            LocalKafkaOptions options, Path dir, NodeConfig node, String clusterId, KafkaSecurity security)
            throws IOException {
        Path config = writeConfig(dir, node, security);
        List<String> jvmOptions = new ArrayList<>();
        jvmOptions.add("-Xms" + options.heap());
        jvmOptions.add("-Xmx" + options.heap());
        // G1 with a short pause goal unless the options choose a collector (the JVM refuses two).
        if (options.extraJvmArgs().stream().noneMatch(a -> a.matches("-XX:\\+Use\\w*GC"))) {
            jvmOptions.add("-XX:+UseG1GC");
            jvmOptions.add("-XX:MaxGCPauseMillis=20");
        }
        jvmOptions.add("-Djava.awt.headless=true");
        jvmOptions.add(ChildJvm.log4jToFile(dir, LOG_FILE, "[%d] %p %m (%c)%n"));
        jvmOptions.addAll(options.extraJvmArgs());
        ChildJvm.Launch broker = ChildJvm.Launch.of("broker", options.classPath(), BrokerMain.class.getName())
                .withJvmOptions(jvmOptions)
                .withArgs(List.of(config.toString()))
                .withLogFiles(LOG_FILE);
        // KRaft storage must be formatted before the first start, every node with the same
        // cluster id; a restart runs the broker alone on the formatted storage.
        List<String> format = new ArrayList<>(List.of("format", "-t", clusterId, "-c", config.toString()));
        if (security == null) {
            ChildJvm.runToEnd(
                    "formatting the KRaft storage",
                    dir,
                    broker.withMain("format", "kafka.tools.StorageTool", format),
                    FORMAT_TIMEOUT);
            return broker;
        }
        // The SCRAM users go into the first metadata with the format; their passwords reach the
        // formatting JVM in a file that it deletes on reading.
        format.addAll(security.scramFormatArguments());
        Path arguments = dir.resolve("format.args");
        KafkaClientConfig.writeOwnerOnly(arguments, String.join("\n", format) + "\n");
        try {
            ChildJvm.runToEnd(
                    "formatting the KRaft storage",
                    dir,
                    broker.withMain("format", StorageFormatMain.class.getName(), List.of(arguments.toString())),
                    FORMAT_TIMEOUT);
        } finally {
            Files.deleteIfExists(arguments);
        }
        return broker;
    }

    /**
     * The settings every node of a cluster of {@code brokers} nodes shares, wherever it runs (the
     * compose stack's brokers have the same, as environment variables): replication, and how
     * topics and consumer groups start. Listeners, node ids and folders are the place's own.
     */
    public static Map<String, String> brokerSettings(int brokers) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("num.partitions", "1");
        // Every topic on every broker; with three, writes with acks=all go on while one is down
        // (two in sync) and stop rather than rest on a single copy. One broker: one replica.
        String replicas = Integer.toString(brokers);
        String minInsync = Integer.toString(minInsync(brokers));
        p.put("default.replication.factor", replicas);
        p.put("min.insync.replicas", minInsync);
        p.put("offsets.topic.replication.factor", replicas);
        p.put("transaction.state.log.replication.factor", replicas);
        p.put("transaction.state.log.min.isr", minInsync);
        p.put("share.coordinator.state.topic.replication.factor", replicas);
        p.put("share.coordinator.state.topic.min.isr", minInsync);
        // Consumers of a fresh group start at once instead of after the default 3 s.
        p.put("group.initial.rebalance.delay.ms", "0");
        // Topics are created on purpose; a typo in a topic name must fail, not create a topic.
        p.put("auto.create.topics.enable", "false");
        return p;
    }

    private static Path writeConfig(Path dir, NodeConfig node, KafkaSecurity security) throws IOException {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", Integer.toString(node.nodeId()));
        // A static voter set, the same on every node: no --standalone or --initial-controllers
        // formatting step is needed.
        p.setProperty("controller.quorum.voters", node.voters());
        p.setProperty(
                "listeners",
                "PLAINTEXT://" + address(node.host(), node.brokerPort()) + ",CONTROLLER://"
                        + address(LOOPBACK, node.controllerPort()));
        // What clients are told to connect to: the address they were given, never loopback when
        // the listener serves other machines.
        p.setProperty("advertised.listeners", "PLAINTEXT://" + address(node.host(), node.brokerPort()));
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("log.dirs", dir.resolve("data").toString());
        p.putAll(brokerSettings(node.brokers()));
        if (security != null) {
            p.putAll(security.brokerSettings(node.brokerPort(), node.controllerPort()));
        }
        Path file = dir.resolve("server.properties");
        // Owner only: a secured node's file holds the key store password and the admin's.
        KafkaClientConfig.writeOwnerOnly(file, "");
        try (var out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(out, "KRaft node " + node.nodeId() + " of " + node.brokers() + " for local runs");
        }
        return file;
    }
}
