package org.itsrt.cluster;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.itsrt.records.Workload;
import org.itsrt.stack.ChildJvm;
import org.itsrt.stack.flink.StandaloneFlink;
import org.itsrt.stack.kafka.LocalKafka;
import org.itsrt.stack.kafka.LocalKafkaOptions;
import org.itsrt.stack.zookeeper.LocalZooKeeper;

/**
 * The pipeline's cluster on one host, each part a process of its own: a ZooKeeper server (with
 * {@code ha}), one or three Kafka KRaft nodes with the pipeline's topics (none for a Flink-only
 * cluster, {@code brokers} 0, whose job's Kafka runs elsewhere), and a Flink standalone
 * session cluster of JobManagers and TaskManagers on one {@code config.yaml}. Everything lives in
 * one folder: a folder per process with its log, and {@value ClusterDescriptor#FILE}.
 *
 * <p>Its processes end with the JVM that started it (see {@link ChildJvm}); {@code ./its cluster up}
 * starts it in a {@link ClusterKeeper} process that outlives the command.
 */
public final class LocalCluster implements AutoCloseable {

    private final ClusterSpec spec;
    private final Path dir;
    private final LocalZooKeeper zooKeeper;
    private final LocalKafka kafka;
    private final StandaloneFlink flink;
    private final long startedEpochMs;

    private LocalCluster(
            ClusterSpec spec, Path dir, LocalZooKeeper zooKeeper, LocalKafka kafka, StandaloneFlink flink) {
        this.spec = spec;
        this.dir = dir;
        this.zooKeeper = zooKeeper;
        this.kafka = kafka;
        this.flink = flink;
        this.startedEpochMs = System.currentTimeMillis();
    }

