package org.itsrt.commands.options;

import java.net.URI;
import java.nio.file.Path;
import org.itsrt.kafka.BootstrapServersOption;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.kafka.KafkaConfigOption;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.pipeline.plan.StackPlan;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Parts of a stack that already run, instead of the ones a run would start: a cluster that
 * {@code ./its cluster up} started, a Kafka cluster, a Flink cluster, and the client properties
 * file for a Kafka cluster that is not the run's own.
 */
public final class ExistingStackOptions {

    @Option(
            names = "--cluster",
            paramLabel = "DIR",
            description = "run on the cluster that `./its cluster up` started in DIR (its brokers and JobManagers; "
                    + "a CPU budget goes on its first TaskManager) instead of starting one; it is left running")
    Path cluster;

    @Mixin
    BootstrapServersOption bootstrap;

    @Option(
            names = "--job-bootstrap-servers",
            paramLabel = "HOST:PORT",
            description = "with --bootstrap-servers: the same Kafka cluster as the job's tasks reach it, where that "
                    + "differs from this host's address (on the Docker Compose stack, kafka:19092: the containers' "
                    + "listener; default: --bootstrap-servers)")
    String jobBootstrapServers;

    @Option(
            names = "--flink-rest",
            paramLabel = "URL",
            description = "submit the job jar to a Flink cluster that already runs, at this REST address (e.g. "
                    + "http://rt-vm:8081; its lib/ set up as docs/job.md says) instead of starting one; it is left "
                    + "running, the job is cancelled at the end")
    URI flinkRest;

    @Option(
            names = "--cluster-pid",
            paramLabel = "PID",
            description = "with --flink-rest: the TaskManager's process, where it runs on this host (what a Linux "
                    + "budget is applied to)")
    Long clusterPid;

    @Mixin
    KafkaConfigOption kafkaConfig;

    public Path cluster() {
        return cluster;
    }

    public String bootstrapServers() {
        return bootstrap.given();
    }

    public URI flinkRest() {
        return flinkRest;
    }

    public Long clusterPid() {
        return clusterPid;
    }

    public Path kafkaConfigFile() {
        return kafkaConfig.file();
    }

    /** The client properties file's settings; none without the option. */
    public KafkaClientConfig kafkaConfig() {
        return kafkaConfig.load();
    }

    /** Sets the parts given over the plan's stack. */
    public void applyTo(RunPlan.Builder plan) {
        StackPlan.Builder stack = plan.stack();
        StackPlan.Broker.Builder broker = stack.brokerBuilder();
        StackPlan.Flink.Builder flink = stack.flinkBuilder();
        applyTo(stack, broker, flink);
        stack.broker(broker.build()).flink(flink.build());
    }

    /** Sets the parts given over the plan's stack. */
    public void applyTo(StackPlan.Builder stack, StackPlan.Broker.Builder broker, StackPlan.Flink.Builder flink) {
        if (bootstrap.given() != null) {
            broker.bootstrapServers(bootstrap.given());
        }
        if (jobBootstrapServers != null) {
            broker.jobBootstrapServers(jobBootstrapServers);
        }
        if (kafkaConfig.file() != null) {
            broker.kafkaConfig(kafkaConfig.file());
        }
        if (flinkRest != null) {
            flink.rest(flinkRest);
        }
        if (clusterPid != null) {
            flink.taskmanagerPid(clusterPid);
        }
        if (cluster != null) {
            stack.cluster(cluster);
        }
    }
}
