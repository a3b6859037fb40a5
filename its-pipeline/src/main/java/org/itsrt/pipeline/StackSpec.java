package org.itsrt.pipeline;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeSet;
import org.itsrt.cluster.ClusterDescriptor;
import org.itsrt.cluster.FlinkRest;
import org.itsrt.kafka.KafkaClientConfig;

/**
 * What a pipeline runs on: a Kafka broker and a Flink cluster, each started for the run or one
 * that already runs, and which CPUs the parts may use.
 *
 * @param broker the topics' broker
 * @param cluster where the job runs
 * @param slots  task slots of a cluster the run starts: the job's parallelism
 * @param pins   part ({@code broker}, {@code flink}, {@code clients}) to a CPU list ({@code 0}, {@code 0-1},
 *               {@code 0,2}), pinned with taskset once started
 * @param cpuLatencyUs a CPU latency request the run holds on this host while its stack runs
 *               ({@code CpuLatencyRequest}: 0 keeps idle CPUs polling); empty for none
 */
public record StackSpec(Broker broker, Cluster cluster, int slots, Map<String, String> pins, OptionalInt cpuLatencyUs) {

    /** The parts that can be pinned: the local broker, the child cluster, this JVM (producers and probe). */
    public static final List<String> PINNABLE = List.of("broker", "flink", "clients");

