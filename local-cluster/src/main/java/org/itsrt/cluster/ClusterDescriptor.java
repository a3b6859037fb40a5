package org.itsrt.cluster;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a running local cluster is, written to {@code cluster.json} in its folder: the addresses
 * clients need, the pid and log of every process, and the Flink options a client needs to find the
 * leading JobManager. {@code ./its cluster status | submit | down} and the runs given
 * {@code --cluster DIR} read it.
 *
 * @param format        {@value #FORMAT}
 * @param dir           the cluster folder
 * @param keeperPid     the process that holds the cluster (its processes end with it); 0 when the
 *                      cluster lives in the JVM that started it (tests, a demo)
 * @param startedEpochMs when the cluster was up
 * @param shape         what it is, in one line
 * @param zookeeper     null without high availability
 * @param kafka         null for a Flink-only cluster ({@code --brokers 0}), whose job's brokers run elsewhere
 */
public record ClusterDescriptor(
        String format,
        String dir,
        long keeperPid,
        long startedEpochMs,
        String shape,
        ZooKeeperPart zookeeper,
        KafkaPart kafka,
        FlinkPart flink) {

    public static final String FORMAT = "its-cluster 1";

    /** The descriptor's file name in the cluster folder. */
    public static final String FILE = "cluster.json";

    /** One process of the cluster. */
    public record Part(String name, long pid, String folder, String log) {}

    public record ZooKeeperPart(String connectString, Part process) {}

    /**
     * @param replicationFactor of the pipeline's topics
     * @param minInsyncReplicas of the pipeline's topics
     */
    public record KafkaPart(
            String bootstrapServers, int replicationFactor, int minInsyncReplicas, List<Part> brokers) {}

    /**
     * @param configFile    the config.yaml every JobManager and TaskManager reads
     * @param clientOptions what a Flink client needs beyond the REST address: the high-availability
     *                      options, with which it finds the leader through ZooKeeper
     */
    public record FlinkPart(
            String configFile,
            List<JobManagerPart> jobManagers,
            List<Part> taskManagers,
            Map<String, String> clientOptions) {}

    public record JobManagerPart(String restAddress, Part process) {}

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    /** The descriptor file of the cluster in {@code dir}. */
    public static Path file(Path dir) {
        return dir.resolve(FILE);
    }

    /** Writes {@code cluster.json} into the cluster folder, whole or not at all (readers poll for it). */
    public void write() throws IOException {
        Path target = file(Path.of(dir));
        Path partial = target.resolveSibling(FILE + ".partial");
        JSON.writeValue(partial.toFile(), this);
        Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Reads the descriptor of the cluster in {@code dir}.
     *
     * @throws IOException naming the folder when there is no cluster there, and the field when the
     *                     file is not a descriptor of this version
     */
    public static ClusterDescriptor read(Path dir) throws IOException {
        Path file = file(dir);
        ClusterDescriptor descriptor;
        try {
            descriptor = JSON.readValue(file.toFile(), ClusterDescriptor.class);
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            throw new NoSuchFileException(
                    file.toString(), null, "no cluster descriptor: is a cluster up in " + dir + "? (./its cluster up)");
        } catch (UnrecognizedPropertyException e) {
            throw new IOException(
                    file + ": not a cluster descriptor (" + FORMAT + "): unknown field '" + e.getPropertyName() + "'");
        } catch (MismatchedInputException e) {
            throw new IOException(file + ": not a cluster descriptor (" + FORMAT + "): " + e.getOriginalMessage());
        }
        if (!FORMAT.equals(descriptor.format())) {
            throw new IOException(file + ": format '" + descriptor.format() + "', expected '" + FORMAT
                    + "' (written by another version)");
        }
        return descriptor;
    }

    /** Every process, ZooKeeper first, then brokers, JobManagers, TaskManagers. */
    @JsonIgnore
    public List<Part> processes() {
        List<Part> all = new ArrayList<>();
        if (zookeeper != null) {
            all.add(zookeeper.process());
        }
        if (kafka != null) {
            all.addAll(kafka.brokers());
        }
        flink.jobManagers().forEach(jm -> all.add(jm.process()));
        all.addAll(flink.taskManagers());
        return all;
    }

    /** The JobManagers' REST addresses, in start order. */
    @JsonIgnore
    public List<URI> restAddresses() {
        return flink.jobManagers().stream()
                .map(jm -> URI.create(jm.restAddress()))
                .toList();
    }

    /** The TaskManagers' pids, in start order: the processes that run the job's tasks. */
    @JsonIgnore
    public List<Long> taskManagerPids() {
        return flink.taskManagers().stream().map(Part::pid).toList();
    }

    /** The processes of the descriptor that still run (and are this cluster's, not a reused pid). */
    @JsonIgnore
    public List<Part> alive() {
        return processes().stream().filter(this::isAlive).toList();
    }

    /** Whether the process runs, and is this cluster's: its command line names the cluster folder. */
    public boolean isAlive(Part part) {
        return ProcessHandle.of(part.pid())
                .filter(ProcessHandle::isAlive)
                .filter(this::ownedByThisCluster)
                .isPresent();
    }

    /** Whether the keeper still runs. */
    @JsonIgnore
    public boolean keeperAlive() {
        return keeperPid > 0
                && ProcessHandle.of(keeperPid)
                        .filter(ProcessHandle::isAlive)
                        .filter(this::ownedByThisCluster)
                        .isPresent();
    }

    /**
     * A pid can be reused once its process ended: only a process whose arguments mention this
     * cluster's folder is taken for one of its own (and ever signalled by {@code down}).
     */
    boolean ownedByThisCluster(ProcessHandle process) {
        return commandLine(process).contains(dir);
    }

    /**
     * The whole command line of a process. From {@code /proc/PID/cmdline} on Linux: the JDK's
     * {@code ProcessHandle.Info} gives no arguments for a command line longer than 4 KiB, as a
     * JVM's with a long class path is.
     */
    public static String commandLine(ProcessHandle process) {
        Path cmdline = Path.of("/proc", Long.toString(process.pid()), "cmdline");
        try {
            return new String(Files.readAllBytes(cmdline), java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException | UnsupportedOperationException notLinux) {
            return process.info().commandLine().orElse("");
        }
    }
}
