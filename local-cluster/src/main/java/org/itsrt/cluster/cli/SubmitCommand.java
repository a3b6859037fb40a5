package org.itsrt.cluster.cli;

import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.itsrt.cli.DurationConverter;
import org.itsrt.cli.MissingDefaultException;
import org.itsrt.cli.options.HelpOption;
import org.itsrt.cli.options.JobJarOption;
import org.itsrt.cli.options.ModelOption;
import org.itsrt.cluster.ClusterDescriptor;
import org.itsrt.cluster.FlinkSubmit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "submit",
        description = {
            "submit the job jar as `flink run --detached` does, with Flink's own client: it finds the leading "
                    + "JobManager (through ZooKeeper with --ha). The job reads and writes the cluster's Kafka; "
                    + "a cluster without one (--brokers 0) needs the job's -- --bootstrap-servers HOST:PORT.",
            "Job options follow `--`, e.g. ./its cluster submit -- --identity (docs/job.md)."
        })
final class SubmitCommand implements Callable<Integer> {

    @CommandLine.Mixin
    ClusterFolderOption folder = new ClusterFolderOption();

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
            args = ClusterCommand.jobArguments(cluster, jobOptions, model.given());
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
