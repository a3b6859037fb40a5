package org.itsrt.stack.flink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.itsrt.stack.ChildJvm;

/**
 * A Flink standalone session cluster on loopback: N JobManager processes
 * ({@code StandaloneSessionClusterEntrypoint}) and M TaskManager processes
 * ({@code TaskManagerRunner}), each a {@link ChildJvm} of its own, all reading one
 * {@code conf/config.yaml} in the cluster folder. Unlike {@link LocalFlink} (a MiniCluster, every
 * component in one JVM), the job's operators run in TaskManager JVMs that hold nothing else, and
 * JobManager and TaskManagers talk over RPC as on a real cluster. The class path is the same
 * {@code lib/} as {@link LocalFlink}'s (Flink, TensorFlow Java, Log4j); job jars arrive over REST.
 *
 * <p>More than one JobManager needs ZooKeeper high availability ({@link StandaloneFlinkOptions.Builder#zooKeeperQuorum}):
 * the JobManagers elect a leader in ZooKeeper, the others stand by, and when the leader dies one
 * of them takes over within seconds, recovers the running jobs from the cluster folder's
 * {@code ha/} and their last checkpoint, and the TaskManagers, which find the leader through
 * ZooKeeper too, register with it. Each process can be stopped, killed and restarted on its own
 * ({@link #jobManager(int)}, {@link #taskManager(int)}).
 *
 * <p>What Flink's {@code jobmanager.sh} and {@code taskmanager.sh} would do is done here: the JVM
 * memory flags and the derived {@code -D jobmanager.memory.*} / {@code -D taskmanager.memory.*}
 * options come from Flink's {@code BashJavaUtils} run against the same {@code config.yaml}, and
 * every JVM gets the JVM options of config.yaml ({@link ClusterConfig#JVM_OPTIONS}).
 */
public final class StandaloneFlink implements AutoCloseable {

    /**
     * The module options Flink's own config.yaml sets in {@code env.java.opts.all} for Java 17: without
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

    static final String REST_PORT_KEY = "rest.port";
    static final String RPC_PORT_KEY = "jobmanager.rpc.port";
    /** With high availability a JobManager binds its RPC here, not at {@value #RPC_PORT_KEY}. */
    static final String HA_RPC_PORT_KEY = "high-availability.jobmanager.port";
    /** Each TaskManager's id in Flink (the REST API's {@code /taskmanagers} ids): {@code taskmanager-N}. */
    static final String RESOURCE_ID_KEY = "taskmanager.resource-id";

    /**
     * How long a JobManager's ZooKeeper session outlives the JobManager: its leadership lives in
     * the session, so a standby takes over this long after the leader died (Flink's default is 60
     * s). Short enough for a failover within seconds, long enough that a JobManager on a busy
     * two-core machine (garbage collection, CPU shared with the job) does not lose its leadership
     * to a missed heartbeat. The ZooKeeper server must grant it: between 2 and 20 of its ticks
     * ({@code LocalZooKeeper} ticks every 500 ms).
     */
    static final Duration HA_SESSION_TIMEOUT = Duration.ofSeconds(5);

    /** How long the ZooKeeper client waits for a connection before an operation fails (Flink's default 15 s). */
    static final Duration HA_CONNECTION_TIMEOUT = Duration.ofSeconds(5);

    /**
     * Restarts of a failed job before it fails for good: enough that TaskManagers and JobManagers
     * killed again and again in one run never exhaust them, while a job that fails at every start
     * still ends (after about 15 minutes at one restart a second).
     */
    static final int RESTART_ATTEMPTS = 1000;

    private static final String LOOPBACK = "127.0.0.1";
    private static final String REST_ADDRESS_KEY = "rest.address";
    private static final String REST_BIND_ADDRESS_KEY = "rest.bind-address";
    private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final StandaloneFlinkOptions options;
    private final List<URI> restAddresses;
    private final List<ChildJvm> jobManagers;
    private final List<ChildJvm> taskManagers;
    private final HttpClient http;
    /** With high availability: who ZooKeeper names as the REST leader; started by {@link #start}. */
    private final ZooKeeperLeader leader;

    /** A JobManager's REST and RPC ports. */
    record Ports(int rest, int rpc) {}

