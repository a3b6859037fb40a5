package org.itsrt.stack.flink;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.itsrt.stack.ParentWatch;

/**
 * Entry point of the child cluster JVM: a MiniCluster configured by {@link MiniClusterSetup}, its
 * REST address written to a file for the parent once it answers. Runs until its parent goes away
 * ({@link ParentWatch}).
 *
 * <p>Arguments: {@code WORK_DIR SLOTS [KEY=VALUE ...]}, the last being Flink configuration options.
 */
public final class ClusterMain {

    /** Written into the work folder when the cluster is up: its REST address, one line. */
    static final String ADDRESS_FILE = "rest-address";

    private ClusterMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: ClusterMain WORK_DIR SLOTS [KEY=VALUE ...]");
            System.exit(2);
        }
        Path work = Path.of(args[0]);
        int slots = Integer.parseInt(args[1]);
        Map<String, String> options = new HashMap<>();
        for (int i = 2; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                System.err.println("not a KEY=VALUE Flink option: " + args[i]);
                System.exit(2);
            }
            options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        MiniCluster cluster =
                MiniClusterSetup.cluster(MiniClusterSetup.configuration(work.resolve("tmp"), options), slots);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                cluster.close();
                            } catch (Exception e) {
                                System.err.println("stopping the cluster: " + e);
                            }
                        },
                        "cluster-shutdown"));
        cluster.start();

        Path tmp = work.resolve(ADDRESS_FILE + ".tmp");
        Files.writeString(tmp, cluster.getRestAddress().get() + "\n", StandardCharsets.UTF_8);
        // Renamed into place, so the parent never reads half a line.
        Files.move(tmp, work.resolve(ADDRESS_FILE), StandardCopyOption.ATOMIC_MOVE);

        ParentWatch.exitWhenParentEnds();
    }
}
