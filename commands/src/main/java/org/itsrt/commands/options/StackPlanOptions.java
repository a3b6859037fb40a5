package org.itsrt.commands.options;

import java.util.List;
import java.util.Map;
import org.itsrt.cli.options.JobJarOption;
import org.itsrt.pipeline.plan.StackPlan;
import org.itsrt.stack.flink.HighAvailabilityOption;
import org.itsrt.stack.flink.TaskManagerCountOption;
import org.itsrt.stack.kafka.SecureBrokerOption;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What a run runs on: the stack part of a run plan. By default a local broker and a standalone
 * Flink cluster the run starts; with {@code --cluster}, {@code --bootstrap-servers} or
 * {@code --flink-rest}, parts that already run.
 */
public final class StackPlanOptions {

    @Option(
            names = "--flink-jvm-arg",
            paramLabel = "ARG",
            description = "a JVM option for the cluster the run starts (repeatable), e.g. --flink-jvm-arg=-XX:+UseZGC")
    List<String> flinkJvmArgs;

    @Mixin
    ExistingStackOptions existing;

    @Mixin
    TaskManagerCountOption taskManagers;

    @Mixin
    HighAvailabilityOption ha;

    @Mixin
    SecureBrokerOption secure;

    @Mixin
    FlinkModeOption flinkMode;

    @Mixin
    JobJarOption jobJar;

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
        StackPlan.Flink.Builder cluster = stack.flinkBuilder();
        existing.applyTo(stack, broker, cluster);
        flinkMode.applyTo(cluster);
        if (secure.given()) {
            broker.secure(true);
        }
        if (brokerHeap != null) {
            broker.heap(brokerHeap);
        }
        if (brokerJvmArgs != null) {
            broker.jvmArgs(brokerJvmArgs);
        }
        if (taskManagers.given() != null) {
            cluster.taskmanagers(taskManagers.given());
        }
        if (ha.given()) {
            cluster.ha(true);
        }
        if (flinkJvmArgs != null) {
            cluster.jvmArgs(flinkJvmArgs);
        }
        stack.broker(broker.build()).flink(cluster.build());
        if (jobJar.given() != null) {
            stack.jobJar(jobJar.given());
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
