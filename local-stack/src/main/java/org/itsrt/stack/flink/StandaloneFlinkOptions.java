package org.itsrt.stack.flink;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How to start the cluster: {@link #builder()} names the fields to set and holds the defaults,
 * this record's constructor refuses what cannot work, alone or together, naming the field.
 * Refusing at once, rather than in {@link StandaloneFlink#start}, keeps every check in one place
 * and means an {@code StandaloneFlinkOptions} value is always one that can start.
 *
 * @param taskManagers        how many TaskManager processes
 * @param slotsPerTaskManager task slots of each TaskManager
 * @param jobManagerMemory    {@code jobmanager.memory.process.size} of each JobManager (heap and
 *                            the rest derived by Flink)
 * @param taskManagerMemory   {@code taskmanager.memory.process.size} of each TaskManager
 * @param jvmArgs             further JVM options for every cluster process
 * @param flinkOptions        further Flink options, written into config.yaml after (and so over)
 *                            this class's own
 * @param parentDir           where the cluster folder goes (null: java.io.tmpdir)
 * @param classPath           the processes' class path: Flink, TensorFlow (with its native library
 *                            for this platform), logging, this module's classes
 * @param startTimeout        how long each JobManager, and then the TaskManagers' registration, may take
 * @param jobManagers         how many JobManager processes; more than one needs {@code zooKeeperQuorum}
 * @param zooKeeperQuorum     ZooKeeper's {@code host:port[,host:port...]} for high availability;
 *                            null: none (one JobManager, which must not die)
 * @param restPorts           each JobManager's REST port, in order; empty: free ports
 * @param rpcPorts            each JobManager's RPC port, in order; empty: free ports
 */
public record StandaloneFlinkOptions(
        int taskManagers,
        int slotsPerTaskManager,
        String jobManagerMemory,
        String taskManagerMemory,
        List<String> jvmArgs,
        Map<String, String> flinkOptions,
        Path parentDir,
        String classPath,
        Duration startTimeout,
        int jobManagers,
        String zooKeeperQuorum,
        List<Integer> restPorts,
        List<Integer> rpcPorts) {

    public StandaloneFlinkOptions {
        if (taskManagers < 1) {
            throw new IllegalArgumentException("taskManagers must be >= 1, got " + taskManagers);
        }
        if (slotsPerTaskManager < 1) {
            throw new IllegalArgumentException("slotsPerTaskManager must be >= 1, got " + slotsPerTaskManager);
        }
        requireGiven(jobManagerMemory, "jobManagerMemory");
        requireGiven(taskManagerMemory, "taskManagerMemory");
        requireGiven(jvmArgs, "jvmArgs");
        requireGiven(flinkOptions, "flinkOptions");
        requireGiven(classPath, "classPath");
        requireGiven(startTimeout, "startTimeout");
        requireGiven(restPorts, "restPorts");
        requireGiven(rpcPorts, "rpcPorts");
        if (jobManagers < 1) {
            throw new IllegalArgumentException("jobManagers must be >= 1, got " + jobManagers);
        }
        if (zooKeeperQuorum != null && zooKeeperQuorum.isBlank()) {
            throw new IllegalArgumentException("zooKeeperQuorum is empty (null for no high availability)");
        }
        jvmArgs = List.copyOf(jvmArgs);
        flinkOptions = Map.copyOf(flinkOptions);
        restPorts = List.copyOf(restPorts);
        rpcPorts = List.copyOf(rpcPorts);
        // What no single field can refuse: the combinations that cannot work.
        if (jobManagers > 1 && zooKeeperQuorum == null) {
            throw new IllegalArgumentException("jobManagers: " + jobManagers + " JobManagers need ZooKeeper high "
                    + "availability (zooKeeperQuorum): without it each would run a cluster of its own");
        }
        checkPorts("restPorts", restPorts, jobManagers);
        checkPorts("rpcPorts", rpcPorts, jobManagers);
        Set<Integer> seen = new HashSet<>();
        for (int port : concat(restPorts, rpcPorts)) {
            if (!seen.add(port)) {
                throw new IllegalArgumentException("restPorts, rpcPorts: port " + port + " is given twice (REST "
                        + "and RPC ports of the JobManagers must all differ)");
            }
        }
        if (jobManagers > 1) {
            for (String key : List.of(
                    StandaloneFlink.REST_PORT_KEY, StandaloneFlink.RPC_PORT_KEY, StandaloneFlink.HA_RPC_PORT_KEY)) {
                if (flinkOptions.containsKey(key)) {
                    throw new IllegalArgumentException("flinkOptions: the Flink option " + key + " cannot serve "
                            + jobManagers + " JobManagers: give one port each with restPorts / rpcPorts");
                }
            }
        }
    }

    /**
     * One JobManager without high availability, one TaskManager with one slot, 1 GB per
     * process, free ports, the class path this module was built with; change what differs.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options, to change a few of them. */
    public Builder toBuilder() {
        return new Builder()
                .taskManagers(taskManagers)
                .slotsPerTaskManager(slotsPerTaskManager)
                .jobManagerMemory(jobManagerMemory)
                .taskManagerMemory(taskManagerMemory)
                .jvmArgs(jvmArgs)
                .flinkOptions(flinkOptions)
                .parentDir(parentDir)
                .classPath(classPath)
                .startTimeout(startTimeout)
                .jobManagers(jobManagers)
                .zooKeeperQuorum(zooKeeperQuorum)
                .restPorts(restPorts)
                .rpcPorts(rpcPorts);
    }

    /** True with ZooKeeper high availability. */
    public boolean highAvailability() {
        return zooKeeperQuorum != null;
    }

    private static void requireGiven(Object value, String field) {
        if (value == null) {
            throw new IllegalArgumentException(field + " must be given");
        }
    }

    private static void checkPorts(String field, List<Integer> ports, int jobManagers) {
        if (!ports.isEmpty() && ports.size() != jobManagers) {
            throw new IllegalArgumentException(field + " gives " + ports.size() + " port(s) for " + jobManagers
                    + " JobManager(s): give one each, or none for free ports");
        }
        for (int port : ports) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException(field + ": " + port + " is not a port (1..65535)");
            }
        }
    }

    private static List<Integer> concat(List<Integer> a, List<Integer> b) {
        List<Integer> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** StandaloneFlinkOptions field by field, from the defaults of {@link StandaloneFlinkOptions#builder()}; {@link #build()} checks them. */
    public static final class Builder {
        private int taskManagers = 1;
        private int slotsPerTaskManager = 1;
        private String jobManagerMemory = "1024m";
        private String taskManagerMemory = "1024m";
        private List<String> jvmArgs = List.of();
        private Map<String, String> flinkOptions = Map.of();
        private Path parentDir;
        /** Null until set: the module's class path is read at {@link #build()}, only when none was given. */
        private String classPath;

        private Duration startTimeout = Duration.ofSeconds(120);
        private int jobManagers = 1;
        private String zooKeeperQuorum;
        private List<Integer> restPorts = List.of();
        private List<Integer> rpcPorts = List.of();

        private Builder() {}

        public Builder taskManagers(int n) {
            this.taskManagers = n;
            return this;
        }

        public Builder slotsPerTaskManager(int n) {
            this.slotsPerTaskManager = n;
            return this;
        }

        public Builder jobManagerMemory(String size) {
            this.jobManagerMemory = size;
            return this;
        }

        public Builder taskManagerMemory(String size) {
            this.taskManagerMemory = size;
            return this;
        }

        public Builder jvmArgs(List<String> args) {
            this.jvmArgs = args;
            return this;
        }

        /** All further Flink options (replacing any given before), written over this class's own. */
        public Builder flinkOptions(Map<String, String> options) {
            this.flinkOptions = options;
            return this;
        }

        /** Where the cluster folder goes; null: java.io.tmpdir. */
        public Builder parentDir(Path parent) {
            this.parentDir = parent;
            return this;
        }

        /** The processes' class path (default: {@code target/flink-lib-classpath.txt} and this module). */
        public Builder classPath(String path) {
            this.classPath = path;
            return this;
        }

        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /** How many JobManager processes; more than one needs {@link #zooKeeperQuorum}. */
        public Builder jobManagers(int n) {
            this.jobManagers = n;
            return this;
        }

        /**
         * ZooKeeper high availability on {@code quorum} ({@code host:port[,host:port...]}, such
         * as {@code LocalZooKeeper.connectString()}); null: none. The cluster's znodes live
         * under {@code /flink/<the cluster folder's name>}, so clusters on one ZooKeeper stay apart.
         */
        public Builder zooKeeperQuorum(String quorum) {
            this.zooKeeperQuorum = quorum;
            return this;
        }

        /** Each JobManager's REST port, in start order (one per JobManager); empty: free ports. */
        public Builder restPorts(List<Integer> ports) {
            this.restPorts = ports;
            return this;
        }

        /** Each JobManager's RPC port, in start order (one per JobManager); empty: free ports. */
        public Builder rpcPorts(List<Integer> ports) {
            this.rpcPorts = ports;
            return this;
        }

        /** The options; fails naming the field when they cannot work. */
        public StandaloneFlinkOptions build() {
            return new StandaloneFlinkOptions(
                    taskManagers,
                    slotsPerTaskManager,
                    jobManagerMemory,
                    taskManagerMemory,
                    jvmArgs,
                    flinkOptions,
                    parentDir,
                    classPath != null ? classPath : LocalFlink.moduleClassPath(),
                    startTimeout,
                    jobManagers,
                    zooKeeperQuorum,
                    restPorts,
                    rpcPorts);
        }
    }
}
