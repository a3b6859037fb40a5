package org.itsrt.cluster.cli;

import java.nio.file.NoSuchFileException;
import java.util.concurrent.Callable;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cluster.DetachedCluster;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "down",
        description = "stop every process of the cluster and remove its folder (--keep: keep it, with every log)")
final class DownCommand implements Callable<Integer> {

    @CommandLine.Mixin
    ClusterFolderOption folder = new ClusterFolderOption();

    @CommandLine.Mixin
    HelpOption help = new HelpOption();

    @Option(names = "--keep", description = "keep the cluster folder with its logs")
    boolean keep;

    @Override
    public Integer call() throws Exception {
        try {
            for (String line : DetachedCluster.down(folder.resolve(), keep, System.err)) {
                System.out.println(line);
            }
            return 0;
        } catch (NoSuchFileException e) {
            System.err.println("its cluster down: " + e.getReason());
            return 2;
        } catch (IllegalStateException e) {
            System.err.println("its cluster down: " + e.getMessage());
            return 1;
        }
    }
}
