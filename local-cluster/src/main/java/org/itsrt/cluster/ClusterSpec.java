package org.itsrt.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.itsrt.stack.flink.StandaloneFlinkOptions;

/**
 * The shape of a local cluster: how many of each process, and on which ports.
 *
 * @param jobManagers  Flink JobManager processes; more than one needs {@code ha}
 * @param taskManagers Flink TaskManager processes
 * @param slots        task slots of each TaskManager
 * @param brokers      Kafka KRaft nodes (broker and controller each): 1, or 3 for replication factor 3 and
 *                     {@code min.insync.replicas} 2; 0 for Flink only, whose job's brokers run elsewhere
 * @param ha           a ZooKeeper server and ZooKeeper leader election for the JobManagers
 * @param ports        the well-known ports of each product, or free ones
 * @param taskManagerMemory {@code taskmanager.memory.process.size} of each TaskManager
 * @param startTimeout how long each part may take to answer
 * @param restBindAddress where Flink's REST endpoint (and web UI) listens: loopback unless told otherwise,
 *                     because the endpoint has no authentication of its own (docs/cluster.md)
 */
public record ClusterSpec(
        int jobManagers,
        int taskManagers,
        int slots,
        int brokers,
        boolean ha,
        PortChoice ports,
        String taskManagerMemory,
        Duration startTimeout,
        String restBindAddress) {

    /** Where the processes listen. */
    public enum PortChoice {
        /**
         * The ports each product's own scripts and docs use, counted up for a second process of a kind:
         * ZooKeeper 2181, Kafka 9092 (its controller 9093; brokers 2 and 3 on 9094/9095, 9096/9097), Flink
         * REST (web UI) 8081 and RPC 6123 (a second JobManager 8082 and 6124).
         */
        STANDARD,
        /** Ports free at start: for tests and for a second cluster beside one on the standard ports. */
        FREE
    }

    public static final int ZOOKEEPER_PORT = 2181;
    public static final int KAFKA_PORT = 9092;
    public static final int FLINK_REST_PORT = 8081;
    public static final int FLINK_RPC_PORT = 6123;
    /** Flink's REST endpoint listens on loopback only unless {@code --rest-bind-address} says otherwise. */
    public static final String LOOPBACK = "127.0.0.1";
    /** Bind addresses that listen on every interface, and so name none to reach the endpoint at. */
    private static final Set<String> WILDCARDS = Set.of("0.0.0.0", "::", "[::]");

    public ClusterSpec {
        if (jobManagers < 1 || taskManagers < 1 || slots < 1) {
            throw new IllegalArgumentException("--jobmanagers, --taskmanagers and --slots must be >= 1, got "
                    + jobManagers + ", " + taskManagers + ", " + slots);
        }
        if (brokers != 0 && brokers != 1 && brokers != 3) {
            throw new IllegalArgumentException("--brokers must be 0 (Flink only, for a Kafka cluster that runs "
                    + "elsewhere), 1, or 3 (replication factor 3), got " + brokers);
        }
        if (restBindAddress == null || restBindAddress.isBlank()) {
            throw new IllegalArgumentException("--rest-bind-address must name an address, e.g. " + LOOPBACK);
        }
        // Two JobManagers without leader election would both lead.
        ha = ha || jobManagers > 1;
    }

    /** One JobManager, one TaskManager with one slot, one broker, no ZooKeeper, standard ports. */
    public static ClusterSpec defaults() {
        return new ClusterSpec(1, 1, 1, 1, false, PortChoice.STANDARD, "1024m", Duration.ofSeconds(120), LOOPBACK);
    }

    public ClusterSpec withJobManagers(int n) {
        return new ClusterSpec(
                n, taskManagers, slots, brokers, ha, ports, taskManagerMemory, startTimeout, restBindAddress);
    }

    public ClusterSpec withTaskManagers(int n) {
        return new ClusterSpec(
                jobManagers, n, slots, brokers, ha, ports, taskManagerMemory, startTimeout, restBindAddress);
    }

    public ClusterSpec withSlots(int n) {
        return new ClusterSpec(
                jobManagers, taskManagers, n, brokers, ha, ports, taskManagerMemory, startTimeout, restBindAddress);
    }

    public ClusterSpec withBrokers(int n) {
        return new ClusterSpec(
                jobManagers, taskManagers, slots, n, ha, ports, taskManagerMemory, startTimeout, restBindAddress);
    }

    public ClusterSpec withHa(boolean on) {
        return new ClusterSpec(
                jobManagers, taskManagers, slots, brokers, on, ports, taskManagerMemory, startTimeout, restBindAddress);
    }

    public ClusterSpec withPorts(PortChoice choice) {
        return new ClusterSpec(
                jobManagers,
                taskManagers,
                slots,
                brokers,
                ha,
                choice,
                taskManagerMemory,
                startTimeout,
                restBindAddress);
    }

    public ClusterSpec withTaskManagerMemory(String size) {
        return new ClusterSpec(
                jobManagers, taskManagers, slots, brokers, ha, ports, size, startTimeout, restBindAddress);
    }

    public ClusterSpec withStartTimeout(Duration timeout) {
        return new ClusterSpec(
                jobManagers, taskManagers, slots, brokers, ha, ports, taskManagerMemory, timeout, restBindAddress);
    }

    public ClusterSpec withRestBindAddress(String address) {
        return new ClusterSpec(
                jobManagers, taskManagers, slots, brokers, ha, ports, taskManagerMemory, startTimeout, address);
    }

    /**
     * The Flink cluster of this shape, wherever it runs: processes, slots, memory. Where it runs
     * (ports, folder, ZooKeeper's address) is added by the caller, hence a builder: options of
     * several JobManagers cannot be built without ZooKeeper's address.
     */
    public StandaloneFlinkOptions.Builder flinkOptions() {
        return StandaloneFlinkOptions.builder()
                .jobManagers(jobManagers)
                .taskManagers(taskManagers)
                .slotsPerTaskManager(slots)
                .taskManagerMemory(taskManagerMemory)
                .startTimeout(startTimeout)
                // Over the placement's loopback address only when told: an open REST endpoint
                // lets anyone who reaches it submit code.
                .flinkOptions(restSettings());
    }

    /**
     * Where the REST endpoint listens, over loopback when {@code --rest-bind-address} says: the
     * endpoint binds that address and, unless it is a wildcard (0.0.0.0), is reached there too
     * (rest.address: what Flink's clients and a leader's record in ZooKeeper name, what {@code up},
     * {@code status} and {@code submit} ask). The JobManagers and TaskManagers keep talking over
     * loopback whatever this says.
     */
    private Map<String, String> restSettings() {
        if (restBindAddress.equals(LOOPBACK)) {
            return Map.of();
        }
        if (WILDCARDS.contains(restBindAddress)) {
            return Map.of("rest.bind-address", restBindAddress);
        }
        return Map.of("rest.bind-address", restBindAddress, "rest.address", restBindAddress);
    }

    /** Partitions of each pipeline topic: one per slot, so a job that uses every slot reads from every partition. */
    public int partitions() {
        return taskManagers * slots;
    }

    /** ZooKeeper's client port; 0 = a free one. */
    int zooKeeperPort() {
        return ports == PortChoice.STANDARD ? ZOOKEEPER_PORT : 0;
    }

    /** Each broker's listener port; empty = free ones. */
    List<Integer> kafkaPorts() {
        return standard(KAFKA_PORT, 2, brokers);
    }

    /** Each broker's controller port; empty = free ones. */
    List<Integer> kafkaControllerPorts() {
        return standard(KAFKA_PORT + 1, 2, brokers);
    }

    /** Each JobManager's REST port; empty = free ones. */
    List<Integer> flinkRestPorts() {
        return standard(FLINK_REST_PORT, 1, jobManagers);
    }

    /** Each JobManager's RPC port; empty = free ones. */
    List<Integer> flinkRpcPorts() {
        return standard(FLINK_RPC_PORT, 1, jobManagers);
    }

    private List<Integer> standard(int first, int step, int count) {
        if (ports == PortChoice.FREE) {
            return List.of();
        }
        return IntStream.range(0, count).map(i -> first + i * step).boxed().toList();
    }

    /** One line: "1 JobManager, 2 TaskManagers x 1 slot, 3 brokers, ZooKeeper HA". */
    public String describe() {
        return plural(jobManagers, "JobManager") + ", " + plural(taskManagers, "TaskManager") + " x "
                + plural(slots, "slot") + ", " + plural(brokers, "Kafka broker") + (ha ? ", ZooKeeper HA" : "");
    }

    private static String plural(int n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }

    /** Where {@code ./its cluster} keeps a cluster unless told otherwise. */
    public static Path defaultDir(Path repositoryRoot) {
        return repositoryRoot.resolve("runs").resolve("cluster");
    }
}
