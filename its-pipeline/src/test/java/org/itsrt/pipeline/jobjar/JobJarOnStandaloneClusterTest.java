package org.itsrt.pipeline.jobjar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.itsrt.pipeline.jobjar.JobJarOnLocalClusterTest.JOB_JAR;
import static org.itsrt.pipeline.jobjar.JobJarOnLocalClusterTest.RECORDS;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.itsrt.records.ReadingRecord;
import org.itsrt.stack.flink.StandaloneFlink;
import org.itsrt.stack.flink.StandaloneFlinkOptions;
import org.itsrt.stack.kafka.LocalKafka;
import org.itsrt.stack.kafka.LocalKafkaOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job jar on a standalone session cluster: a JobManager process and a TaskManager process of
 * their own, submitted to over REST as to any Flink cluster. Records flow from Kafka through the
 * job's operators in the TaskManager JVM back to Kafka, twice (TensorFlow from the cluster's class
 * path serves the second submission too), and nothing of the cluster outlives it.
 */
class JobJarOnStandaloneClusterTest {

    @Test
    void theJobJarRunsTwiceOnAStandaloneClusterAndTheClusterLeavesNothingBehind(@TempDir Path dir) throws Exception {
        assertThat(JOB_JAR).as("the job jar (built by its-job's package phase)").isRegularFile();
        List<ReadingRecord> readings = JobJarOnLocalClusterTest.readings();
        Path clusterDir;
        List<ProcessHandle> processes = new ArrayList<>();
        try (LocalKafka kafka = LocalKafka.start(LocalKafkaOptions.defaults().withParentDir(dir));
                StandaloneFlink flink = StandaloneFlink.start(StandaloneFlinkOptions.builder()
                        .slotsPerTaskManager(2)
                        .taskManagerMemory("1536m")
                        .parentDir(dir)
                        .build())) {
            clusterDir = flink.dir();
            processes.add(ProcessHandle.of(flink.jobManagerPid()).orElseThrow());
            flink.taskManagerPids()
                    .forEach(pid -> processes.add(ProcessHandle.of(pid).orElseThrow()));
            kafka.createTopics(LocalKafka.PIPELINE_TOPICS, 1);

            Map<String, Double> first =
                    JobJarOnLocalClusterTest.runOnce(kafka, flink.restAddress(), JOB_JAR, readings, 0);
            Map<String, Double> second =
                    JobJarOnLocalClusterTest.runOnce(kafka, flink.restAddress(), JOB_JAR, readings, 1000);

            assertThat(first).hasSize(RECORDS);
            assertThat(first.values())
                    .allSatisfy(flow -> assertThat(flow).isFinite().isNotNegative());
            assertThat(second).isEqualTo(first);
            assertThat(processes).allMatch(ProcessHandle::isAlive);
            String taskManagerLogs;
            try (var files = Files.walk(clusterDir)) {
                taskManagerLogs = files.filter(p -> p.getFileName().toString().equals("taskmanager-1.log"))
                        .map(p -> {
                            try {
                                return Files.readString(p);
                            } catch (java.io.IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        })
                        .findFirst()
                        .orElseThrow();
            }
            assertThat(taskManagerLogs)
                    .as("the operators ran in the TaskManager process")
                    .contains("predict flow", "to RUNNING");
        }
        assertThat(processes).noneMatch(ProcessHandle::isAlive);
        assertThat(clusterDir).doesNotExist();
    }

    /**
     * The web UI's way: the job jar uploaded, then run by the JobManager ({@code POST /jars/:id/run}),
     * which executes the job's main in the JobManager JVM. Flink needs the Java 17 module options
     * on the cluster's JVMs for that; the job only has to be accepted here (no broker is needed).
     */
    @Test
    void theJobJarIsAcceptedThroughTheJarsRunEndpoint(@TempDir Path dir) throws Exception {
        assertThat(JOB_JAR).as("the job jar (built by its-job's package phase)").isRegularFile();
        try (StandaloneFlink flink = StandaloneFlink.start(
                StandaloneFlinkOptions.builder().parentDir(dir).build())) {
            HttpClient http = HttpClient.newHttpClient();
            String boundary = "its-" + System.nanoTime();
            byte[] head = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                            + JOB_JAR.getFileName() + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                    .getBytes(StandardCharsets.UTF_8);
            byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
            HttpResponse<String> upload = http.send(
                    HttpRequest.newBuilder(flink.restAddress().resolve("/jars/upload"))
                            .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                            .POST(HttpRequest.BodyPublishers.ofByteArrays(
                                    List.of(head, Files.readAllBytes(JOB_JAR), tail)))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(upload.statusCode()).as("upload: " + upload.body()).isEqualTo(200);
            Matcher uploaded =
                    Pattern.compile("\"filename\"\\s*:\\s*\"[^\"]*/([^/\"]+)\"").matcher(upload.body());
            assertThat(uploaded.find()).as("the jar id in " + upload.body()).isTrue();

            // The main runs in the JobManager, which checks the model path: absolute, as on a cluster.
            String model = JobJarOnLocalClusterTest.ROOT
                    .resolve("models/lstm-flow")
                    .toAbsolutePath()
                    .normalize()
                    .toString();
            String arguments = "{\"programArgsList\":[\"--bootstrap-servers\",\"127.0.0.1:9\",\"--engine\",\"linear\","
                    + "\"--model\",\"" + model + "\"]}";
            HttpResponse<String> run = http.send(
                    HttpRequest.newBuilder(flink.restAddress().resolve("/jars/" + uploaded.group(1) + "/run"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(arguments))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(run.body()).as("POST /jars/:id/run").doesNotContain("InaccessibleObjectException");
            assertThat(run.statusCode()).as("POST /jars/:id/run: " + run.body()).isEqualTo(200);
            assertThat(run.body()).contains("jobid");
        }
    }
}
