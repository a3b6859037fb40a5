package org.itsrt.cluster.cli;

import java.util.concurrent.Callable;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cluster.ClusterConfigFile;
import org.itsrt.cluster.ClusterSpec;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "config",
        description = "print the Flink config.yaml of a cluster of this shape without starting anything: the one "
                + "`up` writes (standard ports, the cluster folder), or with --containers the same settings for "
                + "the containers of docker/compose.yaml (docker/flink/config.yaml is this output)")
final class ConfigCommand implements Callable<Integer> {

    @CommandLine.Mixin
    ClusterFolderOption folder = new ClusterFolderOption();

    @CommandLine.Mixin
    HelpOption help = new HelpOption();

    @CommandLine.Mixin
    ClusterShapeOptions shape = new ClusterShapeOptions();

    @Option(
            names = "--containers",
            description = "container addresses, the standard ports and the shared volume's folders "
                    + "(/opt/flink/shared), ZooKeeper at " + ClusterConfigFile.COMPOSE_ZOOKEEPER)
    boolean containers;

    @Override
    public Integer call() {
        ClusterSpec spec = shape.spec(
                ClusterSpec.PortChoice.STANDARD, ClusterSpec.defaults().startTimeout());
        System.out.print(
                containers
                        ? ClusterConfigFile.forContainers(spec)
                        : ClusterConfigFile.forHost(spec, folder.resolve().toAbsolutePath()));
        return 0;
    }
}
