package org.itsrt.stack.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.File;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.HighAvailabilityOptions;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.itsrt.stack.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StandaloneFlinkTest {

    @Test
    void startsAJobManagerAndATaskManagerAsSeparateProcessesAndLeavesNothingBehind(@TempDir Path parent)
            throws Exception {
        Path dir;
        List<ProcessHandle> processes = new ArrayList<>();
        try (StandaloneFlink flink = StandaloneFlink.start(StandaloneFlinkOptions.builder()
                .slotsPerTaskManager(2)
                .parentDir(parent)
                .flinkOptions(Map.of("pipeline.name", "standalone-flink-test"))
                .build())) {
            dir = flink.dir();
            assertThat(dir.getParent()).isEqualTo(parent.toAbsolutePath());
            assertThat(flink.restAddress().getHost()).isEqualTo("127.0.0.1");
            assertThat(flink.taskManagerPids()).hasSize(1);
            long jobManager = flink.jobManagerPid();
            long taskManager = flink.taskManagerPids().get(0);
            assertThat(List.of(jobManager, taskManager))
                    .doesNotContain(ProcessHandle.current().pid())
                    .doesNotHaveDuplicates();
            processes.add(ProcessHandle.of(jobManager).orElseThrow());
            processes.add(ProcessHandle.of(taskManager).orElseThrow());
            // The memory settings Flink derives for a TaskManager are on its command line (started bare,
            // it exits asking for taskmanager.cpu.cores); its log shows them among its arguments.
            Path taskManagerLog;
            try (var files = Files.walk(dir)) {
                taskManagerLog = files.filter(p -> p.getFileName().toString().equals("taskmanager-1.log"))
                        .findFirst()
                        .orElseThrow();
            }
            assertThat(Files.readString(taskManagerLog))
                    .contains("TaskManagerRunner", "taskmanager.cpu.cores", "--add-opens=");

            HttpClient http = HttpClient.newHttpClient();
            String overview = get(http, flink.restAddress().resolve("/overview"));
            assertThat(overview).contains("\"taskmanagers\":1", "\"slots-total\":2");
            // The REST endpoint runs code for whoever reaches it: this host only.
            for (InetAddress address : networkAddresses()) {
                assertThat(catchThrowable(() -> {
                            try (Socket socket = new Socket()) {
                                socket.connect(
                                        new InetSocketAddress(
                                                address, flink.restAddress().getPort()),
                                        2_000);
                            }
                        }))
                        .as("the REST port reached on %s", address)
                        .isInstanceOf(java.net.ConnectException.class);
            }
            String config = get(http, flink.restAddress().resolve("/jobmanager/config"));
            assertThat(config)
                    .contains(
                            "classloader.parent-first-patterns.additional",
                            "org.tensorflow",
                            "standalone-flink-test",
                            "127.0.0.1");
            assertThat(dir.resolve("conf/config.yaml")).isRegularFile();
            try (var files = Files.list(dir)) {
                assertThat(files.map(p -> p.getFileName().toString()))
                        .anyMatch(name -> name.startsWith("jobmanager-"))
                        .anyMatch(name -> name.startsWith("taskmanager-1-"));
            }
        }
        assertThat(processes).noneMatch(ProcessHandle::isAlive);
        assertThat(dir).doesNotExist();
    }

    /** This host's addresses other than loopback (none in a network namespace of its own). */
    private static List<InetAddress> networkAddresses() throws Exception {
        List<InetAddress> addresses = new ArrayList<>();
        for (NetworkInterface nic : java.util.Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (nic.isUp() && !nic.isLoopback()) {
                java.util.Collections.list(nic.getInetAddresses()).stream()
                        .filter(a -> a instanceof java.net.Inet4Address)
                        .forEach(addresses::add);
            }
        }
        return addresses;
    }

    /** What the processes read back from config.yaml is what was meant, odd characters included. */
    @Test
    void theConfigFileReadsBackAsWrittenThroughFlinksOwnParser(@TempDir Path dir) throws Exception {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        StandaloneFlink.writeConfig(
                conf,
                dir,
                StandaloneFlinkOptions.builder()
                        .slotsPerTaskManager(3)
                        .flinkOptions(Map.of("pipeline.name", "a: b # c 'd'", "rest.port", "50001"))
                        .build(),
                50000,
                50002);

        Configuration read = GlobalConfiguration.loadConfiguration(conf.toString());
        assertThat(read.get(JobManagerOptions.PORT)).isEqualTo(50000);
        assertThat(read.get(RestOptions.PORT)).as("an extra option wins").isEqualTo(50001);
        assertThat(read.get(RestOptions.BIND_ADDRESS)).isEqualTo("127.0.0.1");
        assertThat(read.get(TaskManagerOptions.NUM_TASK_SLOTS)).isEqualTo(3);
        assertThat(read.get(TaskManagerOptions.REGISTRATION_TIMEOUT))
                .as("a 120 s start keeps Flink's own registration timeout")
                .isEqualTo(Duration.ofMinutes(5));
        assertThat(read.get(PipelineOptions.NAME)).isEqualTo("a: b # c 'd'");
        assertThat(read.get(CoreOptions.FLINK_JVM_OPTIONS)).isEqualTo(String.join(" ", ClusterConfig.JVM_OPTIONS));
        assertThat(read.get(CoreOptions.ALWAYS_PARENT_FIRST_LOADER_PATTERNS_ADDITIONAL))
                .containsExactly("org.tensorflow", "org.bytedeco", "com.google.protobuf", "ai.onnxruntime");
    }

    /** A cluster given longer to start than Flink gives a TaskManager to register gives its TaskManagers as long. */
    @Test
    void aLongStartTimeoutIsTheTaskManagersRegistrationTimeout(@TempDir Path dir) throws Exception {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        StandaloneFlink.writeConfig(
                conf,
                dir,
                StandaloneFlinkOptions.builder()
                        .startTimeout(Duration.ofMinutes(15))
                        .build(),
                50000,
                50002);

        Configuration read = GlobalConfiguration.loadConfiguration(conf.toString());
        assertThat(read.get(TaskManagerOptions.REGISTRATION_TIMEOUT)).isEqualTo(Duration.ofMinutes(15));
    }

    /** With high availability: ZooKeeper, the shared HA folder, short sessions; and for every cluster how jobs recover. */
    @Test
    void theHighAvailabilityAndRecoverySettingsReadBackThroughFlinksOwnParser(@TempDir Path dir) throws Exception {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        StandaloneFlink.writeConfig(
                conf,
                dir,
                StandaloneFlinkOptions.builder()
                        .jobManagers(2)
                        .zooKeeperQuorum("127.0.0.1:2181")
                        .build(),
                50000,
                50002);

        Configuration read = GlobalConfiguration.loadConfiguration(conf.toString());
        assertThat(read.get(HighAvailabilityOptions.HA_MODE)).isEqualToIgnoringCase("zookeeper");
        assertThat(read.get(HighAvailabilityOptions.HA_ZOOKEEPER_QUORUM)).isEqualTo("127.0.0.1:2181");
        assertThat(read.get(HighAvailabilityOptions.HA_STORAGE_PATH))
                .isEqualTo(dir.resolve("ha").toUri().toString());
        assertThat(read.get(HighAvailabilityOptions.HA_CLUSTER_ID))
                .isEqualTo(dir.getFileName().toString());
        assertThat(read.get(HighAvailabilityOptions.ZOOKEEPER_SESSION_TIMEOUT)).isEqualTo(Duration.ofSeconds(5));
        assertThat(read.get(HighAvailabilityOptions.ZOOKEEPER_CONNECTION_TIMEOUT))
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(read.get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("fixed-delay");
        assertThat(read.get(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS))
                .isEqualTo(StandaloneFlink.RESTART_ATTEMPTS);
        assertThat(read.get(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY))
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(read.get(CheckpointingOptions.CHECKPOINT_STORAGE)).isEqualTo("filesystem");
        assertThat(read.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY))
                .isEqualTo(dir.resolve("checkpoints").toUri().toString());

        StandaloneFlink.writeConfig(conf, dir, StandaloneFlinkOptions.builder().build(), 50000, 50002);
        Configuration withoutHa = GlobalConfiguration.loadConfiguration(conf.toString());
        assertThat(withoutHa.get(HighAvailabilityOptions.HA_MODE)).isEqualToIgnoringCase("none");
        assertThat(withoutHa.get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("fixed-delay");
    }

    @Test
    void aTakenFixedPortFailsTheStartBeforeAnythingStartsNamingThePortAndItsPurpose(@TempDir Path parent)
            throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            List<ProcessHandle> before = children();
            Throwable asFlinkOption = catchThrowable(() -> StandaloneFlink.start(StandaloneFlinkOptions.builder()
                    .parentDir(parent)
                    .flinkOptions(Map.of("rest.port", Integer.toString(port)))
                    .build()));
            assertThat(asFlinkOption)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("port " + port + " on 127.0.0.1 (Flink REST of JobManager 1) is taken");
            // The second JobManager's RPC port: nothing is started, ZooKeeper is not even asked.
            Throwable asList = catchThrowable(() -> StandaloneFlink.start(StandaloneFlinkOptions.builder()
                    .parentDir(parent)
                    .jobManagers(2)
                    .zooKeeperQuorum("127.0.0.1:1")
                    .rpcPorts(List.of(ChildJvm.freeLoopbackPort(), port))
                    .build()));
            assertThat(asList)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("port " + port + " on 127.0.0.1 (Flink RPC of JobManager 2) is taken");
            assertThat(children()).allMatch(before::contains);
            try (var left = Files.list(parent)) {
                assertThat(left).as("cluster folders left in " + parent).isEmpty();
            }
        }
    }

    @Test
    void optionsThatCannotWorkTogetherAreRefusedBeforeAnythingStarts(@TempDir Path parent) throws Exception {
        StandaloneFlinkOptions options =
                StandaloneFlinkOptions.builder().parentDir(parent).build();
        assertThatThrownBy(() ->
                        StandaloneFlink.start(options.toBuilder().jobManagers(2).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 JobManagers need ZooKeeper high availability (zooKeeperQuorum)");
        StandaloneFlinkOptions ha = options.toBuilder()
                .jobManagers(2)
                .zooKeeperQuorum("127.0.0.1:1")
                .build();
        assertThatThrownBy(() -> StandaloneFlink.start(
                        ha.toBuilder().restPorts(List.of(50001)).build()))
                .hasMessageContaining("restPorts gives 1 port(s) for 2 JobManager(s)");
        assertThatThrownBy(() -> StandaloneFlink.start(ha.toBuilder()
                        .restPorts(List.of(50001, 50002))
                        .rpcPorts(List.of(50003, 50001))
                        .build()))
                .hasMessageContaining("port 50001 is given twice");
        assertThatThrownBy(() -> StandaloneFlink.start(ha.toBuilder()
                        .flinkOptions(Map.of("rest.port", "50001"))
                        .build()))
                .hasMessageContaining("the Flink option rest.port cannot serve 2 JobManagers");
        try (var left = Files.list(parent)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void anUnreachableZooKeeperFailsTheStartAtOnceNamingTheQuorum(@TempDir Path parent) throws Exception {
        int nothing = ChildJvm.freeLoopbackPort();
        assertThatThrownBy(() -> StandaloneFlink.start(StandaloneFlinkOptions.builder()
                        .parentDir(parent)
                        .zooKeeperQuorum("127.0.0.1:" + nothing)
                        .build()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no ZooKeeper server of the quorum 127.0.0.1:" + nothing
                        + " (high availability) accepts connections: 127.0.0.1:" + nothing + " (Connection refused");
        try (var left = Files.list(parent)) {
            assertThat(left).isEmpty();
        }
    }

    /** Without TensorFlow's native library the job would fail only once it loads its model, in a TaskManager. */
    @Test
    void aClassPathWithoutTensorFlowsNativeLibraryIsRefusedNamingWhatIsMissingAndWhereItLooked(@TempDir Path parent)
            throws Exception {
        String withoutNative = Arrays.stream(LocalFlink.moduleClassPath().split(File.pathSeparator))
                .filter(entry -> !Path.of(entry).getFileName().toString().matches("tensorflow-core-native-.*-linux.*"))
                .collect(Collectors.joining(File.pathSeparator));
        List<ProcessHandle> before = children();
        assertThatThrownBy(() -> StandaloneFlink.start(StandaloneFlinkOptions.builder()
                        .parentDir(parent)
                        .classPath(withoutNative)
                        .build()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("holds no TensorFlow Java native library for linux-x86_64")
                .hasMessageContaining("expected org/tensorflow/internal/c_api/linux-x86_64/libjnitensorflow.so")
                .hasMessageContaining("org.tensorflow:tensorflow-core-native with classifier linux-x86_64")
                .hasMessageContaining("Class path searched:")
                .hasMessageContaining("tensorflow-core-api-");
        assertThat(children()).allMatch(before::contains);
        try (var left = Files.list(parent)) {
            assertThat(left).isEmpty();
        }
        // The module's own class path passes.
        TensorFlowNativeLibrary.requireOn(LocalFlink.moduleClassPath());
    }

    @Test
    void taskManagersThatDoNotRegisterAsExpectedFailTheStartNamingWhatRegisteredAndLeaveNoProcess(@TempDir Path parent)
            throws Exception {
        List<ProcessHandle> before = children();
        // The TaskManager registers with 3 slots where 1 is expected: the expected cluster never forms.
        Throwable failure = catchThrowable(() -> StandaloneFlink.start(StandaloneFlinkOptions.builder()
                .parentDir(parent)
                .startTimeout(Duration.ofSeconds(15))
                .flinkOptions(Map.of("taskmanager.numberOfTaskSlots", "3"))
                .build()));
        assertThat(failure)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("expected 1 TaskManager(s) with 1 slot(s) each registered")
                .hasMessageContaining("\"slotsNumber\":3");
        assertThat(children()).allMatch(before::contains);
        try (var left = Files.list(parent)) {
            assertThat(left).as("cluster folders left in " + parent).isEmpty();
        }
    }

    private static List<ProcessHandle> children() {
        return ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList();
    }

    private static String get(HttpClient http, URI uri) throws Exception {
        HttpResponse<String> response =
                http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET " + uri).isEqualTo(200);
        return response.body();
    }
}