    public StackSpec {
        pins = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(pins));
        if (slots < 1) {
            throw new IllegalArgumentException("slots (the job's parallelism) must be >= 1, got " + slots);
        }
        if (cpuLatencyUs == null) {
            cpuLatencyUs = OptionalInt.empty();
        }
        if (cpuLatencyUs.isPresent() && cpuLatencyUs.getAsInt() < 0) {
            throw new IllegalArgumentException(
                    "--cpu-latency-us must be >= 0 microseconds, got " + cpuLatencyUs.getAsInt());
        }
        checkPins(
                pins,
                !(broker instanceof Broker.Existing),
                cluster instanceof Cluster.Child || cluster instanceof Cluster.Standalone);
    }

    /**
     * Refuses a pin of a part that is not there to pin, or a CPU list that is not one.
     *
     * @param brokerStarted  whether the run starts the broker (one that already runs is not the run's to pin)
     * @param clusterStarted whether the run starts the cluster in processes of its own
     */
    public static void checkPins(Map<String, String> pins, boolean brokerStarted, boolean clusterStarted) {
        for (Map.Entry<String, String> pin : pins.entrySet()) {
            if (!PINNABLE.contains(pin.getKey())) {
                throw new IllegalArgumentException(
                        "--pin " + pin.getKey() + ": the parts are " + new TreeSet<>(PINNABLE));
            }
            if (!pin.getValue().matches("\\d+(-\\d+)?(,\\d+(-\\d+)?)*")) {
                throw new IllegalArgumentException("--pin " + pin.getKey() + ": a CPU list like 1, 0-1 or 0,2 is "
                        + "required, got " + pin.getValue());
            }
        }
        if (pins.containsKey("broker") && !brokerStarted) {
            throw new IllegalArgumentException(
                    "--pin broker: the broker at --bootstrap-servers is not the run's to pin");
        }
        if (pins.containsKey("flink") && !clusterStarted) {
            throw new IllegalArgumentException(
                    "--pin flink needs a cluster the run starts (the child cluster's process, or the standalone "
                            + "cluster's TaskManager)");
        }
    }

    /** A stack without a CPU latency request. */
    public StackSpec(Broker broker, Cluster cluster, int slots, Map<String, String> pins) {
        this(broker, cluster, slots, pins, OptionalInt.empty());
    }

    /** The same stack, run while this host holds a CPU latency request of {@code microseconds}. */
    public StackSpec withCpuLatencyUs(int microseconds) {
        return new StackSpec(broker, cluster, slots, pins, OptionalInt.of(microseconds));
    }

    /**
     * A local broker and a standalone cluster (one JobManager, one TaskManager), nothing pinned:
     * what {@code ./its demo} runs by default.
     */
    public static StackSpec local(Path jobJar) {
        return new StackSpec(
                new Broker.Local(Broker.Local.DEFAULT_HEAP, List.of()),
                new Cluster.Standalone(jobJar, List.of(), 1, false),
                1,
                Map.of());
    }

    /**
     * The brokers and the JobManagers of a cluster that {@code ./its cluster up} started in
     * {@code clusterDir}: the job is submitted to the leading JobManager (and followed across a
     * failover through ZooKeeper), a budget goes on its first TaskManager.
     *
     * @throws java.nio.file.NoSuchFileException naming the folder when no cluster is up there
     */
    public static StackSpec onCluster(Path clusterDir, Path jobJar, int slots, Map<String, String> pins)
            throws java.io.IOException, InterruptedException {
        return onCluster(ClusterDescriptor.read(clusterDir), jobJar, slots, pins);
    }

    /** {@link #onCluster(Path, Path, int, Map)} for a cluster known by its descriptor. */
    public static StackSpec onCluster(ClusterDescriptor cluster, Path jobJar, int slots, Map<String, String> pins)
            throws InterruptedException {
        if (cluster.kafka() == null) {
            throw new IllegalArgumentException("the cluster in " + cluster.dir() + " has no Kafka (--brokers 0): "
                    + "reach it with --flink-rest and its brokers with --bootstrap-servers instead of --cluster");
        }
        URI leader = new FlinkRest()
                .leader(cluster.restAddresses(), cluster.flink().clientOptions())
                .orElse(cluster.restAddresses().get(0));
        return new StackSpec(
                new Broker.Existing(cluster.kafka().bootstrapServers()),
                new Cluster.Existing(
                        leader,
                        jobJar,
                        OptionalLong.of(cluster.taskManagerPids().get(0)),
                        cluster.flink().clientOptions()),
                slots,
                pins);
    }

    /**
     * The same stack with a client properties file ({@code --kafka-config}) for every client of a
     * run on a Kafka cluster it does not start; no file leaves it as it is.
     *
     * @throws IllegalArgumentException for a broker the run starts: a secured one makes a file per user
     */
    public StackSpec withKafkaConfig(KafkaClientConfig config) {
        if (config.isEmpty()) {
            return this;
        }
        if (!(broker instanceof Broker.Existing existing)) {
            throw new IllegalArgumentException("--kafka-config is for a Kafka cluster the run does not start "
                    + "(--bootstrap-servers, --cluster-dir); a broker the run starts is secured with --secure");
        }
        return new StackSpec(
                new Broker.Existing(existing.bootstrapServers(), existing.jobBootstrapServers(), config),
                cluster,
                slots,
                pins,
                cpuLatencyUs);
    }

    /** The client properties file every Kafka client of the run uses; none for a broker the run starts. */
    public KafkaClientConfig kafkaConfig() {
        return broker instanceof Broker.Existing existing ? existing.clientConfig() : KafkaClientConfig.none();
    }

    /** The broker as a refusal names it. */
    public String brokerName() {
        return broker instanceof Broker.Existing existing ? existing.bootstrapServers() : "the run's brokers";
    }

    /** The topics' broker. */
    public sealed interface Broker {

        /** One line for reports. */
        String describe();

        /**
         * A KRaft broker started for the run as a child JVM, removed afterwards.
         *
         * @param jvmArgs options for its JVM; a collector chosen here replaces the default G1 with a 20 ms pause goal
         * @param secure  a SASL_SSL listener with SCRAM users and ACLs (docs/security.md): the producers,
         *                the job and the probe each connect as their own user
         */
        record Local(String heap, List<String> jvmArgs, boolean secure) implements Broker {
            public static final String DEFAULT_HEAP = "512m";

            public Local {
                jvmArgs = List.copyOf(jvmArgs);
            }

            /** A PLAINTEXT broker. */
            public Local(String heap, List<String> jvmArgs) {
                this(heap, jvmArgs, false);
            }

            @Override
            public String describe() {
                return "KRaft, child process (heap " + heap
                        + (jvmArgs.isEmpty() ? "" : ", " + String.join(" ", jvmArgs)) + ")"
                        + (secure ? ", SASL_SSL with SCRAM-SHA-512 users and ACLs" : "");
            }
        }

        /**
         * A Kafka cluster that already runs; the pipeline's topics are created there when missing.
         *
         * @param jobBootstrapServers the same cluster as the job's tasks reach it ({@code
         *                     --job-bootstrap-servers}); null: {@code bootstrapServers}
         * @param clientConfig a client properties file ({@code --kafka-config}) for every client of
         *                     the run: producers, job, probe, topic and dead-letter checks
         */
        record Existing(String bootstrapServers, String jobBootstrapServers, KafkaClientConfig clientConfig)
                implements Broker {
            public Existing {
                if (clientConfig == null) {
                    clientConfig = KafkaClientConfig.none();
                }
                if (jobBootstrapServers == null) {
                    jobBootstrapServers = bootstrapServers;
                }
            }

            public Existing(String bootstrapServers) {
                this(bootstrapServers, null, KafkaClientConfig.none());
            }

            public Existing(String bootstrapServers, KafkaClientConfig clientConfig) {
                this(bootstrapServers, null, clientConfig);
            }

            @Override
            public String describe() {
                return "existing cluster at " + bootstrapServers
                        + (jobBootstrapServers.equals(bootstrapServers)
                                ? ""
                                : " (the job's tasks: " + jobBootstrapServers + ")")
                        + clientConfig.source().map(f -> ", clients with " + f).orElse("");
            }
        }
    }

    /** Where the job runs. */
    public sealed interface Cluster {

        /** A MiniCluster in this JVM, sharing its heap with the producers and the probe. */
        record InProcess() implements Cluster {}

        /**
         * A MiniCluster in a child JVM whose class path is a Flink lib/ (Flink, TensorFlow Java), given
         * the job jar as {@code flink run} gives it: child-first class loading, its own heap and process.
         */
        record Child(Path jobJar, List<String> jvmArgs) implements Cluster {
            public Child {
                jvmArgs = List.copyOf(jvmArgs);
                requireJobJar(jobJar);
            }
        }

        /**
         * A Flink standalone session cluster started for the run: a JobManager process and
         * TaskManager processes from Flink's own entry points on one config.yaml, the job jar
         * submitted over REST as to any real cluster; with {@code ha} a ZooKeeper server beside it
         * and the JobManager elected through it. Stopped and removed afterwards.
         *
         * @param jvmArgs options for the TaskManagers' JVMs (where the job's operators run)
         */
        record Standalone(Path jobJar, List<String> jvmArgs, int taskManagers, boolean ha) implements Cluster {
            public Standalone {
                jvmArgs = List.copyOf(jvmArgs);
                requireJobJar(jobJar);
                if (taskManagers < 1) {
                    throw new IllegalArgumentException("--taskmanagers must be >= 1, got " + taskManagers);
                }
            }
        }

        /**
         * A cluster that already runs, reached at its REST address, given the job jar; its lib/ holds what
         * the job jar leaves out (docs/job.md). It is left running; the job is cancelled.
         *
         * @param taskManagerPid the process that runs the job's tasks, where it is on this host (what a
         *                       Linux budget is applied to)
         * @param clientOptions  Flink options for the client beyond the address: with a cluster's
         *                       high-availability options it finds the leading JobManager through
         *                       ZooKeeper, also after a failover
         */
        record Existing(URI rest, Path jobJar, OptionalLong taskManagerPid, Map<String, String> clientOptions)
                implements Cluster {
            public Existing {
                if (rest.getHost() == null || rest.getPort() < 0) {
                    throw new IllegalArgumentException("--flink-rest must be like http://HOST:PORT, got " + rest);
                }
                requireJobJar(jobJar);
                clientOptions = Map.copyOf(clientOptions);
            }

            public Existing(URI rest, Path jobJar, OptionalLong taskManagerPid) {
                this(rest, jobJar, taskManagerPid, Map.of());
            }
        }

        private static void requireJobJar(Path jobJar) {
            if (jobJar == null || !Files.isRegularFile(jobJar)) {
                throw new IllegalArgumentException(
                        "--job-jar: no such file: " + jobJar + " (built by `mvn -pl its-job -am package`)");
            }
        }
    }
}
