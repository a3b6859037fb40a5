package org.itsrt.cluster.cli;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.itsrt.cli.DurationConverter;
import org.itsrt.cli.MissingDefaultException;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cli.options.JobJarOption;
import org.itsrt.cli.options.ModelOption;
import org.itsrt.cluster.ClusterConfigFile;
import org.itsrt.cluster.ClusterDescriptor;
import org.itsrt.cluster.ClusterSpec;
import org.itsrt.cluster.ClusterStatus;
import org.itsrt.cluster.DetachedCluster;
import org.itsrt.cluster.FlinkSubmit;
import org.itsrt.stack.flink.HighAvailabilityOption;
import org.itsrt.stack.flink.TaskManagerCountOption;
import org.itsrt.stack.kafka.BrokerCountOption;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ./its cluster up | status | submit | down | config}: the pipeline's cluster on this host (docs/cluster.md). */
@Command(
        name = "cluster",
        description = {
            "The pipeline's cluster on this host, each part a process of its own: ZooKeeper (with --ha), Kafka KRaft "
                    + "broker(s), Flink JobManager(s) and TaskManager(s) from Flink's own entry points on one "
                    + "config.yaml. It runs until `down`; runs attach to it with --cluster DIR."
        },
        subcommands = {
            ClusterCommand.Up.class,
            ClusterCommand.Status.class,
            ClusterCommand.Submit.class,
            ClusterCommand.Down.class,
            ClusterCommand.Config.class
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

    /** The cluster folder option every subcommand takes, and the keeper process. */
    public static final class Folder {
        @Option(
                names = "--dir",
                paramLabel = "DIR",
                description = "the cluster folder (default: runs/cluster in the repository)")
        Path dir;

        public Path resolve() {
            return dir != null
                    ? dir
                    : ClusterSpec.defaultDir(ProjectPaths.locate().root());
        }
    }

    /**
     * The cluster's shape: how many of each process, slots, memory; what {@code up} starts, {@code config}
     * renders and the keeper process is given.
     */
    public static final class Shape {
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

    @Command(
            name = "up",
            description = "start the cluster and return once every TaskManager has registered and every "
                    + "replica of the pipeline's topics is in sync")
    static final class Up implements Callable<Integer> {

        @CommandLine.Mixin
        Folder folder = new Folder();

        @CommandLine.Mixin
        HelpOption help = new HelpOption();

        @CommandLine.Mixin
        Shape shape = new Shape();

        @Option(
                names = "--free-ports",
                description = "listen on free ports instead of the standard ones (ZooKeeper 2181, Kafka 9092, "
                        + "Flink web UI 8081, RPC 6123): for a second cluster beside one")
        boolean freePorts;

        @Option(
                names = "--start-timeout",
                defaultValue = "120s",
                paramLabel = "TIME",
                converter = DurationConverter.class,
                description = "how long each part may take to answer (default: ${DEFAULT-VALUE})")
        Duration startTimeout;

        @Override
        public Integer call() throws Exception {
            ClusterSpec spec =
                    shape.spec(freePorts ? ClusterSpec.PortChoice.FREE : ClusterSpec.PortChoice.STANDARD, startTimeout);
            Path dir = folder.resolve();
            ClusterDescriptor cluster;
            try {
                cluster = DetachedCluster.up(spec, dir, System.err);
            } catch (IllegalStateException e) {
                System.err.println("its cluster up: " + e.getMessage());
                return 1;
            }
            System.out.print(describeUp(cluster));
            return 0;
        }
    }

    @Command(
            name = "config",
            description = "print the Flink config.yaml of a cluster of this shape without starting anything: the one "
                    + "`up` writes (standard ports, the cluster folder), or with --containers the same settings for "
                    + "the containers of docker/compose.yaml (docker/flink/config.yaml is this output)")
    static final class Config implements Callable<Integer> {

        @CommandLine.Mixin
        Folder folder = new Folder();

        @CommandLine.Mixin
        HelpOption help = new HelpOption();

        @CommandLine.Mixin
        Shape shape = new Shape();

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

    /** What {@code up} prints: where everything is, and what to do next. */
    static String describeUp(ClusterDescriptor cluster) {
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
        text.append("  Kafka          ").append(cluster.kafka().bootstrapServers());
        text.append(" (replication factor ")
                .append(cluster.kafka().replicationFactor())
                .append(", min.insync.replicas ")
                .append(cluster.kafka().minInsyncReplicas())
                .append(")\n");
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
        text.append("next: ./its cluster submit")
                .append(dirOption)
                .append(" | ./its demo --cluster ")
                .append(cluster.dir())
                .append(" | ./its cluster status")
                .append(dirOption)
                .append(" | ./its cluster down")
                .append(dirOption)
                .append('\n');
        return text.toString();
    }

    @Command(
            name = "status",
            description = "processes, the JobManager leader, TaskManagers and slots, jobs, topics and in-sync replicas")
    static final class Status implements Callable<Integer> {

        @CommandLine.Mixin
        Folder folder = new Folder();

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

    @Command(
            name = "submit",
            description = {
                "submit the job jar as `flink run --detached` does, with Flink's own client: it finds the leading "
                        + "JobManager (through ZooKeeper with --ha). The job reads and writes the cluster's Kafka.",
                "Job options follow `--`, e.g. ./its cluster submit -- --identity (docs/job.md)."
            })
    static final class Submit implements Callable<Integer> {

        @CommandLine.Mixin
        Folder folder = new Folder();

        @CommandLine.Mixin
        HelpOption help = new HelpOption();

        @CommandLine.Mixin
        JobJarOption jobJar = new JobJarOption();

        // The job's own --model or --identity, given after the folder, goes before this one.
        @CommandLine.Mixin
        ModelOption model = new ModelOption();

        @Option(
                names = "--timeout",
                defaultValue = "120s",
                paramLabel = "TIME",
                converter = DurationConverter.class,
                description = "how long the submission may take (default: ${DEFAULT-VALUE})")
        Duration timeout;

        @Parameters(paramLabel = "JOB_OPTION", description = "options of the job, after --")
        List<String> jobOptions = new ArrayList<>();

        @CommandLine.Spec
        CommandLine.Model.CommandSpec command;

        @Override
        public Integer call() throws Exception {
            ClusterDescriptor cluster;
            try {
                cluster = ClusterDescriptor.read(folder.resolve());
            } catch (NoSuchFileException e) {
                System.err.println("its cluster submit: " + e.getReason());
                return 2;
            }
            List<String> args;
            Path jar;
            try {
                jar = jobJar.path();
                args = jobArguments(cluster, jobOptions, model.given());
            } catch (MissingDefaultException | IllegalArgumentException e) {
                throw new CommandLine.ParameterException(command.commandLine(), e.getMessage());
            }
            try {
                FlinkSubmit.Submitted submitted = FlinkSubmit.submit(cluster, jar, args, timeout);
                System.out.println("submitted job " + submitted.jobId() + " to " + submitted.leader() + " (web UI "
                        + submitted.leader().resolve("/#/job/running/" + submitted.jobId()) + ")");
                System.out.println("client output: " + submitted.log());
                return 0;
            } catch (IllegalStateException | IllegalArgumentException e) {
                System.err.println("its cluster submit: " + e.getMessage());
                return 1;
            }
        }
    }

    /**
     * The job's arguments: the user's, plus the cluster's Kafka and the default model where the
     * user gave neither.
     */
    public static List<String> jobArguments(ClusterDescriptor cluster, List<String> jobOptions, Path model)
            throws IOException {
        List<String> args = new ArrayList<>(jobOptions);
        if (!args.contains("--bootstrap-servers")) {
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

    @Command(
            name = "down",
            description = "stop every process of the cluster and remove its folder (--keep: keep it, with every log)")
    static final class Down implements Callable<Integer> {

        @CommandLine.Mixin
        Folder folder = new Folder();

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
}
