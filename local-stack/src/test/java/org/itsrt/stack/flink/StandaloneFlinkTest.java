package org.itsrt.stack.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StandaloneFlinkTest {

    @Test
    void startsAJobManagerAndATaskManagerAsSeparateProcessesAndLeavesNothingBehind(@TempDir Path parent)
            throws Exception {
        Path dir;
        List<ProcessHandle> processes = new ArrayList<>();
        try (StandaloneFlink flink = StandaloneFlink.start(StandaloneFlink.Options.defaults()
                .withSlotsPerTaskManager(2)
                .withParentDir(parent)
                .withFlinkOptions(Map.of("pipeline.name", "standalone-flink-test")))) {
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

    @Test
    void aTakenRestPortFailsTheStartNamingThePortAndLeavesNoProcess(@TempDir Path parent) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            List<ProcessHandle> before = children();
            Throwable failure = catchThrowable(() -> StandaloneFlink.start(StandaloneFlink.Options.defaults()
                    .withParentDir(parent)
                    .withFlinkOptions(Map.of("rest.port", Integer.toString(port)))));
            assertThat(failure)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("JobManager")
                    .hasMessageContaining(Integer.toString(port));
            assertThat(children()).allMatch(before::contains);
            try (var left = Files.list(parent)) {
                assertThat(left).as("cluster folders left in " + parent).isEmpty();
            }
        }
    }

    @Test
    void taskManagersThatDoNotRegisterAsExpectedFailTheStartNamingWhatRegisteredAndLeaveNoProcess(@TempDir Path parent)
            throws Exception {
        List<ProcessHandle> before = children();
        // The TaskManager registers with 3 slots where 1 is expected: the expected cluster never forms.
        Throwable failure = catchThrowable(() -> StandaloneFlink.start(StandaloneFlink.Options.defaults()
                .withParentDir(parent)
                .withStartTimeout(java.time.Duration.ofSeconds(15))
                .withFlinkOptions(Map.of("taskmanager.numberOfTaskSlots", "3"))));
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
