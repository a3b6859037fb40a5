package org.itsrt.cluster.cli;

import java.time.Duration;
import org.itsrt.cluster.ClusterSpec;
import org.itsrt.stack.flink.HighAvailabilityOption;
import org.itsrt.stack.flink.TaskManagerCountOption;
import org.itsrt.stack.kafka.BrokerCountOption;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The cluster's shape: how many of each process, slots, memory; what {@code up} starts, {@code config}
 * renders and the keeper process is given.
 */
public final class ClusterShapeOptions {
    @Option(
            names = "--jobmanagers",
            defaultValue = "1",
            paramLabel = "N",
            description = "JobManager processes; 2 or more imply --ha (default: ${DEFAULT-VALUE})")
    int jobManagers;

    @CommandLine.Mixin
    TaskManagerCountOption taskManagers = new TaskManagerCountOption();

    @Option(
            names = "--slots",
            defaultValue = "1",
            paramLabel = "N",
            description = "task slots per TaskManager (default: ${DEFAULT-VALUE})")
    int slots;

    @CommandLine.Mixin
    BrokerCountOption brokers = new BrokerCountOption();

    @CommandLine.Mixin
    HighAvailabilityOption ha = new HighAvailabilityOption();

    @Option(
            names = "--taskmanager-memory",
            defaultValue = "1024m",
            paramLabel = "SIZE",
            description = "taskmanager.memory.process.size of each TaskManager (default: ${DEFAULT-VALUE})")
    String taskManagerMemory;

    @Option(
            names = "--rest-bind-address",
            defaultValue = ClusterSpec.LOOPBACK,
            paramLabel = "ADDRESS",
            description = "where Flink's REST endpoint and web UI listen (default: ${DEFAULT-VALUE}, this host "
                    + "only). The endpoint has no authentication: anyone who reaches it can run code; "
                    + "docs/cluster.md says how to put it behind TLS and a proxy first")
    String restBindAddress;

    /** The command this shape belongs to: a shape it cannot have is a usage error of that command. */
    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec command;

    public ClusterSpec spec(ClusterSpec.PortChoice ports, Duration startTimeout) {
        try {
            return new ClusterSpec(
                    jobManagers,
                    taskManagers.count(),
                    slots,
                    brokers.count(),
                    ha.given(),
                    ports,
                    taskManagerMemory,
                    startTimeout,
                    restBindAddress);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(command.commandLine(), e.getMessage());
        }
    }
}
