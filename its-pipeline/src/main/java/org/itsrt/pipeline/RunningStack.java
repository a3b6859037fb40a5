package org.itsrt.pipeline;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.itsrt.cluster.FlinkRest;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.records.Workload;
import org.itsrt.scheduling.linux.CpuLatencyRequest;
import org.itsrt.stack.ChildJvm;
import org.itsrt.stack.kafka.KafkaSecurity;

/**
 * A broker and a Flink cluster, started (or reached) for one or more measured runs: {@code ./its
 * demo --with-floor} measures the identity floor and then the job on one stack. Closing it stops
 * what it started and removes their folders; what already ran is left running.
 */
public final class RunningStack implements AutoCloseable {

    private final StackSpec spec;
    private final KafkaBroker broker;
    private final JobCluster cluster;
    private final Path workDir;
    private final PrintStream log;

    /** The host's CPU latency request the spec asks for, held until the stack is closed; or null. */
    private final CpuLatencyRequest latencyRequest;

    private volatile Measurement current;
    /**
     * The job's dead letters by reason on the topic after the last measurement, so that the next
     * one counts only its own without reading the topic twice; null until known.
     */
    private Map<String, Long> deadLettersSoFar;

    private volatile boolean stopped;

    private RunningStack(
            StackSpec spec,
            KafkaBroker broker,
            JobCluster cluster,
            Path workDir,
            PrintStream log,
            CpuLatencyRequest latencyRequest) {
        this.spec = spec;
        this.broker = broker;
        this.cluster = cluster;
        this.workDir = workDir;
        this.log = log;
        this.latencyRequest = latencyRequest;
    }

    /**
     * Starts the broker and the cluster the spec asks for (or checks the ones it names), creates
     * the pipeline's topics where missing and pins what it says.
     *
     * @param workDir the cluster's temporary files (blobs, uploaded jars), removed on close
     */
    public static RunningStack start(StackSpec spec, Path workDir, PrintStream log) throws Exception {
        // First, so that a host that refuses it fails the run before anything starts.
        CpuLatencyRequest latencyRequest = null;
        if (spec.cpuLatencyUs().isPresent()) {
            latencyRequest = CpuLatencyRequest.hold(spec.cpuLatencyUs().getAsInt());
            log.println("its-demo: holding a " + latencyRequest.describe());
        }
        KafkaBroker broker = null;
        JobCluster cluster = null;
        try {
            broker = startBroker(spec.broker(), spec.slots(), log);
            if (spec.pins().containsKey("broker")) {
                CpuPinning.pin("broker", broker.pid().orElseThrow(), spec.pins().get("broker"));
            }
            cluster = startCluster(spec, workDir, log);
            log.println("its-demo: Flink up: " + cluster.describe().replace(", web UI was ", ", web UI "));
            if (spec.pins().containsKey("flink")) {
                CpuPinning.pin("flink", cluster.pid().orElseThrow(), spec.pins().get("flink"));
            }
            // Last: a child process inherits the affinity of the thread that starts it, so pinning
            // this JVM before the broker and the cluster start would pin them too.
            if (spec.pins().containsKey("clients")) {
                CpuPinning.pin(
                        "clients", ProcessHandle.current().pid(), spec.pins().get("clients"));
            }
            if (!spec.pins().isEmpty()) {
                log.println("its-demo: pinned " + spec.pins());
            }
            RunningStack stack = new RunningStack(spec, broker, cluster, workDir, log, latencyRequest);
            if (spec.broker() instanceof StackSpec.Broker.Local) {
                stack.deadLettersSoFar = Map.of();
            }
            return stack;
        } catch (Exception | Error e) {
            if (broker != null) {
                closeQuietly(cluster, log);
                broker.close();
                deleteTree(workDir, log);
            }
            release(latencyRequest, log);
            throw e;
        }
    }

    /** @param partitions of each pipeline topic the broker gets: the job's parallelism */
    private static KafkaBroker startBroker(StackSpec.Broker spec, int partitions, PrintStream log) {
        KafkaBroker broker;
        if (spec instanceof StackSpec.Broker.Existing existing) {
            log.println("its-demo: using the Kafka cluster at " + existing.bootstrapServers() + " ...");
            broker = KafkaBroker.existing(existing.bootstrapServers(), existing.clientConfig(), partitions);
        } else {
            StackSpec.Broker.Local local = (StackSpec.Broker.Local) spec;
            log.println(
                    "its-demo: starting a local Kafka broker (KRaft" + (local.secure() ? ", secured" : "") + ") ...");
            broker = KafkaBroker.local(local.heap(), local.jvmArgs(), local.secure(), partitions);
        }
        log.println("its-demo: Kafka up at " + broker.bootstrapServers() + ", topics " + KafkaBroker.TOPICS + " ("
                + partitions + " partition" + (partitions == 1 ? "" : "s") + " each where created)");
        broker.security().ifPresent(security -> {
            log.println("its-demo: SASL_SSL; producers, job and probe connect as their own users with:");
            for (KafkaSecurity.User user : KafkaSecurity.User.values()) {
                log.println("its-demo:   " + user.userName() + ": " + security.clientFile(user));
            }
        });
        return broker;
    }

