package org.itsrt.stack.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalFlinkTest {

    /** What a Flink distribution's lib/ holds for the job, and nothing of the broker, ZooKeeper or the CLIs. */
    @Test
    void theChildsClassPathIsFlinkTensorFlowAndLog4jWithoutTheBroker() {
        List<String> entries = Arrays.asList(LocalFlink.moduleClassPath().split(File.pathSeparator));
        List<String> jars = entries.stream()
                .skip(1)
                .map(e -> Path.of(e).getFileName().toString())
                .toList();

        assertThat(Path.of(entries.get(0)).resolve(ClusterMain.class.getName().replace('.', '/') + ".class"))
                .as("this module's classes first")
                .exists();
        assertThat(jars)
                .anyMatch(j -> j.startsWith("flink-runtime-2"))
                .anyMatch(j -> j.startsWith("flink-runtime-web-"))
                .anyMatch(j -> j.startsWith("flink-clients-"))
                .anyMatch(j -> j.startsWith("flink-connector-base-"))
                .anyMatch(j -> j.startsWith("tensorflow-core-api-"))
                .anyMatch(j -> j.startsWith("tensorflow-core-native-") && j.contains("linux"))
                .anyMatch(j -> j.startsWith("log4j-slf4j2-impl-"));
        assertThat(jars)
                .noneMatch(j -> j.startsWith("kafka"))
                .noneMatch(j -> j.startsWith("scala"))
                .noneMatch(j -> j.startsWith("jackson-"))
                .noneMatch(j -> j.startsWith("picocli-"))
                .noneMatch(j -> j.startsWith("slf4j-simple-"))
                // The ZooKeeper server's jars: Flink talks to ZooKeeper through its own shaded client.
                .noneMatch(j -> j.startsWith("zookeeper-"))
                .noneMatch(j -> j.startsWith("netty-"))
                .noneMatch(j -> j.startsWith("metrics-core-"))
                .noneMatch(j -> j.startsWith("logback-"));
    }

    @Test
    void startsAClusterThatAnswersOverRestAndLeavesNothingBehind(@TempDir Path parent) throws Exception {
        Path dir;
        ProcessHandle cluster;
        try (LocalFlink flink = LocalFlink.start(LocalFlink.Options.defaults()
                .withSlots(2)
                .withHeap("512m")
                .withParentDir(parent)
                .withFlinkOptions(Map.of("pipeline.name", "local-flink-test")))) {
            dir = flink.dir();
            cluster = ProcessHandle.of(flink.pid()).orElseThrow();
            assertThat(flink.restAddress().getHost()).isEqualTo("127.0.0.1");

            HttpClient http = HttpClient.newHttpClient();
            String overview = get(http, flink.restAddress().resolve("/overview"));
            assertThat(overview).contains("\"taskmanagers\":1", "\"slots-total\":2");
            String config = get(http, flink.restAddress().resolve("/jobmanager/config"));
            assertThat(config)
                    .contains(
                            "classloader.parent-first-patterns.additional",
                            "org.tensorflow",
                            "local-flink-test",
                            dir.resolve("tmp").toString());
            assertThat(Files.readString(dir.resolve("cluster.log")))
                    .as("the cluster logs through Log4j")
                    .contains("MiniCluster");
        }
        assertThat(cluster.isAlive()).isFalse();
        assertThat(dir).doesNotExist();
    }

    private static String get(HttpClient http, URI uri) throws Exception {
        HttpResponse<String> response =
                http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET " + uri).isEqualTo(200);
        return response.body();
    }
}
