package org.itsrt.stack.flink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.itsrt.stack.ChildJvm;

/**
 * A Flink standalone session cluster on loopback: one JobManager process
 * ({@code StandaloneSessionClusterEntrypoint}) and N TaskManager processes
 * ({@code TaskManagerRunner}), each a {@link ChildJvm} of its own, all reading one
 * {@code conf/config.yaml} in the cluster folder. Unlike {@link LocalFlink} (a MiniCluster, every
 * component in one JVM), the job's operators run in TaskManager JVMs that hold nothing else, and
 * JobManager and TaskManagers talk over RPC as on a real cluster. The class path is the same
 * {@code lib/} as {@link LocalFlink}'s (Flink, TensorFlow Java, Log4j); job jars arrive over REST.
 *
 * <p>What Flink's {@code jobmanager.sh} and {@code taskmanager.sh} would do is done here: the JVM
 * memory flags and the derived {@code -D jobmanager.memory.*} / {@code -D taskmanager.memory.*}
 * options come from Flink's {@code BashJavaUtils} run against the same {@code config.yaml}, and
 * every JVM gets the module options of {@value #JAVA_OPTS_KEY} that Flink needs on Java 17.
 */
public final class StandaloneFlink implements AutoCloseable {

    /** The key under which config.yaml keeps the JVM options of every cluster process. */
    static final String JAVA_OPTS_KEY = "env.java.opts.all";

