package org.itsrt.cluster;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.itsrt.stack.ChildJvm;

/**
 * A local cluster that outlives the command that started it: {@link #up} starts a
 * {@link ClusterKeeper} process that holds the cluster and returns once the cluster is up;
 * {@link #down} asks the keeper to stop it and makes sure that no process of it is left.
 */
public final class DetachedCluster {

    private static final Duration POLL = Duration.ofMillis(200);

    private DetachedCluster() {}

    /**
     * Starts the cluster in a keeper process and waits until it is up, showing the keeper's
     * progress on {@code log}. If this JVM is stopped meanwhile (Ctrl-C), the keeper and with it
     * every process it started are stopped too.
     *
     * @throws IllegalStateException with the keeper's reason when the cluster did not come up; no
     *                               process is left then, and a folder this call created is removed
     */
    public static ClusterDescriptor up(ClusterSpec spec, Path dir, PrintStream log)
            throws IOException, InterruptedException {
        Path folder = dir.toAbsolutePath().normalize();
        if (Files.exists(ClusterDescriptor.file(folder))) {
            throw new IllegalStateException(LocalCluster.describeExisting(folder));
        }
        boolean created = !Files.exists(folder);
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the cluster folder " + folder + ": " + e, e);
        }
        if (!Files.isWritable(folder)) {
            throw new IllegalStateException("the cluster folder " + folder + " is not writable");
        }
        Files.deleteIfExists(folder.resolve(ClusterKeeper.FAILED));
        Files.deleteIfExists(folder.resolve(ClusterKeeper.DOWN_REQUEST));

        Path output = folder.resolve(ClusterKeeper.OUTPUT);
        Process keeper = startKeeper(spec, folder, output);
        // Until the cluster is up, it is this command's: Ctrl-C takes it down.
        Thread abandon = new Thread(() -> stopKeeper(keeper), "cluster-up-abandoned");
        Runtime.getRuntime().addShutdownHook(abandon);
        try {
            long shown = 0;
            while (true) {
                shown = showProgress(output, shown, log);
                if (Files.exists(ClusterDescriptor.file(folder))) {
                    showProgress(output, shown, log);
                    return ClusterDescriptor.read(folder);
                }
                if (!keeper.isAlive()) {
                    showProgress(output, shown, log);
                    throw new IllegalStateException("the cluster did not come up: " + reason(folder, keeper));
                }
                Thread.sleep(POLL.toMillis());
            }
        } catch (IOException | RuntimeException | InterruptedException e) {
            stopKeeper(keeper);
            if (created && !Files.exists(ClusterDescriptor.file(folder))) {
                ChildJvm.deleteQuietly(folder);
            }
            throw e;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(abandon);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs
            }
        }
    }

    private static Process startKeeper(ClusterSpec spec, Path folder, Path output) throws IOException {
        List<String> command = new ArrayList<>();
        // Its own session: a terminal's hang-up or Ctrl-C after up has returned does not reach it.
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            command.add("/usr/bin/setsid");
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ClusterKeeper.class.getName());
        command.addAll(ClusterKeeper.arguments(spec, folder));
        return new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
    }

    /** The keeper's reason, written before it exited; else its output. */
    private static String reason(Path folder, Process keeper) throws IOException {
        Path failed = folder.resolve(ClusterKeeper.FAILED);
        if (Files.exists(failed)) {
            String text = Files.readString(failed, StandardCharsets.UTF_8);
            int trace = text.indexOf("\n\n");
            return trace > 0 ? text.substring(0, trace) : text;
        }
        return "the keeper exited with code " + keeper.exitValue() + "; its output: "
                + Files.readString(folder.resolve(ClusterKeeper.OUTPUT), StandardCharsets.UTF_8);
    }

    /** Prints the keeper's progress lines after the first {@code shown} bytes; returns how many are shown now. */
    private static long showProgress(Path output, long shown, PrintStream log) throws IOException {
        if (!Files.exists(output)) {
            return shown;
        }
        byte[] all = Files.readAllBytes(output);
        int end = all.length;
        while (end > shown && all[end - 1] != '\n') {
            end--;
        }
        if (end <= shown) {
            return shown;
        }
        String text = new String(all, (int) shown, (int) (end - shown), StandardCharsets.UTF_8);
        text.lines().filter(line -> line.startsWith("its-cluster:")).forEach(log::println);
        return end;
    }

    private static void stopKeeper(Process keeper) {
        keeper.destroy();
        try {
            if (!keeper.waitFor(LocalCluster.STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                keeper.destroyForcibly();
            }
        } catch (InterruptedException e) {
            keeper.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops the cluster in {@code dir}: asks its keeper, waits, then ends any process of the
     * cluster that is still there; removes the folder unless {@code keep}.
     *
     * @return what was stopped, one line each
     */
    public static List<String> down(Path dir, boolean keep, PrintStream log) throws IOException, InterruptedException {
        Path folder = dir.toAbsolutePath().normalize();
        ClusterDescriptor descriptor = ClusterDescriptor.read(folder);
        List<String> done = new ArrayList<>();
        Optional<ProcessHandle> keeper =
                ProcessHandle.of(descriptor.keeperPid()).filter(p -> descriptor.keeperAlive());
        if (keeper.isPresent()) {
            log.println("its-cluster: stopping the cluster in " + folder + " (" + descriptor.shape() + ") ...");
            Files.writeString(folder.resolve(ClusterKeeper.DOWN_REQUEST), keep ? "keep" : "remove");
            long deadline = System.nanoTime() + LocalCluster.STOP_TIMEOUT.toNanos();
            while (keeper.get().isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(POLL.toMillis());
            }
            if (keeper.get().isAlive()) {
                keeper.get().destroyForcibly();
                done.add("keeper (pid " + descriptor.keeperPid() + ") did not stop in time: killed");
            } else {
                done.add("keeper (pid " + descriptor.keeperPid() + ") stopped the cluster");
            }
        }
        // Whatever the keeper left (it was killed, or a process did not stop): end it here.
        for (ClusterDescriptor.Part part : descriptor.processes()) {
            Optional<ProcessHandle> process = ProcessHandle.of(part.pid()).filter(p -> descriptor.isAlive(part));
            if (process.isPresent()) {
                process.get().destroy();
                try {
                    process.get().onExit().get(ChildJvm.STOP_GRACE.toSeconds(), TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    process.get().destroyForcibly();
                }
                done.add(part.name() + " (pid " + part.pid() + ") was still running: stopped");
            }
        }
        List<ClusterDescriptor.Part> left = descriptor.alive();
        if (!left.isEmpty()) {
            throw new IllegalStateException("processes of the cluster are still running: " + left);
        }
        if (keep) {
            if (Files.exists(ClusterDescriptor.file(folder))) {
                Files.move(
                        ClusterDescriptor.file(folder),
                        folder.resolve(ClusterKeeper.DESCRIPTOR_WHEN_DOWN),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            done.add("folder kept: " + folder + " (logs: " + logs(folder) + ")");
        } else {
            ChildJvm.deleteTree(folder);
            done.add("folder removed: " + folder);
        }
        return done;
    }

    private static long logs(Path folder) throws IOException {
        try (Stream<Path> walk = Files.walk(folder)) {
            return walk.filter(p -> p.toString().endsWith(".log")).count();
        }
    }
}