    /**
     * Starts ZooKeeper (with HA), the brokers, then the JobManagers and TaskManagers; returns once
     * every TaskManager has registered and every replica of the pipeline's topics is in sync. If a
     * part fails, the parts started so far are stopped and the error says which part and why.
     *
     * @param dir the cluster folder: created, or empty; refused when it holds a cluster
     */
    public static LocalCluster start(ClusterSpec spec, Path dir, PrintStream log) {
        Path folder = prepareFolder(dir);
        requireFreePorts(spec);
        LocalZooKeeper zooKeeper = null;
        LocalKafka kafka = null;
        StandaloneFlink flink = null;
        try {
            if (spec.ha()) {
                log.println("its-cluster: starting ZooKeeper ...");
                zooKeeper = LocalZooKeeper.start(LocalZooKeeper.Options.defaults()
                        .withPort(spec.zooKeeperPort())
                        .withParentDir(folder)
                        .withStartTimeout(spec.startTimeout()));
                log.println("its-cluster: ZooKeeper up at " + zooKeeper.connectString());
            }
            if (spec.brokers() == 0) {
                log.println("its-cluster: no Kafka (--brokers 0): the job's brokers run elsewhere");
            } else {
                log.println("its-cluster: starting "
                        + (spec.brokers() == 1 ? "a Kafka broker" : spec.brokers() + " Kafka brokers")
                        + " (KRaft) ...");
                kafka = LocalKafka.start(LocalKafkaOptions.defaults()
                        .withBrokers(spec.brokers())
                        .withPorts(spec.kafkaPorts(), spec.kafkaControllerPorts())
                        .withParentDir(folder)
                        // --start-timeout where it allows more than Kafka's own wait, on a slow machine.
                        .withStartTimeout(max(spec.startTimeout(), LocalKafka.defaultStartTimeout(spec.brokers()))));
                // Returns once every replica of them is in sync.
                kafka.createTopics(Workload.STUDY.topics(), spec.partitions());
                log.println("its-cluster: Kafka up at " + kafka.bootstrapServers() + ", topics "
                        + Workload.STUDY.topics() + ", every replica in sync");
            }

            log.println("its-cluster: starting Flink (" + spec.describe() + ") ...");
            flink = StandaloneFlink.start(spec.flinkOptions()
                    .restPorts(spec.flinkRestPorts())
                    .rpcPorts(spec.flinkRpcPorts())
                    .parentDir(folder)
                    .zooKeeperQuorum(zooKeeper != null ? zooKeeper.connectString() : null)
                    .build());
            LocalCluster cluster = new LocalCluster(spec, folder, zooKeeper, kafka, flink);
            log.println("its-cluster: Flink up, web UI " + flink.leaderRestAddress());
            return cluster;
        } catch (RuntimeException e) {
            closeAll(flink, kafka, zooKeeper, false);
            throw e;
        }
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** The cluster folder, made sure to exist, be writable and hold no cluster. */
    private static Path prepareFolder(Path dir) {
        Path folder = dir.toAbsolutePath().normalize();
        if (Files.exists(ClusterDescriptor.file(folder))) {
            throw new IllegalStateException(describeExisting(folder));
        }
        try {
            Files.createDirectories(folder);
            // Fails here, naming the folder, rather than in the first process that writes its log.
            Path probe = Files.createTempFile(folder, ".writable-", "");
            Files.delete(probe);
        } catch (AccessDeniedException e) {
            throw new IllegalStateException(
                    "the cluster folder " + folder + " is not writable (permission denied: " + e.getFile() + ")");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the cluster folder " + folder + ": " + e, e);
        }
        return folder;
    }

    /** Why a folder that holds a descriptor is refused: the cluster there runs, or it was not taken down. */
    static String describeExisting(Path folder) {
        try {
            ClusterDescriptor existing = ClusterDescriptor.read(folder);
            List<ClusterDescriptor.Part> alive = existing.alive();
            if (!alive.isEmpty() || existing.keeperAlive()) {
                return "a cluster is already up in " + folder + " (" + existing.shape() + "; web UI "
                        + existing.restAddresses().get(0)
                        + (existing.kafka() == null
                                ? ""
                                : ", Kafka " + existing.kafka().bootstrapServers()) + ", "
                        + alive.size() + " processes running): ./its cluster down --dir " + folder + " first";
            }
            return "the cluster folder " + folder + " holds a cluster that is down but not cleaned up: "
                    + "./its cluster down --dir " + folder + " removes it";
        } catch (IOException e) {
            return "the cluster folder " + folder + " holds " + ClusterDescriptor.FILE + " that cannot be read ("
                    + e.getMessage() + "): remove the folder or choose another with --dir";
        }
    }

    /** Every fixed port, checked before any process starts, so a taken one leaves nothing behind. */
    private static void requireFreePorts(ClusterSpec spec) {
        if (spec.zooKeeperPort() > 0 && spec.ha()) {
            ChildJvm.requireFreePort(spec.zooKeeperPort(), "ZooKeeper client port");
        }
        List<Integer> kafkaPorts = spec.kafkaPorts();
        List<Integer> controllerPorts = spec.kafkaControllerPorts();
        for (int i = 0; i < kafkaPorts.size(); i++) {
            ChildJvm.requireFreePort(kafkaPorts.get(i), "Kafka broker " + (i + 1) + " listener");
            ChildJvm.requireFreePort(controllerPorts.get(i), "Kafka broker " + (i + 1) + " controller listener");
        }
        List<Integer> restPorts = spec.flinkRestPorts();
        List<Integer> rpcPorts = spec.flinkRpcPorts();
        if (!spec.restBindAddress().equals(ClusterSpec.LOOPBACK)) {
            requireAddressOfThisMachine(spec.restBindAddress());
        }
        for (int i = 0; i < restPorts.size(); i++) {
            ChildJvm.requireFreePort(
                    spec.restBindAddress(), restPorts.get(i), "Flink REST and web UI of JobManager " + (i + 1));
            ChildJvm.requireFreePort(rpcPorts.get(i), "Flink RPC of JobManager " + (i + 1));
        }
    }

    /** Whatever the ports: an address the REST endpoint cannot bind is named before anything starts. */
    private static void requireAddressOfThisMachine(String address) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(address), 0), 1);
        } catch (IOException e) {
            throw new IllegalStateException(
                    "--rest-bind-address " + address + ": Flink's REST endpoint cannot bind it (" + e.getMessage()
                            + "); is it an address of this machine?");
        }
    }

    public ClusterSpec spec() {
        return spec;
    }

    public Path dir() {
        return dir;
    }

    public Optional<LocalZooKeeper> zooKeeper() {
        return Optional.ofNullable(zooKeeper);
    }

    public LocalKafka kafka() {
        return kafka;
    }

    public StandaloneFlink flink() {
        return flink;
    }

    /**
     * The descriptor of the cluster as it is now (pids change when a part is restarted).
     *
     * @param keeperPid the process that holds the cluster, 0 for this JVM
     */
    public ClusterDescriptor descriptor(long keeperPid) {
        ClusterDescriptor.ZooKeeperPart zk = zooKeeper == null
                ? null
                : new ClusterDescriptor.ZooKeeperPart(
                        zooKeeper.connectString(),
                        part(
                                "zookeeper",
                                zooKeeper.pid(),
                                zooKeeper.dir(),
                                zooKeeper.dir().resolve("zookeeper.log")));
        List<ClusterDescriptor.Part> brokers = new ArrayList<>();
        for (int id = 1; kafka != null && id <= kafka.brokers(); id++) {
            ChildJvm broker = kafka.broker(id);
            brokers.add(part("kafka-" + id, broker.pid(), broker.dir(), broker.log()));
        }
        List<ClusterDescriptor.JobManagerPart> jobManagers = new ArrayList<>();
        for (int i = 0; i < spec.jobManagers(); i++) {
            ChildJvm jm = flink.jobManager(i);
            jobManagers.add(new ClusterDescriptor.JobManagerPart(
                    flink.restAddresses().get(i).toString(),
                    part("jobmanager-" + (i + 1), jm.pid(), jm.dir(), jm.log())));
        }
        List<ClusterDescriptor.Part> taskManagers = new ArrayList<>();
        for (int i = 0; i < spec.taskManagers(); i++) {
            ChildJvm tm = flink.taskManager(i);
            taskManagers.add(part("taskmanager-" + (i + 1), tm.pid(), tm.dir(), tm.log()));
        }
        return new ClusterDescriptor(
                ClusterDescriptor.FORMAT,
                dir.toString(),
                keeperPid,
                startedEpochMs,
                spec.describe(),
                zk,
                kafka == null
                        ? null
                        : new ClusterDescriptor.KafkaPart(
                                kafka.bootstrapServers(), spec.brokers(), Math.min(2, spec.brokers()), brokers),
                new ClusterDescriptor.FlinkPart(
                        flink.configFile().toString(), jobManagers, taskManagers, clientOptions(flink.configFile())));
    }

    private static ClusterDescriptor.Part part(String name, long pid, Path folder, Path log) {
        return new ClusterDescriptor.Part(name, pid, folder.toString(), log.toString());
    }

    /**
     * The high-availability options of config.yaml: a Flink client given them asks ZooKeeper for
     * the leading JobManager's REST address instead of using a fixed one, so it follows a failover.
     */
    static Map<String, String> clientOptions(Path configFile) {
        Map<String, String> options = new LinkedHashMap<>();
        ConfigYaml.read(configFile).forEach((key, value) -> {
            if (key.startsWith("high-availability")) {
                options.put(key, value);
            }
        });
        return options;
    }

    /** Stops every process (TaskManagers and JobManagers, brokers, ZooKeeper) and removes the folder. */
    @Override
    public void close() {
        closeAll(flink, kafka, zooKeeper, false);
        ChildJvm.deleteQuietly(dir);
    }

    /** Stops every process; the folder with every log stays. */
    public void closeKeepingFolders() {
        closeAll(flink, kafka, zooKeeper, true);
    }

    /** Flink first (its jobs write to Kafka and its JobManagers hold ZooKeeper sessions), ZooKeeper last. */
    private static void closeAll(StandaloneFlink flink, LocalKafka kafka, LocalZooKeeper zooKeeper, boolean keep) {
        if (flink != null) {
            if (keep) {
                flink.closeKeepingFolder();
            } else {
                flink.close();
            }
        }
        if (kafka != null) {
            if (keep) {
                kafka.closeKeepingFolder();
            } else {
                kafka.close();
            }
        }
        if (zooKeeper != null) {
            if (keep) {
                zooKeeper.closeKeepingFolder();
            } else {
                zooKeeper.close();
            }
        }
    }

    /** How long {@link #close()} may take at most: each part's orderly stop, then a kill. */
    static final Duration STOP_TIMEOUT = ChildJvm.STOP_GRACE.multipliedBy(4);
}
