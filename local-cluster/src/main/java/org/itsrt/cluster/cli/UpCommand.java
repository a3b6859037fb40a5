package org.itsrt.cluster.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cli.options.StartTimeoutOption;
import org.itsrt.cluster.ClusterDescriptor;
import org.itsrt.cluster.ClusterSpec;
import org.itsrt.cluster.DetachedCluster;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "up",
        description = "start the cluster and return once every TaskManager has registered and every "
                + "replica of the pipeline's topics is in sync")
final class UpCommand implements Callable<Integer> {

    /** Each process's wait for its first answer, ample on a 2-core host; an emulated one needs minutes. */
    private static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(120);

    @CommandLine.Mixin
    ClusterFolderOption folder = new ClusterFolderOption();

    @CommandLine.Mixin
    HelpOption help = new HelpOption();

    @CommandLine.Mixin
    ClusterShapeOptions shape = new ClusterShapeOptions();

    @Option(
            names = "--free-ports",
            description = "listen on free ports instead of the standard ones (ZooKeeper 2181, Kafka 9092, "
                    + "Flink web UI 8081, RPC 6123): for a second cluster beside one")
    boolean freePorts;

    @CommandLine.Mixin
    StartTimeoutOption startTimeout = new StartTimeoutOption();

    @Override
    public Integer call() throws Exception {
        ClusterSpec spec = shape.spec(
                freePorts ? ClusterSpec.PortChoice.FREE : ClusterSpec.PortChoice.STANDARD,
                startTimeout.orElse(DEFAULT_START_TIMEOUT));
        Path dir = folder.resolve();
        ClusterDescriptor cluster;
        try {
            cluster = DetachedCluster.up(spec, dir, System.err);
        } catch (IllegalStateException e) {
            System.err.println("its cluster up: " + e.getMessage());
            return 1;
        }
        System.out.print(ClusterCommand.describeUp(cluster));
        return 0;
    }
}