    private StandaloneFlink(
            Path dir,
            StandaloneFlinkOptions options,
            List<URI> restAddresses,
            List<ChildJvm> jobManagers,
            List<ChildJvm> taskManagers,
            HttpClient http,
            ZooKeeperLeader leader) {
        this.dir = dir;
        this.options = options;
        this.restAddresses = List.copyOf(restAddresses);
        this.jobManagers = List.copyOf(jobManagers);
        this.taskManagers = List.copyOf(taskManagers);
        this.http = http;
        this.leader = leader;
    }

    /**
     * Checks the class path (TensorFlow's native library), every fixed port and that ZooKeeper
     * answers (with high availability; the options themselves were checked when built), then
     * writes config.yaml, starts the JobManagers one after the other (each ready when its REST
     * endpoint answers), starts the TaskManagers and waits until a JobManager answers as leader and
     * lists all TaskManagers with their slots. If anything fails, every process started so far is
     * killed, the folder removed, and the error names the process and carries the tail of its log.
     */
    public static StandaloneFlink start(StandaloneFlinkOptions options) {
        TensorFlowNativeLibrary.requireOn(options.classPath());
        List<Integer> fixedRest = fixedPorts(options, options.restPorts(), REST_PORT_KEY);
        List<Integer> fixedRpc = fixedPorts(options, options.rpcPorts(), RPC_PORT_KEY);
        for (int i = 0; i < options.jobManagers(); i++) {
            if (fixedRest.get(i) != null) {
                ChildJvm.requireFreePort(
                        options.flinkOptions().getOrDefault(REST_BIND_ADDRESS_KEY, LOOPBACK),
                        fixedRest.get(i),
                        "Flink REST of JobManager " + (i + 1));
            }
            if (fixedRpc.get(i) != null) {
                ChildJvm.requireFreePort(fixedRpc.get(i), "Flink RPC of JobManager " + (i + 1));
            }
        }
        if (options.highAvailability()) {
            requireZooKeeperReachable(options.zooKeeperQuorum());
        }

        Path dir = null;
        List<ChildJvm> jobManagers = new ArrayList<>();
        List<ChildJvm> taskManagers = new ArrayList<>();
        ZooKeeperLeader leader = null;
        try {
            dir = (options.parentDir() == null
                            ? Files.createTempDirectory("its-standalone-")
                            : Files.createTempDirectory(
                                    Files.createDirectories(options.parentDir()), "its-standalone-"))
                    .toAbsolutePath();
            Path conf = Files.createDirectories(dir.resolve("conf"));
            List<Ports> ports = new ArrayList<>();
            for (int i = 0; i < options.jobManagers(); i++) {
                ports.add(new Ports(orFree(fixedRest.get(i)), orFree(fixedRpc.get(i))));
            }
            Map<String, String> config = writeConfig(
                    conf, dir, options, ports.get(0).rpc(), ports.get(0).rest());
            // Where clients reach the REST endpoints: loopback, or the one address the endpoint was
            // told to bind (rest.address); the JobManagers and TaskManagers talk over loopback.
            String restHost = config.getOrDefault(REST_ADDRESS_KEY, LOOPBACK);
            List<URI> restAddresses = ports.stream()
                    .map(p -> URI.create("http://" + restHost + ":" + p.rest() + "/"))
                    .toList();
            HttpClient http = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(2))
                    .build();

            ChildJvm.Launch probe = ChildJvm.Launch.of("bash-java-utils", options.classPath(), BASH_JAVA_UTILS)
                    .withJvmOptions(JAVA_17_MODULE_OPTIONS);
            ResourceParams jmParams = resourceParams(dir, conf, probe, "GET_JM_RESOURCE_PARAMS");
            ResourceParams tmParams = resourceParams(dir, conf, probe, "GET_TM_RESOURCE_PARAMS");

            for (int i = 0; i < options.jobManagers(); i++) {
                String name = "jobmanager-" + (i + 1);
                URI overview = restAddresses.get(i).resolve("/overview");
                ResourceParams params = jmParams.withDynamicOptions(jobManagerPortOptions(options, ports.get(i)));
                jobManagers.add(ChildJvm.start(
                        jobManagerDescription(options, i, ports.get(i)),
                        dir,
                        name + "-",
                        options.startTimeout(),
                        processDir -> launch(name, JOB_MANAGER_MAIN, options, conf, params, processDir),
                        // Without high availability the one JobManager leads at once; with it, a
                        // standby's REST answers too, but it may not lead (awaited below).
                        options.highAvailability()
                                ? processDir -> status(http, overview) > 0
                                : processDir -> status(http, overview) == 200));
            }
            for (int i = 1; i <= options.taskManagers(); i++) {
                String name = "taskmanager-" + i;
                // Its name as Flink's resource id: the REST API's TaskManager ids then say which
                // process is which (taskManagerIndex).
                ResourceParams params = tmParams.withDynamicOptions(List.of("-D", RESOURCE_ID_KEY + "=" + name));
                taskManagers.add(ChildJvm.start(
                        "Flink TaskManager " + i,
                        dir,
                        name + "-",
                        options.startTimeout(),
                        processDir -> launch(name, TASK_MANAGER_MAIN, options, conf, params, processDir),
                        // registration is awaited for all of them together below
                        processDir -> true));
            }
            if (options.highAvailability()) {
                leader = ZooKeeperLeader.start(config);
            }
            StandaloneFlink flink =
                    new StandaloneFlink(dir, options, restAddresses, jobManagers, taskManagers, http, leader);
            flink.awaitSettled(options.startTimeout(), true);
            return flink;
        } catch (IOException e) {
            stopAll(jobManagers, taskManagers, leader, dir, false);
            throw new UncheckedIOException("could not start the standalone Flink cluster: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            stopAll(jobManagers, taskManagers, leader, dir, false);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the standalone Flink cluster", e);
        } catch (RuntimeException e) {
            stopAll(jobManagers, taskManagers, leader, dir, false);
            throw e;
        }
    }

    /**
     * The REST endpoint of the first JobManager. With high availability a standby's REST endpoint
     * answers too (Flink hands requests on to the leader, and answers 503 while it knows of none),
     * but the first JobManager may have died: prefer {@link #leaderRestAddress()}.
     */
    public URI restAddress() {
        return restAddresses.get(0);
    }

    /** Each JobManager's REST endpoint (and web UI), in start order. */
    public List<URI> restAddresses() {
        return restAddresses;
    }

    /**
     * The REST endpoint of the JobManager that leads now, to submit jobs to: without high
     * availability the one JobManager, if its REST endpoint answers; with it, the JobManager whose
     * REST endpoint Flink's leader election in ZooKeeper names (as Flink's own clients find it),
     * if its process runs and its REST endpoint answers. Fails, naming every JobManager's address
     * and what it answered, when none does (during a failover, say).
     */
    public URI leaderRestAddress() {
        String named = leader == null ? null : leader.restAddress();
        List<String> tried = new ArrayList<>();
        for (int i = 0; i < restAddresses.size(); i++) {
            URI address = restAddresses.get(i);
            boolean alive = jobManagers.get(i).isAlive();
            int status;
            try {
                status = alive ? status(http, address.resolve("/overview")) : -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while asking " + address, e);
            }
            boolean isNamed = leader == null || (named != null && sameEndpoint(named, address));
            if (isNamed && status == 200) {
                return address;
            }
            tried.add(address + " (JobManager " + (i + 1) + ": "
                    + (!alive ? "process ended" : status < 0 ? "no answer" : "/overview answered " + status)
                    + (isNamed ? "" : ", not the leader")
                    + ")");
        }
        String zooKeeper = leader == null
                ? ""
                : "; ZooKeeper " + options.zooKeeperQuorum() + " names " + (named == null ? "no leader" : named)
                        + (leader.error() == null ? "" : " (" + leader.error() + ")");
        throw new IllegalStateException(
                "no JobManager answers as leader" + zooKeeper + "; tried " + String.join(", ", tried));
    }

    /**
     * Waits until a JobManager answers as leader ({@link #leaderRestAddress()}) and lists every
     * running TaskManager process with all its slots (and no more), then returns its REST address:
     * after a JobManager or TaskManager was killed or restarted, the cluster has settled.
     */
    public URI awaitLeader(Duration timeout) throws InterruptedException {
        return awaitSettled(timeout, false);
    }

    /** The first JobManager's process. */
    public long jobManagerPid() {
        return jobManagers.get(0).pid();
    }

    /** Each JobManager's process, in start order (another one after its restart). */
    public List<Long> jobManagerPids() {
        return jobManagers.stream().map(ChildJvm::pid).toList();
    }

    /** The TaskManager processes, where the job's operators run, in start order. */
    public List<Long> taskManagerPids() {
        return taskManagers.stream().map(ChildJvm::pid).toList();
    }

    /**
     * JobManager {@code i} (from 0, in start order, as {@link #restAddresses()}; its folder and log
     * are {@code jobmanager-(i+1)}), to stop, kill or restart it on its own. A restarted JobManager
     * keeps its ports; with high availability it comes back as a standby.
     */
    public ChildJvm jobManager(int i) {
        return jobManagers.get(i);
    }

    /**
     * TaskManager {@code i} (from 0, in start order; its folder and log are
     * {@code taskmanager-(i+1)}), to stop, kill or restart it on its own. A restarted TaskManager
     * registers anew with the leading JobManager ({@link #awaitLeader}).
     */
    public ChildJvm taskManager(int i) {
        return taskManagers.get(i);
    }

    /**
     * Which TaskManager (from 0, as {@link #taskManager(int)}) Flink knows by {@code resourceId}
     * (the {@code id} of REST's {@code /taskmanagers}): each is started with its name,
     * {@code taskmanager-N}, as its resource id.
     */
    public int taskManagerIndex(String resourceId) {
        if (resourceId.startsWith("taskmanager-")) {
            try {
                int n = Integer.parseInt(resourceId.substring("taskmanager-".length()));
                if (n >= 1 && n <= taskManagers.size()) {
                    return n - 1;
                }
            } catch (NumberFormatException notOurs) {
                // falls through to the error
            }
        }
        throw new IllegalArgumentException("no TaskManager of this cluster has the resource id '" + resourceId
                + "' (they are taskmanager-1 to taskmanager-" + taskManagers.size() + ")");
    }

    /**
     * The cluster folder: {@code conf/config.yaml}, a folder per process ({@code jobmanager-N-*},
     * {@code taskmanager-N-*}) with its {@code .out} and {@code .log}, and {@code ha/},
     * {@code checkpoints/}, {@code savepoints/} as jobs use them.
     */
    public Path dir() {
        return dir;
    }

    /** The {@code config.yaml} every process reads. */
    public Path configFile() {
        return dir.resolve("conf").resolve("config.yaml");
    }

    /** Stops the TaskManagers, then the JobManagers, and removes the cluster folder. */
    @Override
    public void close() {
        stopAll(jobManagers, taskManagers, leader, dir, false);
    }

    /** {@link #close()}, but the cluster folder (logs, config, HA data, checkpoints) stays for a look afterwards. */
    public void closeKeepingFolder() {
        stopAll(jobManagers, taskManagers, leader, dir, true);
    }

    /**
     * Until a JobManager answers as leader and {@code /taskmanagers} there lists the expected
     * TaskManagers with all their slots: at the start all of them (and every process must stay
     * up), later those whose process runs.
     */
    private URI awaitSettled(Duration timeout, boolean starting) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = null;
        URI lastLeader = null;
        RuntimeException lastFailure = null;
        while (true) {
            if (starting) {
                requireAllAlive();
            }
            int expected = (int) taskManagers.stream().filter(ChildJvm::isAlive).count();
            try {
                URI leading = leaderRestAddress();
                lastLeader = leading;
                lastFailure = null;
                String body = get(http, leading.resolve("/taskmanagers"));
                if (body != null) {
                    last = body;
                    List<Integer> slots = registeredSlots(body);
                    if (slots.size() == expected && slots.stream().allMatch(n -> n == options.slotsPerTaskManager())) {
                        return leading;
                    }
                }
            } catch (IllegalStateException noLeaderYet) {
                lastFailure = noLeaderYet;
            }
            if (System.nanoTime() > deadline) {
                StringBuilder message = new StringBuilder();
                if (lastLeader == null) {
                    message.append("no JobManager answered as leader within ")
                            .append(timeout.toSeconds())
                            .append(" s: ")
                            .append(lastFailure == null ? "" : lastFailure.getMessage());
                    for (ChildJvm jm : jobManagers) {
                        message.append('\n').append(jm.logTail());
                    }
                } else {
                    message.append("expected ")
                            .append(expected)
                            .append(" TaskManager(s) with ")
                            .append(options.slotsPerTaskManager())
                            .append(" slot(s) each registered at ")
                            .append(lastLeader)
                            .append("taskmanagers within ")
                            .append(timeout.toSeconds())
                            .append(" s; it lists: ")
                            .append(last == null ? "(no answer)" : last);
                    if (lastFailure != null) {
                        message.append("; at the end ").append(lastFailure.getMessage());
                    }
                }
                for (ChildJvm tm : taskManagers) {
                    message.append('\n').append(tm.logTail());
                }
                throw new IllegalStateException(message.toString());
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private void requireAllAlive() {
        for (int i = 0; i < taskManagers.size(); i++) {
            ChildJvm tm = taskManagers.get(i);
            if (!tm.isAlive()) {
                throw new IllegalStateException("Flink TaskManager " + (i + 1) + " exited while registering with "
                        + "the JobManager:\n" + tm.logTail());
            }
        }
        for (int i = 0; i < jobManagers.size(); i++) {
            ChildJvm jm = jobManagers.get(i);
            if (!jm.isAlive()) {
                throw new IllegalStateException(
                        (jobManagers.size() == 1 ? "the Flink JobManager" : "Flink JobManager " + (i + 1))
                                + " exited while the TaskManagers registered:\n" + jm.logTail());
            }
        }
    }

    private static String jobManagerDescription(StandaloneFlinkOptions options, int i, Ports ports) {
        return (options.jobManagers() == 1 ? "the Flink JobManager" : "Flink JobManager " + (i + 1)) + " (REST port "
                + ports.rest() + ", RPC port " + ports.rpc() + ")";
    }

    /**
     * A JobManager's own ports, as {@code -D} options on its command line: config.yaml is shared
     * (it holds the first JobManager's). With high availability the RPC port is taken from
     * {@value #HA_RPC_PORT_KEY}.
     */
    private static List<String> jobManagerPortOptions(StandaloneFlinkOptions options, Ports ports) {
        List<String> dynamic = new ArrayList<>(List.of(
                "-D", REST_PORT_KEY + "=" + ports.rest(),
                "-D", RPC_PORT_KEY + "=" + ports.rpc()));
        if (options.highAvailability()) {
            dynamic.addAll(List.of("-D", HA_RPC_PORT_KEY + "=" + ports.rpc()));
        }
        return dynamic;
    }

    /**
     * Each JobManager's fixed port of one kind, null where a free one is to be chosen: from the
     * list given, or for a single JobManager from the Flink options (where config.yaml would take it).
     */
    private static List<Integer> fixedPorts(StandaloneFlinkOptions options, List<Integer> given, String key) {
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < options.jobManagers(); i++) {
            ports.add(given.isEmpty() ? null : given.get(i));
        }
        String option = options.flinkOptions().get(key);
        if (given.isEmpty() && option != null && options.jobManagers() == 1) {
            try {
                ports.set(0, Integer.parseInt(option.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("Flink option " + key
                        + " must be a single port number for StandaloneFlink, got '" + option + "'");
            }
        }
        return ports;
    }

    private static int orFree(Integer port) throws IOException {
        return port != null ? port : ChildJvm.freeLoopbackPort();
    }

    /** The JVM flags and the -D options that Flink derives from config.yaml for one kind of process. */
    record ResourceParams(List<String> jvmOptions, List<String> dynamicOptions) {

        ResourceParams withDynamicOptions(List<String> more) {
            List<String> all = new ArrayList<>(dynamicOptions);
            all.addAll(more);
            return new ResourceParams(jvmOptions, all);
        }
    }

    /**
     * Runs {@code BashJavaUtils COMMAND --configDir CONF} as Flink's config.sh does and takes its
     * last two result lines: the JVM memory flags, then {@code -D key=value} options (for
     * TaskManagers among them {@code taskmanager.cpu.cores}, without which a TaskManager refuses to start).
     */
    static ResourceParams resourceParams(Path dir, Path conf, ChildJvm.Launch probe, String command)
            throws IOException {
        String name = "bash-java-utils-" + command.toLowerCase(Locale.ROOT);
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
            String name,
            String flinkMain,
            StandaloneFlinkOptions options,
            Path conf,
            ResourceParams params,
            Path processDir)
            throws IOException {
        List<String> jvmOptions = new ArrayList<>(params.jvmOptions());
        // The same JVM options as config.yaml names, as Flink's scripts would add them.
        jvmOptions.addAll(ClusterConfig.JVM_OPTIONS);
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

    /**
     * Writes config.yaml for the processes of this host ({@link ClusterConfig.Loopback}: loopback
     * addresses, the first JobManager's ports, folders inside the cluster folder). Returns what it
     * wrote.
     */
    static Map<String, String> writeConfig(
            Path conf, Path dir, StandaloneFlinkOptions options, int rpcPort, int restPort) throws IOException {
        Files.createDirectories(dir.resolve("tmp"));
        Map<String, String> all = ClusterConfig.settings(options, new ClusterConfig.Loopback(dir, rpcPort, restPort));
        Files.writeString(
                conf.resolve("config.yaml"),
                ClusterConfig.yaml(all, List.of("Written by StandaloneFlink for this cluster only.")),
                StandardCharsets.UTF_8);
        return all;
    }

    /**
     * Fails unless some server of the quorum ({@code host:port[,host:port...][/chroot]}) accepts a
     * connection: without one the JobManagers would give up only after a minute of retries.
     */
    static void requireZooKeeperReachable(String quorum) {
        String servers = quorum.contains("/") ? quorum.substring(0, quorum.indexOf('/')) : quorum;
        List<String> refused = new ArrayList<>();
        for (String server : servers.split(",")) {
            String hostPort = server.trim();
            int colon = hostPort.lastIndexOf(':');
            String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
            int port;
            try {
                port = colon < 0 ? 2181 : Integer.parseInt(hostPort.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "the ZooKeeper quorum " + quorum + " names no port in '" + server + "'");
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), (int)
                        Duration.ofSeconds(2).toMillis());
                return;
            } catch (IOException e) {
                refused.add(hostPort + " (" + e.getMessage() + ")");
            }
        }
        throw new IllegalStateException("no ZooKeeper server of the quorum " + quorum
                + " (high availability) accepts connections: " + String.join(", ", refused));
    }

    /** Whether a leader address from ZooKeeper ({@code http://127.0.0.1:PORT}) is {@code address}. */
    private static boolean sameEndpoint(String leaderAddress, URI address) {
        try {
            URI named = URI.create(leaderAddress);
            return named.getPort() == address.getPort() && Objects.equals(named.getHost(), address.getHost());
        } catch (IllegalArgumentException notAnAddress) {
            return false;
        }
    }

    /** The HTTP status of a GET, -1 without an answer (not up, or gone). */
    private static int status(HttpClient http, URI uri) throws InterruptedException {
        try {
            return http.send(
                            HttpRequest.newBuilder(uri)
                                    .timeout(Duration.ofSeconds(5))
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException noAnswer) {
            return -1;
        }
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

    /**
     * TaskManagers first (so that they do not try to reach a JobManager that is gone), then the
     * JobManagers together (one after the other, each standby would take over in turn), then the
     * folder unless it is kept.
     */
    private static void stopAll(
            List<ChildJvm> jobManagers,
            List<ChildJvm> taskManagers,
            ZooKeeperLeader leader,
            Path dir,
            boolean keepFolder) {
        if (leader != null) {
            leader.close();
        }
        taskManagers.parallelStream().forEach(keepFolder ? ChildJvm::closeKeepingFolder : ChildJvm::close);
        jobManagers.parallelStream().forEach(keepFolder ? ChildJvm::closeKeepingFolder : ChildJvm::close);
        if (!keepFolder) {
            ChildJvm.deleteQuietly(dir);
        }
    }
}
