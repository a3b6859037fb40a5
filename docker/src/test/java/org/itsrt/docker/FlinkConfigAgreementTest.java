package org.itsrt.docker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import org.itsrt.cluster.ClusterConfigFile;
import org.itsrt.stack.flink.ClusterConfig;
import org.junit.jupiter.api.Test;

/** The compose stack's Flink settings are those of {@code ./its cluster}: one source, two places. */
class FlinkConfigAgreementTest {

    @Test
    void theImagesConfigYamlIsTheRenderingOfTheClusterSettingsForContainers() throws Exception {
        Path file = ComposeStack.docker().resolve("flink/config.yaml");
        String committed = Files.readString(file, StandardCharsets.UTF_8);
        String rendered = ClusterConfigFile.forContainers(ComposeStack.SHAPE);

        assertThat(committed)
                .as(file + " differs from the rendering of ./its cluster's settings for containers; keys that "
                        + "differ: " + differingKeys(committed, rendered) + ". Render it again with `./its cluster "
                        + "config --containers --jobmanagers 2 > docker/flink/config.yaml`")
                .isEqualTo(rendered);
    }

    @Test
    void theHostAndContainerRenderingsDifferOnlyInWhereTheClusterRuns() {
        Map<String, String> host = ClusterConfigFile.hostSettings(ComposeStack.SHAPE, Path.of("/tmp/its-cluster"));
        Map<String, String> containers = ClusterConfigFile.containerSettings(ComposeStack.SHAPE);

        assertThat(withoutPlacement(containers))
                .as("every setting but addresses, ports and folders")
                .isEqualTo(withoutPlacement(host));
        assertThat(withoutPlacement(host))
                .containsEntry("high-availability.type", "zookeeper")
                .containsEntry(
                        "classloader.parent-first-patterns.additional",
                        "org.tensorflow;org.bytedeco;com.google.protobuf;ai.onnxruntime")
                .containsKey(ClusterConfig.JAVA_OPTS_KEY);
        assertThat(containers.get(ClusterConfig.JAVA_OPTS_KEY)).contains("--add-modules=jdk.incubator.vector");
    }

    private static Map<String, String> withoutPlacement(Map<String, String> settings) {
        Map<String, String> shared = new LinkedHashMap<>(settings);
        shared.keySet().removeAll(ClusterConfig.PLACEMENT_KEYS);
        return shared;
    }

    /** The keys whose lines differ between two flat config.yaml texts. */
    private static TreeSet<String> differingKeys(String a, String b) {
        Map<String, String> left = lines(a);
        Map<String, String> right = lines(b);
        TreeSet<String> keys = new TreeSet<>(left.keySet());
        keys.addAll(right.keySet());
        keys.removeIf(key -> left.containsKey(key) && left.get(key).equals(right.get(key)));
        return keys;
    }

    private static Map<String, String> lines(String yaml) {
        Map<String, String> byKey = new LinkedHashMap<>();
        yaml.lines()
                .filter(line -> !line.startsWith("#") && line.contains(": "))
                .forEach(line -> byKey.put(line.substring(0, line.indexOf(": ")), line));
        return byKey;
    }
}
