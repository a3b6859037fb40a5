package org.itsrt.flink;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;

/**
 * Entry point of the child cluster JVM: a MiniCluster (JobManager and one TaskManager) with its
 * REST endpoint on a free loopback port, written to a file for the parent once it answers. Runs
 * until its parent goes away: the parent holds this process's stdin open, and its end (even after
 * a SIGKILL of the parent, when no hook of the parent's ran) stops the cluster.
 *
 * <p>Arguments: {@code WORK_DIR SLOTS [KEY=VALUE ...]}, the last being Flink configuration options.
 */
public final class ClusterMain {

    /** Written into the work folder when the cluster is up: its REST address, one line. */
    static final String ADDRESS_FILE = "rest-address";

    /**
     * Classes a job jar must never bring its own copy of: TensorFlow loads a native library, which
     * one JVM can load into one class loader only (docs/job.md). The same setting as a cluster's
     * {@code classloader.parent-first-patterns.additional}.
     */
    static final String PARENT_FIRST = "org.tensorflow;org.bytedeco;com.google.protobuf";

    private ClusterMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: ClusterMain WORK_DIR SLOTS [KEY=VALUE ...]");
            System.exit(2);
        }
        Path work = Path.of(args[0]);
        int slots = Integer.parseInt(args[1]);
        Map<String, String> options = new HashMap<>();
        options.put("classloader.parent-first-patterns.additional", PARENT_FIRST);
        for (int i = 2; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                System.err.println("not a KEY=VALUE Flink option: " + args[i]);
                System.exit(2);
            }
            options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        Configuration conf = Configuration.fromMap(options);
        // Loopback only, any free port: nothing is opened to the network, and a Flink already
        // listening on 8081 is no obstacle.
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_PORT, "0");
        conf.set(CoreOptions.TMP_DIRS, work.resolve("tmp").toString());
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);

        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(slots)
                .build());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                cluster.close();
            } catch (Exception e) {
                System.err.println("stopping the cluster: " + e);
            }
        }, "cluster-shutdown"));
        cluster.start();

        Path tmp = work.resolve(ADDRESS_FILE + ".tmp");
        Files.writeString(tmp, cluster.getRestAddress().get() + "\n", StandardCharsets.UTF_8);
        // Renamed into place, so the parent never reads half a line.
        Files.move(tmp, work.resolve(ADDRESS_FILE), StandardCopyOption.ATOMIC_MOVE);

        try (InputStream in = System.in) {
            while (in.read() >= 0) {
                // nothing is sent; only the end of the stream matters
            }
        } catch (IOException ignored) {
            // a broken pipe means the same as end of stream
        }
        System.exit(0);
    }
}