    /**
     * Asks a cluster the run did not start for its overview: a JobManager that is gone ends the
     * run here, in one line, rather than in the Flink client's retries of the submission, each
     * logged with its stack trace. Any JobManager that answers will do (with high availability a
     * standby hands the job on to the leader), so ZooKeeper is not asked here.
     */
    static void requireAnswer(StackSpec.Cluster.Existing existing) throws InterruptedException {
        if (new FlinkRest().leader(List.of(existing.rest())).isEmpty()) {
            throw new JobStartException(
                    "the Flink cluster at " + existing.rest()
                            + " does not answer on its REST API (GET /overview): is its JobManager running?",
                    null);
        }
    }

    private static JobCluster startCluster(StackSpec spec, Path workDir, PrintStream log) throws Exception {
        if (spec.cluster() instanceof StackSpec.Cluster.Existing existing) {
            log.println("its-demo: using the Flink cluster at " + existing.rest() + " ...");
            requireAnswer(existing);
            return JobCluster.existing(
                    existing.rest(), existing.jobJar(), existing.taskManagerPid(), existing.clientOptions());
        }
        if (spec.cluster() instanceof StackSpec.Cluster.Standalone standalone) {
            log.println("its-demo: starting Flink (standalone: a JobManager and " + standalone.taskManagers()
                    + " TaskManager process" + (standalone.taskManagers() == 1 ? "" : "es")
                    + (standalone.ha() ? ", ZooKeeper HA" : "") + ") ...");
            return JobCluster.standalone(
                    spec.slots(),
                    workDir,
                    standalone.jobJar(),
                    standalone.jvmArgs(),
                    standalone.taskManagers(),
                    standalone.ha());
        }
        if (spec.cluster() instanceof StackSpec.Cluster.Child child) {
            log.println("its-demo: starting Flink (child) ...");
            return JobCluster.start(JobCluster.Kind.CHILD, spec.slots(), workDir, child.jobJar(), child.jvmArgs());
        }
        log.println("its-demo: starting Flink (in-process) ...");
        return JobCluster.start(JobCluster.Kind.IN_PROCESS, spec.slots(), workDir, null, java.util.List.of());
    }

    /**
     * Measures one run of {@code job} under {@code load} into {@code dir}; see {@link Measurement}.
     * Runs one at a time.
     */
    public synchronized RunResult measure(LoadSpec load, JobSpec job, BudgetHook budget, Path dir) throws Exception {
        return measure(load, job, budget, LoadHook.NONE, dir);
    }

    /** {@link #measure(LoadSpec, JobSpec, BudgetHook, Path)}, with {@code during} called as the load starts. */
    public synchronized RunResult measure(LoadSpec load, JobSpec job, BudgetHook budget, LoadHook during, Path dir)
            throws Exception {
        if (stopped) {
            throw new IllegalStateException("the stack was stopped");
        }
        Measurement measurement = new Measurement(this, load, job, budget, during, dir, log);
        current = measurement;
        Map<String, Long> before = deadLettersSoFar;
        deadLettersSoFar = null;
        try {
            return measurement.run(before);
        } finally {
            current = null;
        }
    }

    /**
     * The dead letters a measurement starts from: what the last one counted at its end (a broker
     * started for this stack starts with none), else, on a broker that already ran or after an
     * interrupted measurement, what the topic holds.
     */
    static Map<String, Long> deadLettersBefore(Map<String, Long> known, DeadLetters deadLetters) {
        return known != null ? known : deadLetters.countByReason();
    }

    /** What a measurement counted on the topic at its end. */
    synchronized void deadLettersCounted(Map<String, Long> total) {
        deadLettersSoFar = Map.copyOf(total);
    }

    /**
     * Stops the measurement under way (Ctrl-C): the producers stop sending, the probe stops and
     * writes its report of what arrived; {@link #measure} then returns with exit code 130.
     */
    public void stop() {
        stopped = true;
        Measurement running = current;
        if (running != null) {
            running.stop();
        }
    }

    boolean stopped() {
        return stopped;
    }

    /** How {@link #stopBroker} ends the broker's process. */
    public enum BrokerStop {
        /** SIGTERM: Kafka's own controlled shutdown (killed if it takes longer than 20 s). */
        TERM,
        /** SIGKILL, as a crash would: the broker recovers its logs when it starts again. */
        KILL
    }

    /**
     * Stops the broker this stack started, while a measurement runs or between two; its data and
     * ports stay, for {@link #startBroker()}. Producers, the job and the probe keep retrying
     * against its address meanwhile.
     *
     * @throws UnsupportedOperationException for a broker the stack did not start
     *                                       ({@code --bootstrap-servers}, {@code --cluster})
     */
    public void stopBroker(BrokerStop how) {
        broker.stop(how);
        log.println("its-demo: Kafka broker stopped (" + how + ")");
    }

