package org.itsrt.stack.flink;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cluster's {@code config.yaml}, wherever the cluster runs: the processes of {@code ./its
 * cluster} on this host ({@link Loopback}) or the containers of {@code docker/compose.yaml}
 * ({@link Containers}). One method writes the settings of both, so that the two places run the
 * job the same way; only the keys of {@link #PLACEMENT_KEYS} (addresses, ports, folders, the
 * cluster's name in ZooKeeper) say where, and they are all the two renderings may differ in.
 */
public final class ClusterConfig {

    /** The key under which config.yaml keeps the JVM options of every cluster process. */
    public static final String JAVA_OPTS_KEY = "env.java.opts.all";

    /**
     * The JVM options of every cluster process: the module options Flink's own config.yaml sets
     * for Java 17 (without them a job submitted over REST fails with an
     * InaccessibleObjectException: Flink's closure cleaner and serializers reflect into java.base),
     * and the JDK's vector module for the LSTM kernel's vector path (docs/inference.md; without it
     * the kernel runs scalar loops, about 4x slower).
     */
    public static final List<String> JVM_OPTIONS = jvmOptions();

    /** The settings that say where the cluster runs; every other key is the same in every place. */
    public static final Set<String> PLACEMENT_KEYS = Set.of(
            "jobmanager.rpc.address",
            "jobmanager.rpc.port",
            "jobmanager.bind-host",
            "taskmanager.host",
            "taskmanager.bind-host",
            "rest.address",
            "rest.bind-address",
            "rest.port",
            "high-availability.jobmanager.port",
            "io.tmp.dirs",
            "web.tmpdir",
            "execution.checkpointing.dir",
            "execution.checkpointing.savepoint-dir",
            "high-availability.storageDir",
            "high-availability.cluster-id",
            "high-availability.zookeeper.quorum");

    /** Where the cluster runs: the values of {@link #PLACEMENT_KEYS}. */
    public sealed interface Placement {
        /** The placement's settings, in the order config.yaml lists them. */
        Map<String, String> settings(StandaloneFlinkOptions options);
    }

    /**
     * The processes of one host, on loopback only (nothing is opened to the network), with the
     * (first) JobManager's ports in the file and every folder inside the cluster folder.
     */
    public record Loopback(Path dir, int rpcPort, int restPort) implements Placement {
        private static final String LOOPBACK = "127.0.0.1";

        @Override
        public Map<String, String> settings(StandaloneFlinkOptions options) {
            Map<String, String> where = new LinkedHashMap<>();
            // The ports are in the file because without high availability the TaskManagers and
            // clients must know where the JobManager is; each JobManager also gets its own as -D
            // options (they differ with several).
            where.put("jobmanager.rpc.address", LOOPBACK);
            where.put("jobmanager.rpc.port", Integer.toString(rpcPort));
            where.put("jobmanager.bind-host", LOOPBACK);
            where.put("taskmanager.host", LOOPBACK);
            where.put("taskmanager.bind-host", LOOPBACK);
            where.put("rest.address", LOOPBACK);
            where.put("rest.bind-address", LOOPBACK);
            where.put("rest.port", Integer.toString(restPort));
            String tmp = dir.resolve("tmp").toString();
            where.put("io.tmp.dirs", tmp);
            where.put("web.tmpdir", tmp);
            where.put(
                    "execution.checkpointing.dir",
                    dir.resolve("checkpoints").toUri().toString());
            where.put(
                    "execution.checkpointing.savepoint-dir",
                    dir.resolve("savepoints").toUri().toString());
            if (options.highAvailability()) {
                where.put("high-availability.zookeeper.quorum", options.zooKeeperQuorum());
                where.put(
                        "high-availability.storageDir",
                        dir.resolve("ha").toUri().toString());
                // One cluster's znodes apart from another's on the same ZooKeeper.
                where.put("high-availability.cluster-id", dir.getFileName().toString());
            }
            return where;
        }
    }

    /**
     * Containers on one network, as Flink's official image runs them: every process binds all
     * interfaces of its container, the first JobManager's service name is the address (the
     * image's entry point replaces {@code jobmanager.rpc.address} with each JobManager's own
     * name), the standard ports, and one volume at {@code sharedDir} that every JobManager and
     * TaskManager mounts for checkpoints, savepoints and the high-availability store.
     *
     * @param jobManagerHost the (first) JobManager's host name on the containers' network
     * @param sharedDir      where the shared volume is mounted in every Flink container
     * @param clusterId      the cluster's name in ZooKeeper
     */
    public record Containers(String jobManagerHost, String sharedDir, String clusterId) implements Placement {
        /** Flink's standard ports, which each container has to itself. */
        public static final int RPC_PORT = 6123;

        public static final int REST_PORT = 8081;
        private static final String ALL_INTERFACES = "0.0.0.0";

        /** The compose stack's: JobManager {@code jobmanager}, volume at /opt/flink/shared, cluster {@code its-rt}. */
        public static Containers composeStack() {
            return new Containers("jobmanager", "/opt/flink/shared", "its-rt");
        }

        @Override
        public Map<String, String> settings(StandaloneFlinkOptions options) {
            Map<String, String> where = new LinkedHashMap<>();
            where.put("jobmanager.rpc.address", jobManagerHost);
            where.put("jobmanager.rpc.port", Integer.toString(RPC_PORT));
            where.put("jobmanager.bind-host", ALL_INTERFACES);
            // No taskmanager.host: each TaskManager is reached at its own container's address,
            // which Flink finds by itself.
            where.put("taskmanager.bind-host", ALL_INTERFACES);
            where.put("rest.address", jobManagerHost);
            where.put("rest.bind-address", ALL_INTERFACES);
            where.put("rest.port", Integer.toString(REST_PORT));
            where.put("io.tmp.dirs", "/tmp");
            where.put("web.tmpdir", "/tmp");
            where.put("execution.checkpointing.dir", "file://" + sharedDir + "/checkpoints");
            where.put("execution.checkpointing.savepoint-dir", "file://" + sharedDir + "/savepoints");
            if (options.highAvailability()) {
                // With high availability a JobManager's RPC port is a random one unless set here.
                where.put("high-availability.jobmanager.port", Integer.toString(RPC_PORT));
                where.put("high-availability.zookeeper.quorum", options.zooKeeperQuorum());
                where.put("high-availability.storageDir", "file://" + sharedDir + "/ha");
                where.put("high-availability.cluster-id", clusterId);
            }
            return where;
        }
    }

    /** Task off-heap memory of each TaskManager: the model engine's native memory (see {@link #settings}). */
    static final String TASK_OFF_HEAP = "128m";

    /** Flink's own {@code taskmanager.registration.timeout}, the least a TaskManager is given. */
    static final Duration FLINK_REGISTRATION_TIMEOUT = Duration.ofMinutes(5);

    private ClusterConfig() {}

    /**
     * Every setting of config.yaml for {@code options} at {@code placement}: the placement's, then
     * slots, memory, how jobs recover and, with high availability, how the JobManagers meet in
     * ZooKeeper; then the options' further Flink settings, over all of these.
     */
    public static Map<String, String> settings(StandaloneFlinkOptions options, Placement placement) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put(JAVA_OPTS_KEY, String.join(" ", JVM_OPTIONS));
        all.putAll(placement.settings(options));
        all.put("jobmanager.memory.process.size", options.jobManagerMemory());
        all.put("taskmanager.memory.process.size", options.taskManagerMemory());
        // The job keeps its state on the heap, so Flink's managed memory (RocksDB's and batch
        // operators' budget) would go unused: none is set aside, and the model engines' native
        // memory, outside the heap, gets a budget instead. ONNX Runtime's library and session
        // take about 25 MB of it per TaskManager (docs/inference.md, section 5); TensorFlow's
        // (engines tensorflow and kernel*, which load it to read the weights) grows the process
        // by about 300 MB, more than a 1 GB TaskManager can set aside: those engines live on the
        // JVM overhead's margin.
        all.put("taskmanager.memory.managed.size", "0m");
        all.put("taskmanager.memory.task.off-heap.size", TASK_OFF_HEAP);
        all.put("taskmanager.numberOfTaskSlots", Integer.toString(options.slotsPerTaskManager()));
        all.put("classloader.parent-first-patterns.additional", MiniClusterSetup.PARENT_FIRST_PATTERNS);
        // A failed job restarts after a second, again and again (RESTART_ATTEMPTS), whether or not
        // it takes checkpoints: Flink's default restarts only checkpointing jobs, with a back-off
        // that grows with every failure, which makes one recovery's duration unlike the next.
        // With checkpoints it resumes from the last one; without, from its starting offsets.
        // A TaskManager that died is noticed when heartbeats to it fail twice in a row
        // (heartbeat.rpc-failure-threshold); every 2 s instead of 10 s, a killed TaskManager's job
        // restarts within seconds. The timeout for a TaskManager that stops answering (a long GC
        // pause) stays Flink's 50 s.
        all.put("heartbeat.interval", "2000");
        // A TaskManager that has not registered with the JobManager within this time exits. Flink's
        // 5 min is more than a start takes here, but on an emulated machine (the Xen lab under
        // QEMU's TCG) a cluster takes 4-5 min to come up and its TaskManager ran out of it: the
        // TaskManagers of a cluster given longer to start get as long.
        if (options.startTimeout().compareTo(FLINK_REGISTRATION_TIMEOUT) > 0) {
            all.put("taskmanager.registration.timeout", options.startTimeout().toMillis() + "ms");
        }
        all.put("restart-strategy.type", "fixed-delay");
        all.put("restart-strategy.fixed-delay.attempts", Integer.toString(StandaloneFlink.RESTART_ATTEMPTS));
        all.put("restart-strategy.fixed-delay.delay", "1s");
        // Checkpoints as files in a folder every process of the cluster reads: the default keeps
        // them in the JobManager's heap, lost with it, and a TaskManager's state could not be
        // restored on another one.
        all.put("execution.checkpointing.storage", "filesystem");
        if (options.highAvailability()) {
            // Job graphs, jars and checkpoint metadata that a new leader recovers the jobs from
            // live in high-availability.storageDir; ZooKeeper holds only pointers to them.
            all.put("high-availability.type", "zookeeper");
            all.put(
                    "high-availability.zookeeper.client.session-timeout",
                    StandaloneFlink.HA_SESSION_TIMEOUT.toMillis() + "ms");
            all.put(
                    "high-availability.zookeeper.client.connection-timeout",
                    StandaloneFlink.HA_CONNECTION_TIMEOUT.toMillis() + "ms");
        }
        all.putAll(options.flinkOptions());
        return all;
    }

    /** The settings as config.yaml: a comment header (each line gets its {@code #}), then one flat key per line. */
    public static String yaml(Map<String, String> settings, List<String> header) {
        StringBuilder yaml = new StringBuilder();
        header.forEach(line -> yaml.append(line.isEmpty() ? "#" : "# " + line).append('\n'));
        settings.forEach(
                (k, v) -> yaml.append(k).append(": ").append(yamlScalar(v)).append('\n'));
        return yaml.toString();
    }

    /** A YAML scalar: plain when it cannot be misread, single-quoted otherwise. */
    static String yamlScalar(String value) {
        if (value.matches("[A-Za-z0-9._/;-]+")) {
            return value;
        }
        return "'" + value.replace("'", "''") + "'";
    }

    private static List<String> jvmOptions() {
        List<String> all = new ArrayList<>(StandaloneFlink.JAVA_17_MODULE_OPTIONS);
        all.add("--add-modules=jdk.incubator.vector");
        return List.copyOf(all);
    }
}
