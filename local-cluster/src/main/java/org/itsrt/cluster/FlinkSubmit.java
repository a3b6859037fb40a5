package org.itsrt.cluster;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.itsrt.stack.ChildJvm;
import org.itsrt.stack.flink.LocalFlink;

/**
 * Submits a job jar to a local cluster as {@code flink run -d} does, with Flink's own command-line
 * client ({@code CliFrontend}) in a process of its own: it reads the cluster's config.yaml
 * ({@code FLINK_CONF_DIR}), runs the jar's main, which builds the job graph, and hands the graph
 * and the jar to the leading JobManager. With high availability the client asks ZooKeeper which
 * JobManager leads, so a submission after a failover reaches the new leader.
 */
public final class FlinkSubmit {

    static final String CLI_FRONTEND = "org.apache.flink.client.cli.CliFrontend";

    /** What Flink's client prints once the JobManager has accepted the job. */
    private static final Pattern SUBMITTED = Pattern.compile("Job has been submitted with JobID ([0-9a-f]{32})");

    private static final int TAIL_LINES = 40;

    /**
     * @param jobId  the job's id, for the web UI and {@code flink cancel}
     * @param leader the JobManager that answered as leader before the submission
     * @param log    the client's output and log
     */
    public record Submitted(String jobId, URI leader, Path log) {}

    private FlinkSubmit() {}

    /**
     * Submits {@code jobJar} with {@code jobArgs} (the arguments of its main) to the cluster and
     * returns once the JobManager has accepted it.
     *
     * @throws IllegalStateException naming every JobManager address tried when none answers, or
     *                               with the tail of the client's output when the client fails
     */
    public static Submitted submit(ClusterDescriptor cluster, Path jobJar, List<String> jobArgs, Duration timeout)
            throws IOException, InterruptedException {
        if (!Files.isRegularFile(jobJar)) {
            throw new IllegalArgumentException("no job jar at " + jobJar + " (built by `mvn -pl its-job -am package`)");
        }
        URI leader;
        try {
            leader = new FlinkRest()
                    .requireLeader(cluster.restAddresses(), cluster.flink().clientOptions());
        } catch (IllegalStateException e) {
            throw new IllegalStateException(
                    e.getMessage() + " (the cluster in " + cluster.dir() + "; is it up? ./its cluster status)");
        }
        Path configFile = Path.of(cluster.flink().configFile());
        Path clientDir = Files.createDirectories(Path.of(cluster.dir()).resolve("client"));
        String name = "submit-" + System.currentTimeMillis();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // What Flink's `flink` script passes: the JVM options config.yaml gives every Flink process
        // (on Java 17 the module options the client needs to serialize the job graph).
        command.addAll(javaOptions(configFile));
        command.add(ChildJvm.log4jToFile(clientDir, name + ".log", "%d{HH:mm:ss.SSS} %-5p %c{1} - %m%n"));
        command.add("-cp");
        command.add(LocalFlink.moduleClassPath());
        command.add(CLI_FRONTEND);
        command.addAll(List.of("run", "--detached", jobJar.toAbsolutePath().toString()));
        command.addAll(jobArgs);
        Path out = clientDir.resolve(name + ".out");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
        builder.environment().put("FLINK_CONF_DIR", configFile.getParent().toString());
        builder.environment().putIfAbsent("TF_CPP_MIN_LOG_LEVEL", "1");
        Process client = builder.start();
        try {
            if (!client.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(
                        "Flink's client did not finish submitting within " + timeout.toSeconds() + " s:\n" + tail(out));
            }
        } finally {
            client.destroyForcibly();
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        Matcher submitted = SUBMITTED.matcher(output);
        if (client.exitValue() != 0 || !submitted.find()) {
            throw new IllegalStateException("Flink's client failed to submit " + jobJar.getFileName() + " (exit code "
                    + client.exitValue() + "; output " + out + "):\n" + tail(out));
        }
        return new Submitted(submitted.group(1), leader, out);
    }

    /** {@code env.java.opts.all} and {@code env.java.opts.client} of config.yaml, split into options. */
    static List<String> javaOptions(Path configFile) {
        Map<String, String> config = ConfigYaml.read(configFile);
        List<String> options = new ArrayList<>();
        for (String key : List.of("env.java.opts.all", "env.java.opts.client")) {
            String value = config.get(key);
            if (value != null && !value.isBlank()) {
                options.addAll(Arrays.asList(value.trim().split("\\s+")));
            }
        }
        return options;
    }

    private static String tail(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
    }
}
