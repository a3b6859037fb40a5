package org.itsrt.job.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.flink.api.common.cache.DistributedCache;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/** The bundle travels with the job, and a subtask opens the copy its TaskManager received. */
class ModelSettingsTest {

    private static final Path REPO = Path.of(System.getProperty("itsrt.repo.root", ".."));
    private static final String MODEL = REPO.resolve("models/lstm-flow").toString();

    private static ModelSettings model() {
        return JobSettings.fromArgs(new String[] {"--bootstrap-servers", "127.0.0.1:9092", "--model", MODEL})
                .model();
    }

    @Test
    void theJobShipsTheBundleFromWhereItWasChecked() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();

        model().shipWith(env);

        assertThat(env.getCachedFiles()).singleElement().satisfies(entry -> {
            assertThat(entry.f0).isEqualTo(ModelSettings.SHIPPED_BUNDLE);
            assertThat(Path.of(entry.f1.filePath)).isEqualTo(Path.of(MODEL).toAbsolutePath());
        });
    }

    @Test
    void aSubtaskOpensItsTaskManagersCopyNotTheClientsPath() {
        Path copy = Path.of("/tmp/flink-dist-cache-0/1234/lstm-flow");
        Map<String, Future<org.apache.flink.core.fs.Path>> received = Map.of(
                ModelSettings.SHIPPED_BUNDLE,
                CompletableFuture.completedFuture(new org.apache.flink.core.fs.Path(copy.toUri())));

        assertThat(model().bundleIn(new DistributedCache(received))).isEqualTo(copy);
    }

    @Test
    void anOperatorOutsideAJobThatShippedTheBundleOpensThePath() {
        assertThat(model().bundleIn(new DistributedCache(Map.of()))).isEqualTo(Path.of(MODEL));
    }

    @Test
    void theIdentityJobShipsNoBundle() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        JobSettings settings = JobSettings.fromArgs(
                new String[] {"--bootstrap-servers", "127.0.0.1:9092", "--model", MODEL, "--identity"});

        org.itsrt.job.ItsJob.build(env, settings, org.itsrt.job.kafka.KafkaJobIO.of(settings));

        assertThat(env.getCachedFiles()).isEqualTo(List.of());
    }
}
