package org.itsrt.pipeline.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.pipeline.StackSpec;
import org.itsrt.pipeline.profile.Profiler;

/**
 * What a run runs on, as written in a plan: a Kafka broker and a Flink cluster, each started for
 * the run or one that already runs, the job's parallelism, which CPUs the parts may use and the
 * host's CPU latency request. {@link #toSpec} resolves it into the {@link StackSpec} a run starts
 * (the job jar found, a cluster's descriptor read).
 *
 * @param broker       the topics' broker: a local one, or a Kafka cluster that already runs
 * @param flink        the job's cluster: one the run starts, or one that already runs
 * @param cluster      a cluster that {@code ./its cluster up} started in this folder (its brokers and
 *                     JobManagers) instead of either; null for none
 * @param jobJar       the job jar; null for its-job's build
 * @param parallelism  the job's parallelism (the task slots of each TaskManager the run starts)
 * @param pins         part ({@code broker}, {@code flink}, {@code clients}) to a CPU list, pinned with taskset
 * @param cpuLatencyUs a CPU latency request this host holds while the stack runs (0: idle CPUs
 *                     poll); null for none
 */
@JsonDeserialize(builder = StackPlan.Builder.class)
@JsonPropertyOrder({"broker", "flink", "cluster", "job_jar", "parallelism", "pins", "cpu_latency_us"})
public record StackPlan(
        Broker broker,
        Flink flink,
        Path cluster,
        Path jobJar,
        int parallelism,
        Map<String, String> pins,
        Integer cpuLatencyUs) {

    public static final PlanField CLUSTER = new PlanField("stack.cluster", "--cluster");
    public static final PlanField PARALLELISM = new PlanField("stack.parallelism", "--parallelism");
    public static final PlanField PINS = new PlanField("stack.pins", "--pin");
    public static final PlanField CPU_LATENCY = new PlanField("stack.cpu_latency_us", "--cpu-latency-us");

    public StackPlan {
        broker = broker != null ? broker : Broker.builder().build();
        flink = flink != null ? flink : Flink.builder().build();
        pins = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(pins == null ? Map.of() : pins));
        PARALLELISM.require(parallelism >= 1, "must be >= 1, got " + parallelism);
        CPU_LATENCY.require(
                cpuLatencyUs == null || cpuLatencyUs >= 0,
                "must be >= 0 microseconds (0: idle CPUs poll), got " + cpuLatencyUs);
        if (cluster != null) {
            CLUSTER.require(
                    broker.bootstrapServers() == null
                            && broker.jvmArgs().isEmpty()
                            && flink.rest() == null
                            && flink.jvmArgs().isEmpty()
                            && flink.taskmanagers() == 1
                            && !flink.ha(),
                    "brings its own brokers and JobManagers: it goes without --flink-rest, --bootstrap-servers, "
                            + "--taskmanagers, --ha and the JVM options of parts the run would start");
        }
        Broker.SECURE.require(
                !broker.secure() || (broker.bootstrapServers() == null && cluster == null),
                "is for the broker the run starts; a cluster that already runs is reached with --kafka-config FILE");
        Broker.KAFKA_CONFIG.require(
                broker.kafkaConfig() == null || broker.bootstrapServers() != null || cluster != null,
                "is for a Kafka cluster the run does not start (--bootstrap-servers, --cluster); a broker the run "
                        + "starts is secured with --secure");
        try {
            StackSpec.checkPins(
                    pins,
                    broker.bootstrapServers() == null && cluster == null,
                    cluster == null && flink.rest() == null && flink.mode() != Flink.Mode.IN_PROCESS);
        } catch (IllegalArgumentException e) {
            throw PINS.refused(": " + e.getMessage().replaceFirst("^--pin ", ""));
        }
    }

    /** A local broker and a standalone cluster, one JobManager and one TaskManager, nothing pinned. */
    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder()
                .broker(broker)
                .flink(flink)
                .cluster(cluster)
                .jobJar(jobJar)
                .parallelism(parallelism)
                .pins(pins)
                .cpuLatencyUs(cpuLatencyUs);
    }

    /**
     * The stack a run starts or reaches: the job jar found (its-job's build unless given), a
     * cluster's descriptor read, the client properties file loaded; with {@code profile} the JVMs
     * the run starts record a flight recording.
     *
     * @throws IllegalArgumentException naming the option whose file is missing
     * @throws java.nio.file.NoSuchFileException naming the folder when no cluster is up there
     */
    public StackSpec toSpec(boolean profile) throws java.io.IOException, InterruptedException {
        Path jar = jobJar != null ? jobJar : ProjectPaths.locate().jobJar();
        KafkaClientConfig clientConfig;
        try {
            clientConfig = KafkaClientConfig.loadOrNone(broker.kafkaConfig());
        } catch (IllegalArgumentException e) {
            throw Broker.KAFKA_CONFIG.refused(": " + e.getMessage());
        }
        OptionalInt latency = cpuLatencyUs == null ? OptionalInt.empty() : OptionalInt.of(cpuLatencyUs);
        if (cluster != null) {
            StackSpec on = StackSpec.onCluster(cluster, jar, parallelism, pins).withKafkaConfig(clientConfig);
            return new StackSpec(on.broker(), on.cluster(), on.slots(), on.pins(), latency);
        }
        StackSpec.Broker brokerSpec = broker.bootstrapServers() != null
                ? new StackSpec.Broker.Existing(
                        broker.bootstrapServers(), broker.jobBootstrapServers(), KafkaClientConfig.none())
                : new StackSpec.Broker.Local(broker.heap(), withJfr(broker.jvmArgs(), profile), broker.secure());
        List<String> clusterArgs = withJfr(flink.jvmArgs(), profile);
        StackSpec.Cluster clusterSpec;
        if (flink.rest() != null) {
            clusterSpec = new StackSpec.Cluster.Existing(
                    flink.rest(),
                    jar,
                    flink.taskmanagerPid() == null ? OptionalLong.empty() : OptionalLong.of(flink.taskmanagerPid()));
        } else {
            clusterSpec = switch (flink.mode()) {
                case STANDALONE -> new StackSpec.Cluster.Standalone(jar, clusterArgs, flink.taskmanagers(), flink.ha());
                case CHILD -> new StackSpec.Cluster.Child(jar, clusterArgs);
                case IN_PROCESS -> new StackSpec.Cluster.InProcess();
            };
        }
        return new StackSpec(brokerSpec, clusterSpec, parallelism, pins, latency).withKafkaConfig(clientConfig);
    }

    /** {@code args} and the flight recording that a profiled run dumps at the end of the load. */
    private static List<String> withJfr(List<String> args, boolean profile) {
        if (!profile) {
            return args;
        }
        List<String> all = new ArrayList<>(args);
        all.add(Profiler.JVM_OPTION);
        return all;
    }

    @JsonPOJOBuilder(withPrefix = "")
    public static final class Builder {
        private Broker broker;
        private Flink flink;
        private Path cluster;
        private Path jobJar;
        private int parallelism = 1;
        private Map<String, String> pins = Map.of();
        private Integer cpuLatencyUs;

        public Builder broker(Broker topics) {
            this.broker = topics;
            return this;
        }

        public Builder flink(Flink jobCluster) {
            this.flink = jobCluster;
            return this;
        }

        public Builder cluster(Path folder) {
            this.cluster = folder;
            return this;
        }

        public Builder jobJar(Path jar) {
            this.jobJar = jar;
            return this;
        }

        public Builder parallelism(int subtasks) {
            this.parallelism = subtasks;
            return this;
        }

        public Builder pins(Map<String, String> cpusByPart) {
            this.pins = cpusByPart;
            return this;
        }

        /** One part pinned more, over a pin of the same part. */
        public Builder pin(String part, String cpus) {
            Map<String, String> more = new LinkedHashMap<>(pins);
            more.put(part, cpus);
            this.pins = more;
            return this;
        }

        public Broker.Builder brokerBuilder() {
            return broker != null ? broker.toBuilder() : Broker.builder();
        }

        public Flink.Builder flinkBuilder() {
            return flink != null ? flink.toBuilder() : Flink.builder();
        }

        public Builder cpuLatencyUs(Integer microseconds) {
            this.cpuLatencyUs = microseconds;
            return this;
        }

        public StackPlan build() {
            return new StackPlan(broker, flink, cluster, jobJar, parallelism, pins, cpuLatencyUs);
        }
    }

    /**
     * The topics' broker: a KRaft broker the run starts as a child JVM, or a Kafka cluster that
     * already runs ({@code bootstrapServers}), where the pipeline's topics are created when missing.
     *
     * @param heap             a local broker's heap, -Xms and -Xmx
     * @param jvmArgs          options for a local broker's JVM; a collector chosen here replaces the default G1
     * @param secure           a local broker with SASL_SSL, SCRAM users and ACLs (docs/security.md)
     * @param bootstrapServers a Kafka cluster that already runs; null for a local broker
     * @param jobBootstrapServers the same cluster as the job's tasks reach it, where that address
     *                         differs from this host's (a Docker network's listener, kafka:19092 on
     *                         the Compose stack); null: {@code bootstrapServers}
     * @param kafkaConfig      a client properties file for every client of a run on a cluster it does not start
     */
    @JsonDeserialize(builder = Broker.Builder.class)
    @JsonPropertyOrder({"heap", "jvm_args", "secure", "bootstrap_servers", "job_bootstrap_servers", "kafka_config"})
    public record Broker(
            String heap,
            List<String> jvmArgs,
            boolean secure,
            String bootstrapServers,
            String jobBootstrapServers,
            Path kafkaConfig) {

        public static final PlanField HEAP = new PlanField("stack.broker.heap", "--broker-heap");
        public static final PlanField JVM_ARGS = new PlanField("stack.broker.jvm_args", "--broker-jvm-arg");
        public static final PlanField SECURE = new PlanField("stack.broker.secure", "--secure");
        public static final PlanField BOOTSTRAP =
                new PlanField("stack.broker.bootstrap_servers", "--bootstrap-servers");
        public static final PlanField JOB_BOOTSTRAP =
                new PlanField("stack.broker.job_bootstrap_servers", "--job-bootstrap-servers");
        public static final PlanField KAFKA_CONFIG = new PlanField("stack.broker.kafka_config", "--kafka-config");

        public Broker {
            jvmArgs = List.copyOf(jvmArgs == null ? List.of() : jvmArgs);
            HEAP.require(
                    heap != null && heap.matches("\\d+[kKmMgG]?"),
                    "must be a JVM heap size like 512m or 2g, got " + heap);
            JVM_ARGS.require(
                    bootstrapServers == null || jvmArgs.isEmpty(),
                    "is for a broker the run starts, not one at --bootstrap-servers");
            BOOTSTRAP.require(
                    bootstrapServers == null || bootstrapServers.matches("[^\\s,]+:\\d+(,[^\\s,]+:\\d+)*"),
                    "must be HOST:PORT[,HOST:PORT...], got " + bootstrapServers);
            JOB_BOOTSTRAP.require(
                    jobBootstrapServers == null || bootstrapServers != null,
                    "is the job's address of a Kafka cluster that already runs: it goes with --bootstrap-servers");
            JOB_BOOTSTRAP.require(
                    jobBootstrapServers == null || jobBootstrapServers.matches("[^\\s,]+:\\d+(,[^\\s,]+:\\d+)*"),
                    "must be HOST:PORT[,HOST:PORT...], got " + jobBootstrapServers);
        }

        public static Builder builder() {
            return new Builder();
        }

        public Builder toBuilder() {
            return new Builder()
                    .heap(heap)
                    .jvmArgs(jvmArgs)
                    .secure(secure)
                    .bootstrapServers(bootstrapServers)
                    .jobBootstrapServers(jobBootstrapServers)
                    .kafkaConfig(kafkaConfig);
        }

        /** A local PLAINTEXT broker with a 512 MB heap. */
        @JsonPOJOBuilder(withPrefix = "")
        public static final class Builder {
            private String heap = StackSpec.Broker.Local.DEFAULT_HEAP;
            private List<String> jvmArgs = List.of();
            private boolean secure;
            private String bootstrapServers;
            private String jobBootstrapServers;
            private Path kafkaConfig;

            public Builder heap(String size) {
                this.heap = size;
                return this;
            }

            public Builder jvmArgs(List<String> options) {
                this.jvmArgs = options;
                return this;
            }

            public Builder secure(boolean saslSsl) {
                this.secure = saslSsl;
                return this;
            }

            public Builder bootstrapServers(String servers) {
                this.bootstrapServers = servers;
                return this;
            }

            public Builder jobBootstrapServers(String servers) {
                this.jobBootstrapServers = servers;
                return this;
            }

            public Builder kafkaConfig(Path properties) {
                this.kafkaConfig = properties;
                return this;
            }

            public Broker build() {
                return new Broker(heap, jvmArgs, secure, bootstrapServers, jobBootstrapServers, kafkaConfig);
            }
        }
    }

    /**
     * The job's cluster: one the run starts ({@code mode}), or one that already runs at
     * {@code rest}, given the job jar and left running.
     *
     * @param mode           how a cluster the run starts runs
     * @param taskmanagers   TaskManager processes of a standalone cluster, each with {@code parallelism} slots
     * @param ha             a standalone cluster's JobManager elected through a ZooKeeper server beside it
     * @param jvmArgs        options for the JVMs of a cluster the run starts
     * @param rest           the REST address of a cluster that already runs; null to start one
     * @param taskmanagerPid with {@code rest}: the TaskManager's process where it runs on this host
     */
    @JsonDeserialize(builder = Flink.Builder.class)
    @JsonPropertyOrder({"mode", "taskmanagers", "ha", "jvm_args", "rest", "taskmanager_pid"})
    public record Flink(Mode mode, int taskmanagers, boolean ha, List<String> jvmArgs, URI rest, Long taskmanagerPid) {

        public static final PlanField MODE = new PlanField("stack.flink.mode", "--flink");
        public static final PlanField TASKMANAGERS = new PlanField("stack.flink.taskmanagers", "--taskmanagers");
        public static final PlanField HA = new PlanField("stack.flink.ha", "--ha");
        public static final PlanField JVM_ARGS = new PlanField("stack.flink.jvm_args", "--flink-jvm-arg");
        public static final PlanField REST = new PlanField("stack.flink.rest", "--flink-rest");
        public static final PlanField TASKMANAGER_PID = new PlanField("stack.flink.taskmanager_pid", "--cluster-pid");

        /** How a cluster the run starts runs. */
        public enum Mode {
            /** A JobManager process and TaskManager processes from Flink's own entry points. */
            STANDALONE("standalone"),
            /** A MiniCluster in one child JVM with Flink and TensorFlow on its class path. */
            CHILD("child"),
            /** A MiniCluster in the run's own JVM, sharing its heap with the producers and the probe. */
            IN_PROCESS("in-process");

            private final String yamlName;

            Mode(String yamlName) {
                this.yamlName = yamlName;
            }

            @JsonValue
            public String yamlName() {
                return yamlName;
            }

            @JsonCreator
            public static Mode of(String name) {
                return Arrays.stream(values())
                        .filter(m -> m.yamlName.equals(name))
                        .findFirst()
                        .orElseThrow(() -> MODE.refused("must be "
                                + String.join(
                                        ", ",
                                        Arrays.stream(values())
                                                .map(Mode::yamlName)
                                                .toList()) + ", got "
                                + name));
            }
        }

        public Flink {
            jvmArgs = List.copyOf(jvmArgs == null ? List.of() : jvmArgs);
            MODE.require(mode != null, "must be standalone, child or in-process");
            TASKMANAGERS.require(taskmanagers >= 1, "must be >= 1, got " + taskmanagers);
            TASKMANAGERS.require(
                    mode == Mode.STANDALONE || (taskmanagers == 1 && !ha), "and --ha are for --flink standalone");
            TASKMANAGER_PID.require(
                    taskmanagerPid == null || rest != null,
                    "goes with --flink-rest (the pid of a cluster the run starts is known)");
            JVM_ARGS.require(
                    rest == null || jvmArgs.isEmpty(), "is for a cluster the run starts, not one at --flink-rest");
            REST.require(
                    rest == null || (rest.getHost() != null && rest.getPort() >= 0),
                    "must be like http://HOST:PORT, got " + rest);
        }

        public static Builder builder() {
            return new Builder();
        }

        public Builder toBuilder() {
            return new Builder()
                    .mode(mode)
                    .taskmanagers(taskmanagers)
                    .ha(ha)
                    .jvmArgs(jvmArgs)
                    .rest(rest)
                    .taskmanagerPid(taskmanagerPid);
        }

        /** A standalone cluster: one JobManager, one TaskManager, no ZooKeeper. */
        @JsonPOJOBuilder(withPrefix = "")
        public static final class Builder {
            private Mode mode = Mode.STANDALONE;
            private int taskmanagers = 1;
            private boolean ha;
            private List<String> jvmArgs = List.of();
            private URI rest;
            private Long taskmanagerPid;

            public Builder mode(Mode how) {
                this.mode = how;
                return this;
            }

            public Builder taskmanagers(int processes) {
                this.taskmanagers = processes;
                return this;
            }

            public Builder ha(boolean elected) {
                this.ha = elected;
                return this;
            }

            public Builder jvmArgs(List<String> options) {
                this.jvmArgs = options;
                return this;
            }

            public Builder rest(URI address) {
                this.rest = address;
                return this;
            }

            public Builder taskmanagerPid(Long pid) {
                this.taskmanagerPid = pid;
                return this;
            }

            public Flink build() {
                return new Flink(mode, taskmanagers, ha, jvmArgs, rest, taskmanagerPid);
            }
        }
    }
}
