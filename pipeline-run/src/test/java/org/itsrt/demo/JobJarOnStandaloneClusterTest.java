package org.itsrt.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.itsrt.demo.JobJarOnLocalClusterTest.JOB_JAR;
import static org.itsrt.demo.JobJarOnLocalClusterTest.RECORDS;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.itsrt.records.ReadingRecord;
import org.itsrt.stack.flink.StandaloneFlink;
import org.itsrt.stack.kafka.LocalKafka;
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
        try (LocalKafka kafka = LocalKafka.start(LocalKafka.Options.defaults().withParentDir(dir));
                StandaloneFlink flink = StandaloneFlink.start(StandaloneFlink.Options.defaults()
                        .withSlotsPerTaskManager(2)
                        .withTaskManagerMemory("1536m")
                        .withParentDir(dir))) {
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
}