    /**
     * Starts the broker stopped by {@link #stopBroker} again on the same data folder, cluster id,
     * node id and ports, waits until it serves, and pins it again where the spec pins it (the new
     * process does not inherit the old one's CPUs).
     *
     * @throws UnsupportedOperationException for a broker the stack did not start
     */
    public void startBroker() {
        broker.start();
        if (spec.pins().containsKey("broker")) {
            CpuPinning.pin("broker", broker.pid().orElseThrow(), spec.pins().get("broker"));
        }
        log.println("its-demo: Kafka broker serves again at " + broker.bootstrapServers() + " (pid "
                + broker.pid().orElseThrow() + ")");
    }

    /** The broker's process on this host, when the stack started it; after a restart, the new one. */
    public OptionalLong brokerPid() {
        return broker.pid();
    }

    /** The Flink cluster's REST address (job state, metrics such as {@code numRestarts}). */
    public java.net.URI flinkRest() {
        return cluster.restAddress();
    }

    public StackSpec spec() {
        return spec;
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** The brokers as the job's tasks reach them: {@link #bootstrapServers} unless the spec says otherwise. */
    public String jobBootstrapServers() {
        return spec.broker() instanceof StackSpec.Broker.Existing existing
                ? existing.jobBootstrapServers()
                : broker.bootstrapServers();
    }

    /** How {@code user}'s part of a run connects to the broker. */
    public KafkaClientConfig clientConfig(KafkaSecurity.User user) {
        return broker.clientConfig(user);
    }

    /** The users and passwords of a secured broker this stack started. */
    public Optional<KafkaSecurity> kafkaSecurity() {
        return broker.security();
    }

    JobCluster cluster() {
        return cluster;
    }

    /**
     * Submits the job built from {@code settings} (its Kafka ends included, the study's or the
     * district's workload as they say) to this stack's cluster, for a caller that drives the topics
     * itself ({@code ./its fuzz}); the caller cancels it.
     */
    public org.apache.flink.core.execution.JobClient submit(org.itsrt.job.config.JobSettings settings, String jobName)
            throws Exception {
        org.apache.flink.streaming.api.environment.StreamExecutionEnvironment env = cluster.environment();
        if (settings.workload() == Workload.DISTRICT) {
            org.itsrt.job.ItsJob.buildDistrict(env, settings, org.itsrt.job.kafka.KafkaJobIO.of(settings));
        } else {
            org.itsrt.job.ItsJob.build(env, settings, org.itsrt.job.kafka.KafkaJobIO.of(settings));
        }
        return env.executeAsync(jobName);
    }

    /** The REST address of the cluster's JobManager, where a job's metrics are read. */
    public java.net.URI restAddress() {
        return cluster.restAddress();
    }

    /** The process that runs the job's tasks, where it is on this host. */
    public OptionalLong clusterPid() {
        return cluster.pid();
    }

    /**
     * The JVMs this stack started on this host by name: {@code broker}, then the cluster's
     * ({@link JobCluster#processes()}); what to profile besides this JVM.
     */
    public Map<String, Long> processes() {
        Map<String, Long> pids = new java.util.LinkedHashMap<>();
        if (spec.broker() instanceof StackSpec.Broker.Local) {
            broker.pid().ifPresent(pid -> pids.put("broker", pid));
        }
        pids.putAll(cluster.processes());
        return pids;
    }

    /** One line each for the broker and the cluster, for reports. */
    public String describe() {
        return "Kafka: " + spec.broker().describe() + "; Flink: " + cluster.describe();
    }

    @Override
    public void close() {
        closeQuietly(cluster, log);
        broker.close();
        deleteTree(workDir, log);
        release(latencyRequest, log);
    }

    /** The request the stack held, for its reports; empty where it holds none. */
    public Optional<CpuLatencyRequest> cpuLatencyRequest() {
        return Optional.ofNullable(latencyRequest);
    }

    private static void release(CpuLatencyRequest request, PrintStream log) {
        if (request == null) {
            return;
        }
        try {
            request.close();
        } catch (RuntimeException e) {
            // The kernel ends the request with this process in any case.
            log.println("its-demo: ending the CPU latency request: " + e.getMessage());
        }
    }

    private static void closeQuietly(JobCluster cluster, PrintStream log) {
        if (cluster == null) {
            return;
        }
        try {
            cluster.close();
        } catch (Exception e) {
            log.println("its-demo: stopping the Flink cluster: " + e.getMessage());
        }
    }

    private static void deleteTree(Path dir, PrintStream log) {
        try {
            ChildJvm.deleteTree(dir);
        } catch (IOException e) {
            log.println("its-demo: could not delete " + dir + ": " + e.getMessage());
        }
    }
}