    /**
     * The module options Flink's own config.yaml sets in {@value #JAVA_OPTS_KEY} for Java 17: without
     * them, a job submitted over REST fails with an InaccessibleObjectException (Flink's closure
     * cleaner and serializers reflect into java.base).
     */
    static final List<String> JAVA_17_MODULE_OPTIONS = List.of(
            "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
            "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED",
            "--add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED",
            "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.text=ALL-UNNAMED",
            "--add-opens=java.base/java.time=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    static final String JOB_MANAGER_MAIN = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    static final String TASK_MANAGER_MAIN = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    private static final String BASH_JAVA_UTILS = "org.apache.flink.runtime.util.bash.BashJavaUtils";
    /** The prefix of BashJavaUtils' result lines (what Flink's config.sh looks for). */
    private static final String RESULT_PREFIX = "BASH_JAVA_UTILS_EXEC_RESULT:";

    private static final String LOOPBACK = "127.0.0.1";
    private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final URI restAddress;
    private final ChildJvm jobManager;
    private final List<ChildJvm> taskManagers;

    /**
     * How to start the cluster.
     *
     * @param taskManagers        how many TaskManager processes
     * @param slotsPerTaskManager task slots of each TaskManager
     * @param jobManagerMemory    {@code jobmanager.memory.process.size} (heap and the rest derived by Flink)
     * @param taskManagerMemory   {@code taskmanager.memory.process.size} of each TaskManager
     * @param jvmArgs             further JVM options for every cluster process
     * @param flinkOptions        further Flink options, written into config.yaml after (and so over)
     *                            this class's own
     * @param parentDir           where the cluster folder goes (default java.io.tmpdir)
     * @param classPath           the processes' class path: Flink, TensorFlow, logging, this module's classes
     * @param startTimeout        how long the JobManager, and then the TaskManagers' registration, may take
     */
    public record Options(
            int taskManagers,
            int slotsPerTaskManager,
            String jobManagerMemory,
            String taskManagerMemory,
            List<String> jvmArgs,
            Map<String, String> flinkOptions,
            Path parentDir,
            String classPath,
            Duration startTimeout) {

        public Options {
            if (taskManagers < 1) {
                throw new IllegalArgumentException("taskManagers must be >= 1, got " + taskManagers);
            }
            if (slotsPerTaskManager < 1) {
                throw new IllegalArgumentException("slotsPerTaskManager must be >= 1, got " + slotsPerTaskManager);
            }
            jvmArgs = List.copyOf(jvmArgs);
            flinkOptions = Map.copyOf(flinkOptions);
        }

        /** One TaskManager with one slot, 1 GB per process, the class path this module was built with. */
        public static Options defaults() {
            return new Options(
                    1,
                    1,
                    "1024m",
                    "1024m",
                    List.of(),
                    Map.of(),
                    null,
                    LocalFlink.moduleClassPath(),
                    Duration.ofSeconds(120));
        }

        public Options withTaskManagers(int n) {
            return new Options(
                    n,
                    slotsPerTaskManager,
                    jobManagerMemory,
                    taskManagerMemory,
                    jvmArgs,
                    flinkOptions,
                    parentDir,
                    classPath,
                    startTimeout);
        }

        public Options withSlotsPerTaskManager(int n) {
            return new Options(
                    taskManagers,
                    n,
                    jobManagerMemory,
                    taskManagerMemory,
                    jvmArgs,
                    flinkOptions,
                    parentDir,
                    classPath,
                    startTimeout);
        }

        public Options withJobManagerMemory(String size) {
            return new Options(
                    taskManagers,
                    slotsPerTaskManager,
                    size,
                    taskManagerMemory,
                    jvmArgs,
                    flinkOptions,
                    parentDir,
                    classPath,
                    startTimeout);
        }

        public Options withTaskManagerMemory(String size) {
            return new Options(
                    taskManagers,
                    slotsPerTaskManager,
                    jobManagerMemory,
                    size,
                    jvmArgs,
                    flinkOptions,
                    parentDir,
                    classPath,
                    startTimeout);
        }

        public Options withJvmArgs(List<String> args) {
            return new Options(
                    taskManagers,
                    slotsPerTaskManager,
                    jobManagerMemory,
                    taskManagerMemory,
                    args,
                    flinkOptions,
                    parentDir,
                    classPath,
                    startTimeout);
        }

        public Options withFlinkOptions(Map<String, String> options) {
            Map<String, String> all = new LinkedHashMap<>(flinkOptions);
            all.putAll(options);
            return new Options(
                    taskManagers,
                    slotsPerTaskManager,
                    jobManagerMemory,
                    taskManagerMemory,
                    jvmArgs,
                    all,
                    parentDir,
                    classPath,
                    startTimeout);
        }

        public Options withParentDir(Path parent) {
            return new Options(
                    taskManagers,
                    slotsPerTaskManager,
                    jobManagerMemory,
                    taskManagerMemory,
                    jvmArgs,
                    flinkOptions,
                    parent,
                    classPath,
                    startTimeout);
        }

        public Options withStartTimeout(Duration timeout) {
            return new Options(
                    taskManagers,
                    slotsPerTaskManager,
                    jobManagerMemory,
                    taskManagerMemory,
                    jvmArgs,
                    flinkOptions,
                    parentDir,
                    classPath,
                    timeout);
        }
    }

    private StandaloneFlink(Path dir, URI restAddress, ChildJvm jobManager, List<ChildJvm> taskManagers) {
        this.dir = dir;
        this.restAddress = restAddress;
        this.jobManager = jobManager;
        this.taskManagers = List.copyOf(taskManagers);
    }

    /**
     * Writes config.yaml, starts the JobManager and waits for its REST endpoint, starts the
     * TaskManagers and waits until all of them have registered with their slots. If anything
     * fails, every process started so far is killed, the folder removed, and the error names the
     * process and carries the tail of its log.
     */
    public static StandaloneFlink start(Options options) {
        Path dir = null;
        ChildJvm jobManager = null;
        List<ChildJvm> taskManagers = new ArrayList<>();
        try {
            dir = (options.parentDir() == null
                            ? Files.createTempDirectory("its-standalone-")
                            : Files.createTempDirectory(
                                    Files.createDirectories(options.parentDir()), "its-standalone-"))
                    .toAbsolutePath();
            Path conf = Files.createDirectories(dir.resolve("conf"));
            // Ports given as Flink options are kept (config.yaml lets them win), so the readiness
            // check and the errors use the ports the processes actually bind.
            int rpcPort = port(options, "jobmanager.rpc.port");
            int restPort = port(options, "rest.port");
            writeConfig(conf, dir, options, rpcPort, restPort);
            URI restAddress = URI.create("http://" + LOOPBACK + ":" + restPort + "/");
            HttpClient http = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(2))
                    .build();

            ChildJvm.Launch probe = ChildJvm.Launch.of("bash-java-utils", options.classPath(), BASH_JAVA_UTILS)
                    .withJvmOptions(JAVA_17_MODULE_OPTIONS);
            ResourceParams jmParams = resourceParams(dir, conf, probe, "GET_JM_RESOURCE_PARAMS");
            ResourceParams tmParams = resourceParams(dir, conf, probe, "GET_TM_RESOURCE_PARAMS");

            jobManager = ChildJvm.start(
                    "the Flink JobManager (REST port " + restPort + ", RPC port " + rpcPort + ")",
                    dir,
                    "jobmanager-",
                    options.startTimeout(),
                    processDir -> launch("jobmanager", JOB_MANAGER_MAIN, options, conf, jmParams, processDir),
                    processDir -> answers(http, restAddress.resolve("/overview")));
            for (int i = 1; i <= options.taskManagers(); i++) {
                String name = "taskmanager-" + i;
                taskManagers.add(ChildJvm.start(
                        "Flink TaskManager " + i,
                        dir,
                        name + "-",
                        options.startTimeout(),
                        processDir -> launch(name, TASK_MANAGER_MAIN, options, conf, tmParams, processDir),
                        // registration is awaited for all of them together below
                        processDir -> true));
            }
            awaitRegistration(http, restAddress, options, jobManager, taskManagers);
            return new StandaloneFlink(dir, restAddress, jobManager, taskManagers);
        } catch (IOException e) {
            stopAll(jobManager, taskManagers, dir);
            throw new UncheckedIOException("could not start the standalone Flink cluster: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            stopAll(jobManager, taskManagers, dir);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the standalone Flink cluster", e);
        } catch (RuntimeException e) {
            stopAll(jobManager, taskManagers, dir);
            throw e;
        }
    }

