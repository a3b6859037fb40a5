package org.itsrt.stack.flink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/**
 * The one MiniCluster configuration of this project, for the child cluster ({@link ClusterMain}),
 * the cluster in the caller's JVM ({@link EmbeddedFlink}) and the job's tests: REST on loopback at
 * a free port, temporary files under a given folder, TensorFlow from the parent class loader, one
 * TaskManager with a given number of slots.
 */
public final class MiniClusterSetup {

    /**
     * Classes a job jar must never bring its own copy of: TensorFlow and ONNX Runtime load native
     * libraries, which one JVM can load into one class loader only (docs/job.md). The same
     * setting as a cluster's {@code classloader.parent-first-patterns.additional}.
     */
    public static final String PARENT_FIRST_PATTERNS = "org.tensorflow;org.bytedeco;com.google.protobuf;ai.onnxruntime";

    private MiniClusterSetup() {}

    /** {@link #configuration(Path, Map)} without further options. */
    public static Configuration configuration(Path tmpDir) {
        return configuration(tmpDir, Map.of());
    }

    /**
     * The configuration, created with {@code tmpDir} (made absolute: Flink's REST server stores
     * uploaded job jars there and fails on a relative folder).
     *
     * @param options further Flink options, as in {@code config.yaml}; they may replace the
     *                parent-first patterns, not the network or the folders
     */
    public static Configuration configuration(Path tmpDir, Map<String, String> options) {
        Path tmp = tmpDir.toAbsolutePath();
        try {
            Files.createDirectories(tmp);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create Flink's temporary folder " + tmp, e);
        }
        Map<String, String> all = new HashMap<>();
        all.put(CoreOptions.ALWAYS_PARENT_FIRST_LOADER_PATTERNS_ADDITIONAL.key(), PARENT_FIRST_PATTERNS);
        all.putAll(options);
        Configuration conf = Configuration.fromMap(all);
        // Loopback only, any free port: nothing is opened to the network, and a Flink already
        // listening on 8081 is no obstacle.
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_PORT, "0");
        conf.set(CoreOptions.TMP_DIRS, tmp.toString());
        conf.set(WebOptions.TMP_DIR, tmp.toString());
        return conf;
    }

    /** A MiniCluster (not started) of one JobManager and one TaskManager with {@code slots} slots. */
    public static MiniCluster cluster(Configuration conf, int slots) {
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
        return new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(slots)
                .build());
    }
}
