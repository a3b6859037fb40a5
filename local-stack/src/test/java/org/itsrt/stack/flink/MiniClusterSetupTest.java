package org.itsrt.stack.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.WebOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MiniClusterSetupTest {

    @Test
    void loopbackOnAFreePortFilesUnderTheFolderAndNativeEnginesFromTheParent(@TempDir Path dir) {
        Path tmp = dir.resolve("flink-tmp");
        Configuration conf = MiniClusterSetup.configuration(tmp);

        assertThat(tmp).isDirectory();
        assertThat(conf.get(RestOptions.BIND_ADDRESS)).isEqualTo("127.0.0.1");
        assertThat(conf.get(RestOptions.ADDRESS)).isEqualTo("127.0.0.1");
        assertThat(conf.get(RestOptions.BIND_PORT)).isEqualTo("0");
        assertThat(conf.get(CoreOptions.TMP_DIRS)).isEqualTo(tmp.toString());
        assertThat(conf.get(WebOptions.TMP_DIR)).isEqualTo(tmp.toString());
        assertThat(conf.get(CoreOptions.ALWAYS_PARENT_FIRST_LOADER_PATTERNS_ADDITIONAL))
                .containsExactly("org.tensorflow", "org.bytedeco", "com.google.protobuf", "ai.onnxruntime");
    }

    @Test
    void optionsMayReplaceTheParentFirstPatternsButNotTheNetworkOrTheFolders(@TempDir Path dir) {
        Configuration conf = MiniClusterSetup.configuration(
                dir,
                Map.of(
                        "classloader.parent-first-patterns.additional", "org.example",
                        "rest.bind-port", "8081",
                        "io.tmp.dirs", "/somewhere/else",
                        "taskmanager.memory.network.min", "64m"));

        assertThat(conf.get(CoreOptions.ALWAYS_PARENT_FIRST_LOADER_PATTERNS_ADDITIONAL))
                .isEqualTo(List.of("org.example"));
        assertThat(conf.get(RestOptions.BIND_PORT)).isEqualTo("0");
        assertThat(conf.get(CoreOptions.TMP_DIRS)).isEqualTo(dir.toString());
        assertThat(conf.toMap()).containsEntry("taskmanager.memory.network.min", "64m");
    }
}