    /** The REST endpoint (and web UI) of the JobManager, to submit jobs to. */
    public URI restAddress() {
        return restAddress;
    }

    public long jobManagerPid() {
        return jobManager.pid();
    }

    /** The TaskManager processes, where the job's operators run, in start order. */
    public List<Long> taskManagerPids() {
        return taskManagers.stream().map(ChildJvm::pid).toList();
    }

    /**
     * The cluster folder: {@code conf/config.yaml}, and a folder per process
     * ({@code jobmanager-*}, {@code taskmanager-N-*}) with its {@code .out} and {@code .log}.
     */
    public Path dir() {
        return dir;
    }

    /** Stops the TaskManagers, then the JobManager, and removes the cluster folder. */
    @Override
    public void close() {
        stopAll(jobManager, taskManagers, dir);
    }

    /** The JVM flags and the -D options that Flink derives from config.yaml for one kind of process. */
    record ResourceParams(List<String> jvmOptions, List<String> dynamicOptions) {}

    /**
     * Runs {@code BashJavaUtils COMMAND --configDir CONF} as Flink's config.sh does and takes its
     * last two result lines: the JVM memory flags, then {@code -D key=value} options (for
     * TaskManagers among them {@code taskmanager.cpu.cores}, without which a TaskManager refuses to start).
     */
    static ResourceParams resourceParams(Path dir, Path conf, ChildJvm.Launch probe, String command)
            throws IOException {
        String name = "bash-java-utils-" + command.toLowerCase();
        ChildJvm.Launch launch =
                probe.withMain(name, BASH_JAVA_UTILS, List.of(command, "--configDir", conf.toString()));
        ChildJvm.runToEnd(
                "deriving the memory settings (" + command + ") from " + conf.resolve("config.yaml"),
                dir,
                launch,
                SETUP_TIMEOUT);
        Path out = dir.resolve(name + ".out");
        List<String> results = Files.readAllLines(out, StandardCharsets.UTF_8).stream()
                .filter(line -> line.startsWith(RESULT_PREFIX))
                .map(line -> line.substring(RESULT_PREFIX.length()).trim())
                .toList();
        if (results.size() < 2) {
            throw new IOException("expected two lines starting with " + RESULT_PREFIX + " in " + out + " (JVM flags, "
                    + "then -D options), found " + results.size());
        }
        List<String> jvm = words(results.get(results.size() - 2));
        List<String> dynamic = words(results.get(results.size() - 1));
        return new ResourceParams(jvm, dynamic);
    }

