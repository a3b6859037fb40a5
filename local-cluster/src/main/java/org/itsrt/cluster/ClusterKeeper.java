package org.itsrt.cluster;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.itsrt.cluster.cli.ClusterFolderOption;
import org.itsrt.cluster.cli.ClusterShapeOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The process that holds a cluster started by {@code ./its cluster up}: it starts a
 * {@link LocalCluster}, writes the descriptor, and waits until {@code ./its cluster down} asks it
 * to stop (a request file in the cluster folder). The cluster's processes watch this one and end
 * with it, however it ends: killing the keeper takes the whole cluster down.
 *
 * <p>Files in the cluster folder that {@code up} and {@code down} talk through:
 * {@value #FAILED} (why the start failed), {@value #DOWN_REQUEST} (written by {@code down}), and
 * {@value #OUTPUT} (this process's output: progress, then errors).
 */
@Command(name = "cluster-keeper", description = "holds a local cluster until ./its cluster down (started by up)")
public final class ClusterKeeper implements Callable<Integer> {

    /** Why the start failed, written before the keeper exits with status 1. */
    public static final String FAILED = "up-failed.txt";
    /** Written by {@code down}: the keeper stops the cluster and exits. */
    public static final String DOWN_REQUEST = "down-requested";
    /** The keeper's output. */
    public static final String OUTPUT = "keeper.out";
    /** The descriptor's name once the cluster is down and its folder kept. */
    public static final String DESCRIPTOR_WHEN_DOWN = "cluster-down.json";

    private static final Duration POLL = Duration.ofMillis(200);

    // The shape and folder as `./its cluster up` takes them: the keeper is given its caller's values.
    @CommandLine.Mixin
    ClusterFolderOption folder = new ClusterFolderOption();

    @CommandLine.Mixin
    ClusterShapeOptions shape = new ClusterShapeOptions();

    @Option(names = "--ports", required = true)
    ClusterSpec.PortChoice ports;

    @Option(names = "--start-timeout-seconds", required = true)
    long startTimeoutSeconds;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ClusterKeeper()).execute(args));
    }

    /** The arguments that make a keeper start {@code spec} in {@code dir}. */
    static java.util.List<String> arguments(ClusterSpec spec, Path dir) {
        java.util.List<String> arguments = new java.util.ArrayList<>(java.util.List.of(
                "--dir", dir.toString(),
                "--jobmanagers", Integer.toString(spec.jobManagers()),
                "--taskmanagers", Integer.toString(spec.taskManagers()),
                "--slots", Integer.toString(spec.slots()),
                "--brokers", Integer.toString(spec.brokers()),
                "--ports", spec.ports().name(),
                "--taskmanager-memory", spec.taskManagerMemory(),
                "--start-timeout-seconds", Long.toString(spec.startTimeout().toSeconds()),
                "--rest-bind-address", spec.restBindAddress()));
        if (spec.ha()) {
            arguments.add("--ha");
        }
        return arguments;
    }

    @Override
    public Integer call() throws Exception {
        ClusterSpec spec = shape.spec(ports, Duration.ofSeconds(startTimeoutSeconds));
        Path dir = folder.resolve();
        LocalCluster cluster;
        try {
            cluster = LocalCluster.start(spec, dir, System.out);
        } catch (RuntimeException e) {
            Files.writeString(dir.resolve(FAILED), describe(e), StandardCharsets.UTF_8);
            return 1;
        }
        long self = ProcessHandle.current().pid();
        cluster.descriptor(self).write();
        System.out.println("its-cluster: up; descriptor " + ClusterDescriptor.file(cluster.dir()));
        System.out.flush();

        Path request = dir.resolve(DOWN_REQUEST);
        while (!Files.exists(request)) {
            Thread.sleep(POLL.toMillis());
        }
        System.out.println("its-cluster: stopping on request ...");
        // The folder stays: down removes it unless told to keep it, after checking that every
        // process is gone.
        cluster.closeKeepingFolders();
        Files.move(
                ClusterDescriptor.file(cluster.dir()),
                cluster.dir().resolve(DESCRIPTOR_WHEN_DOWN),
                StandardCopyOption.REPLACE_EXISTING);
        Files.deleteIfExists(request);
        System.out.println("its-cluster: down");
        return 0;
    }

    /** The error and its causes, one line each, then the stack trace for whoever looks further. */
    private static String describe(Throwable e) {
        StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null && !text.toString().contains(cause.getMessage())) {
                text.append("\ncaused by: ").append(cause.getMessage());
            }
        }
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        return text + "\n\n" + trace;
    }
}
