package org.itsrt.cluster.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cluster.ClusterDescriptor;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ./its cluster up | status | submit | down | config}: the pipeline's cluster on this host (docs/cluster.md). */
@Command(
        name = "cluster",
        description = {
            "The pipeline's cluster on this host, each part a process of its own: ZooKeeper (with --ha), Kafka KRaft "
                    + "broker(s), Flink JobManager(s) and TaskManager(s) from Flink's own entry points on one "
                    + "config.yaml. It runs until `down`; runs attach to it with --cluster DIR."
        },
        subcommands = {UpCommand.class, StatusCommand.class, SubmitCommand.class, DownCommand.class, ConfigCommand.class
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done (status: healthy)",
            "1:failed, the message says why (status: something is down)",
            "2:bad usage, or no cluster in the folder"
        })
public final class ClusterCommand implements Callable<Integer> {

    @CommandLine.Mixin
    HelpOption help = new HelpOption();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ClusterCommand()).execute(args));
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(System.err);
        return 2;
    }

    /** What {@code up} prints: where everything is, and what to do next. */
    public static String describeUp(ClusterDescriptor cluster) {
        StringBuilder text = new StringBuilder();
        text.append("cluster up in ")
                .append(cluster.dir())
                .append(": ")
                .append(cluster.shape())
                .append('\n');
        text.append("  Flink web UI   ")
                .append(String.join(
                        ", ",
                        cluster.restAddresses().stream().map(Object::toString).toList()))
                .append('\n');
        if (cluster.kafka() == null) {
            text.append("  Kafka          none (--brokers 0): the job's brokers run elsewhere\n");
        } else {
            text.append("  Kafka          ").append(cluster.kafka().bootstrapServers());
            text.append(" (replication factor ")
                    .append(cluster.kafka().replicationFactor())
                    .append(", min.insync.replicas ")
                    .append(cluster.kafka().minInsyncReplicas())
                    .append(")\n");
        }
        if (cluster.zookeeper() != null) {
            text.append("  ZooKeeper      ")
                    .append(cluster.zookeeper().connectString())
                    .append('\n');
        }
        text.append("  config.yaml    ").append(cluster.flink().configFile()).append('\n');
        text.append("  TaskManagers   pids ").append(cluster.taskManagerPids()).append('\n');
        text.append("  descriptor     ")
                .append(ClusterDescriptor.file(Path.of(cluster.dir())))
                .append('\n');
        String dirOption = " --dir " + cluster.dir();
        text.append("next: ./its cluster submit").append(dirOption);
        if (cluster.kafka() == null) {
            // No broker here: the job and the run are told where Kafka is.
            text.append(" -- --bootstrap-servers HOST:PORT | ./its demo --flink-rest ")
                    .append(cluster.restAddresses().get(0))
                    .append(" --bootstrap-servers HOST:PORT");
        } else {
            text.append(" | ./its demo --cluster ").append(cluster.dir());
        }
        text.append(" | ./its cluster status")
                .append(dirOption)
                .append(" | ./its cluster down")
                .append(dirOption)
                .append('\n');
        return text.toString();
    }

    /**
     * The job's arguments: the user's, plus the cluster's Kafka and the default model where the
     * user gave neither.
     */
    public static List<String> jobArguments(ClusterDescriptor cluster, List<String> jobOptions, Path model)
            throws IOException {
        List<String> args = new ArrayList<>(jobOptions);
        if (!args.contains("--bootstrap-servers")) {
            if (cluster.kafka() == null) {
                throw new IllegalArgumentException("the cluster has no Kafka (--brokers 0): give the job's "
                        + "--bootstrap-servers HOST:PORT after --");
            }
            args.add("--bootstrap-servers");
            args.add(cluster.kafka().bootstrapServers());
        }
        if (!args.contains("--model") && !args.contains("--identity")) {
            args.add("--model");
            args.add((model != null ? model : ProjectPaths.locate().modelBundle())
                    .toAbsolutePath()
                    .toString());
        }
        return args;
    }
}