    private static List<String> words(String line) {
        return line.isBlank() ? List.of() : Arrays.asList(line.trim().split("\\s+"));
    }

    private static ChildJvm.Launch launch(
            String name, String flinkMain, Options options, Path conf, ResourceParams params, Path processDir)
            throws IOException {
        List<String> jvmOptions = new ArrayList<>(params.jvmOptions());
        jvmOptions.addAll(JAVA_17_MODULE_OPTIONS);
        // The LSTM kernel's vector path (docs/inference.md); scalar loops without it.
        jvmOptions.add("--add-modules");
        jvmOptions.add("jdk.incubator.vector");
        jvmOptions.add("-Djava.awt.headless=true");
        jvmOptions.add("-Djava.io.tmpdir=" + Files.createDirectories(processDir.resolve("tmp")));
        // log.file: where the web UI finds the process's log (as Flink's scripts set it).
        jvmOptions.add("-Dlog.file=" + processDir.resolve(name + ".log"));
        jvmOptions.add(ChildJvm.log4jToFile(processDir, name + ".log", "%d{HH:mm:ss.SSS} %-5p %c{1} - %m%n"));
        jvmOptions.addAll(options.jvmArgs());
        List<String> args = new ArrayList<>(List.of(flinkMain, "--configDir", conf.toString()));
        args.addAll(params.dynamicOptions());
        return ChildJvm.Launch.of(name, options.classPath(), StandaloneMain.class.getName())
                .withJvmOptions(jvmOptions)
                .withArgs(args)
                // TensorFlow's native library logs every model load at INFO.
                .withEnvironmentDefault("TF_CPP_MIN_LOG_LEVEL", "1")
                .withLogFiles(name + ".log");
    }

    /** config.yaml: loopback addresses and the chosen ports, folders inside the cluster folder, slots, memory. */
    static void writeConfig(Path conf, Path dir, Options options, int rpcPort, int restPort) throws IOException {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Map<String, String> all = new LinkedHashMap<>();
        all.put(JAVA_OPTS_KEY, String.join(" ", JAVA_17_MODULE_OPTIONS));
        // Loopback only: nothing is opened to the network. The ports are fixed in the file because
        // the TaskManagers and clients must know where the JobManager is.
        all.put("jobmanager.rpc.address", LOOPBACK);
        all.put("jobmanager.rpc.port", Integer.toString(rpcPort));
        all.put("jobmanager.bind-host", LOOPBACK);
        all.put("taskmanager.host", LOOPBACK);
        all.put("taskmanager.bind-host", LOOPBACK);
        all.put("rest.address", LOOPBACK);
        all.put("rest.bind-address", LOOPBACK);
        all.put("rest.port", Integer.toString(restPort));
        all.put("jobmanager.memory.process.size", options.jobManagerMemory());
        all.put("taskmanager.memory.process.size", options.taskManagerMemory());
        all.put("taskmanager.numberOfTaskSlots", Integer.toString(options.slotsPerTaskManager()));
        all.put("io.tmp.dirs", tmp.toString());
        all.put("web.tmpdir", tmp.toString());
        all.put("classloader.parent-first-patterns.additional", MiniClusterSetup.PARENT_FIRST_PATTERNS);
        all.putAll(options.flinkOptions());
        StringBuilder yaml = new StringBuilder("# Written by StandaloneFlink for this cluster only.\n");
        all.forEach((k, v) -> yaml.append(k).append(": ").append(yamlScalar(v)).append('\n'));
        Files.writeString(conf.resolve("config.yaml"), yaml.toString(), StandardCharsets.UTF_8);
    }

