package org.itsrt.pipeline.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.itsrt.cluster.ClusterDescriptor;
import org.itsrt.pipeline.StackSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plan's {@code stack.cluster}: a run uses the cluster's brokers and JobManagers, a budget its first TaskManager. */
class StackPlanOnClusterTest {

    @Test
    void runsUseTheClustersBrokersJobManagerAndFirstTaskManager(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("job.jar"), "a job jar");
        Path cluster = Files.createDirectories(dir.resolve("cluster"));
        new ClusterDescriptor(
                        ClusterDescriptor.FORMAT,
                        cluster.toString(),
                        0,
                        0,
                        "1 JobManager, 2 TaskManagers x 1 slot, 3 Kafka brokers",
                        null,
                        new ClusterDescriptor.KafkaPart("127.0.0.1:1,127.0.0.1:2,127.0.0.1:3", 3, 2, List.of()),
                        new ClusterDescriptor.FlinkPart(
                                cluster.resolve("conf/config.yaml").toString(),
                                // nothing answers there: the first JobManager is taken
                                List.of(new ClusterDescriptor.JobManagerPart(
                                        "http://127.0.0.1:1/", part("jobmanager-1", 4000))),
                                List.of(part("taskmanager-1", 4141), part("taskmanager-2", 4242)),
                                Map.of()))
                .write();

        StackSpec stack =
                StackPlan.builder().cluster(cluster).jobJar(jar).build().toSpec(false);

        assertThat(stack.broker()).isEqualTo(new StackSpec.Broker.Existing("127.0.0.1:1,127.0.0.1:2,127.0.0.1:3"));
        StackSpec.Cluster.Existing flink = (StackSpec.Cluster.Existing) stack.cluster();
        assertThat(flink.rest()).hasToString("http://127.0.0.1:1/");
        assertThat(flink.taskManagerPid()).isEqualTo(OptionalLong.of(4141));
    }

    @Test
    void aFolderWithoutAClusterIsNamed(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("job.jar"), "a job jar");
        assertThatThrownBy(() -> StackPlan.builder()
                        .cluster(dir.resolve("none"))
                        .jobJar(jar)
                        .build()
                        .toSpec(false))
                .hasMessageContaining("is a cluster up in " + dir.resolve("none"));
    }

    private static ClusterDescriptor.Part part(String name, long pid) {
        return new ClusterDescriptor.Part(name, pid, "/nowhere/" + name, "/nowhere/" + name + ".log");
    }
}
