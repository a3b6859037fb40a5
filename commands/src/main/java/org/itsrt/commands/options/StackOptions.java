package org.itsrt.commands.options;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.itsrt.cli.KafkaConfigOption;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.pipeline.plan.StackPlan;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What a run runs on: the stack part of a run plan. By default a local broker and a standalone
 * Flink cluster the run starts; with {@code --cluster}, {@code --bootstrap-servers} or
 * {@code --flink-rest}, parts that already run.
 */
public final class StackOptions {

    @Option(
            names = "--flink",
            paramLabel = "WHERE",
            description = "where the job's cluster runs: standalone (a JobManager process and TaskManager processes "
                    + "from Flink's own entry points, the job jar submitted as to any real cluster; default), child "
                    + "(a MiniCluster in one child JVM) or in-process (a MiniCluster in this JVM)")
    String flink;

    @Option(
            names = "--taskmanagers",
            paramLabel = "N",
            description = "with --flink standalone: TaskManager processes, each with --parallelism slots (default: 1)")
    Integer taskManagers;

    @Option(
            names = "--ha",
            description = "with --flink standalone: a ZooKeeper server, and the JobManager elected through it")
    boolean ha;

    @Option(
            names = "--flink-jvm-arg",
            paramLabel = "ARG",
            description = "a JVM option for the cluster the run starts (repeatable), e.g. --flink-jvm-arg=-XX:+UseZGC")
    List<String> flinkJvmArgs;

    @Option(
            names = "--flink-rest",
            paramLabel = "URL",
            description = "submit the job jar to a Flink cluster that already runs, at this REST address (e.g. "
                    + "http://rt-vm:8081; its lib/ set up as docs/job.md says) instead of starting one")
    URI flinkRest;

    @Option(
            names = "--cluster-pid",
            paramLabel = "PID",
            description = "with --flink-rest: the TaskManager's process, where it runs on this host (what a Linux "
                    + "budget is applied to)")
    Long clusterPid;

    @Option(
            names = "--cluster",
            paramLabel = "DIR",
            description = "run on the cluster that `./its cluster up` started in DIR (its brokers and JobManagers; "
                    + "a CPU budget goes on its first TaskManager) instead of starting one; it is left running")
    Path cluster;

    @Option(
            names = "--job-jar",
            paramLabel = "JAR",
            description = "the job jar submitted to the cluster (default: its-job's build, "
                    + ProjectPaths.JOB_JAR_FOLDER + "/" + ProjectPaths.JOB_JAR_GLOB + ")")
    Path jobJar;

    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT",
            description = "use a Kafka cluster that already runs instead of starting a local broker; the pipeline's "
                    + "topics are created there when missing")
    String bootstrapServers;

    @Mixin
    KafkaConfigOption kafkaConfig;

    @Option(
            names = "--secure",
            description = "start the local broker secured: SASL_SSL, SCRAM-SHA-512 users and ACLs; producers, job and "
                    + "probe connect as their own users (docs/security.md)")
    boolean secure;

    @Option(
            names = "--broker-heap",
            paramLabel = "SIZE",
            description = "the local broker's heap, -Xms and -Xmx (default: 512m)")
    String brokerHeap;

    @Option(
            names = "--broker-jvm-arg",
            paramLabel = "ARG",
            description = "a JVM option for the local broker (repeatable); a collector chosen here (e.g. "
                    + "--broker-jvm-arg=-XX:+UseZGC) replaces the default G1 with a 20 ms pause goal")
    List<String> brokerJvmArgs;

    @Option(names = "--parallelism", paramLabel = "N", description = "job parallelism (default: 1)")
    Integer parallelism;

    @Option(
            names = "--pin",
            paramLabel = "PART=CPUS",
            description = "pin every thread of a part to CPUs with taskset (repeatable): broker (the local broker), "
                    + "flink (the cluster the run starts), clients (the producers and the probe: this JVM); e.g. "
                    + "--pin flink=1 --pin broker=0 --pin clients=0")
    Map<String, String> pins;

    @Option(
            names = "--cpu-latency-us",
            paramLabel = "US",
            description = "hold this host's CPU latency request at US microseconds while the stack runs "
                    + "(/dev/cpu_dma_latency; needs root; the kernel ends it with this process): 0 keeps idle CPUs "
                    + "polling instead of halting; the host pays with CPUs that never idle (docs/scheduling.md)")
    Integer cpuLatencyUs;

    /** Sets the options given over the plan's stack. */
    public void applyTo(StackPlan.Builder stack) {
        StackPlan.Broker.Builder broker = stack.brokerBuilder();
        if (bootstrapServers != null) {
            broker.bootstrapServers(bootstrapServers);
        }
        if (kafkaConfig.file() != null) {
            broker.kafkaConfig(kafkaConfig.file());
        }
        if (secure) {
            broker.secure(true);
        }
        if (brokerHeap != null) {
            broker.heap(brokerHeap);
        }
        if (brokerJvmArgs != null) {
            broker.jvmArgs(brokerJvmArgs);
        }
        StackPlan.Flink.Builder cluster = stack.flinkBuilder();
        if (flink != null) {
            cluster.mode(StackPlan.Flink.Mode.of(flink));
        }
        if (taskManagers != null) {
            cluster.taskmanagers(taskManagers);
        }
        if (ha) {
            cluster.ha(true);
        }
        if (flinkJvmArgs != null) {
            cluster.jvmArgs(flinkJvmArgs);
        }
        if (flinkRest != null) {
            cluster.rest(flinkRest);
        }
        if (clusterPid != null) {
            cluster.taskmanagerPid(clusterPid);
        }
        stack.broker(broker.build()).flink(cluster.build());
        if (this.cluster != null) {
            stack.cluster(this.cluster);
        }
        if (jobJar != null) {
            stack.jobJar(jobJar);
        }
        if (parallelism != null) {
            stack.parallelism(parallelism);
        }
        if (pins != null) {
            pins.forEach(stack::pin);
        }
        if (cpuLatencyUs != null) {
            stack.cpuLatencyUs(cpuLatencyUs);
        }
    }
}