    /** A YAML scalar: plain when it cannot be misread, single-quoted otherwise. */
    static String yamlScalar(String value) {
        if (value.matches("[A-Za-z0-9._/;-]+")) {
            return value;
        }
        return "'" + value.replace("'", "''") + "'";
    }

    private static int port(Options options, String key) throws IOException {
        String given = options.flinkOptions().get(key);
        if (given == null) {
            return ChildJvm.freeLoopbackPort();
        }
        try {
            return Integer.parseInt(given.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "Flink option " + key + " must be a single port number for StandaloneFlink, got '" + given + "'");
        }
    }

    private static boolean answers(HttpClient http, URI uri) throws InterruptedException {
        return get(http, uri) != null;
    }

    /** The body of a 200 answer, null for anything else (not up yet). */
    private static String get(HttpClient http, URI uri) throws InterruptedException {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(uri)
                            .timeout(Duration.ofSeconds(5))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : null;
        } catch (IOException notYet) {
            return null;
        }
    }

    /** Until {@code /taskmanagers} lists every TaskManager with all its slots; fails if one exits or time runs out. */
    private static void awaitRegistration(
            HttpClient http, URI restAddress, Options options, ChildJvm jobManager, List<ChildJvm> taskManagers)
            throws InterruptedException {
        long deadline = System.nanoTime() + options.startTimeout().toNanos();
        String last = null;
        while (true) {
            for (int i = 0; i < taskManagers.size(); i++) {
                ChildJvm tm = taskManagers.get(i);
                if (!tm.isAlive()) {
                    throw new IllegalStateException("Flink TaskManager " + (i + 1) + " exited while registering with "
                            + "the JobManager:\n" + tm.logTail());
                }
            }
            if (!jobManager.isAlive()) {
                throw new IllegalStateException(
                        "the Flink JobManager exited while the TaskManagers registered:\n" + jobManager.logTail());
            }
            String body = get(http, restAddress.resolve("/taskmanagers"));
            if (body != null) {
                last = body;
                List<Integer> slots = registeredSlots(body);
                if (slots.size() == options.taskManagers()
                        && slots.stream().allMatch(n -> n == options.slotsPerTaskManager())) {
                    return;
                }
            }
            if (System.nanoTime() > deadline) {
                StringBuilder message = new StringBuilder("expected " + options.taskManagers() + " TaskManager(s) with "
                        + options.slotsPerTaskManager() + " slot(s) each registered at " + restAddress
                        + "taskmanagers within " + options.startTimeout().toSeconds() + " s; it lists: "
                        + (last == null ? "(no answer)" : last));
                for (ChildJvm tm : taskManagers) {
                    message.append('\n').append(tm.logTail());
                }
                throw new IllegalStateException(message.toString());
            }
            Thread.sleep(200);
        }
    }

    /** Slots of each TaskManager that {@code GET /taskmanagers} lists; none for a body that is not that answer. */
    static List<Integer> registeredSlots(String body) {
        List<Integer> slots = new ArrayList<>();
        try {
            for (JsonNode tm : JSON.readTree(body).path("taskmanagers")) {
                slots.add(tm.path("slotsNumber").asInt());
            }
        } catch (IOException notTheAnswer) {
            // not JSON: the REST endpoint is not the JobManager's yet
        }
        return slots;
    }

    /** TaskManagers first (so that they do not try to reach a JobManager that is gone), then the folder. */
    private static void stopAll(ChildJvm jobManager, List<ChildJvm> taskManagers, Path dir) {
        taskManagers.parallelStream().forEach(ChildJvm::close);
        if (jobManager != null) {
            jobManager.close();
        }
        ChildJvm.deleteQuietly(dir);
    }
}
