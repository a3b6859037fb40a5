package org.itsrt.cluster.cli;

import java.nio.file.NoSuchFileException;
import java.util.concurrent.Callable;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cluster.ClusterDescriptor;
import org.itsrt.cluster.ClusterStatus;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(
        name = "status",
        description = "processes, the JobManager leader, TaskManagers and slots, jobs, topics and in-sync replicas")
final class StatusCommand implements Callable<Integer> {

    @CommandLine.Mixin
    ClusterFolderOption folder = new ClusterFolderOption();

    @CommandLine.Mixin
    HelpOption help = new HelpOption();

    @Override
    public Integer call() throws Exception {
        ClusterDescriptor cluster;
        try {
            cluster = ClusterDescriptor.read(folder.resolve());
        } catch (NoSuchFileException e) {
            System.err.println("its cluster status: " + e.getReason());
            return 2;
        }
        ClusterStatus status = ClusterStatus.of(cluster);
        System.out.print(status.render());
        return status.healthy() ? 0 : 1;
    }
}
