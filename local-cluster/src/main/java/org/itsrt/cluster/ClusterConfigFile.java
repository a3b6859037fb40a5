package org.itsrt.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.itsrt.stack.flink.ClusterConfig;
import org.itsrt.stack.flink.StandaloneFlinkOptions;

/**
 * A cluster's Flink {@code config.yaml} as a file a person can read: what {@code ./its cluster up}
 * writes for the processes of this host, or the same settings for containers, which
 * {@code docker/flink/config.yaml} holds ({@code ./its cluster config --containers}).
 */
public final class ClusterConfigFile {

    /** ZooKeeper on the compose stack's network. */
    public static final String COMPOSE_ZOOKEEPER = "zookeeper:" + ClusterSpec.ZOOKEEPER_PORT;

    private ClusterConfigFile() {}

    /** The settings for the containers of docker/compose.yaml. */
    public static Map<String, String> containerSettings(ClusterSpec spec) {
        return ClusterConfig.settings(withZooKeeper(spec, COMPOSE_ZOOKEEPER), ClusterConfig.Containers.composeStack());
    }

    /** The settings {@code ./its cluster up} writes into {@code dir} with the standard ports. */
    public static Map<String, String> hostSettings(ClusterSpec spec, Path dir) {
        return ClusterConfig.settings(
                withZooKeeper(spec, "127.0.0.1:" + ClusterSpec.ZOOKEEPER_PORT),
                new ClusterConfig.Loopback(dir, ClusterSpec.FLINK_RPC_PORT, ClusterSpec.FLINK_REST_PORT));
    }

    /** {@link #containerSettings} as the file, with a header saying where it comes from and how to render it again. */
    public static String forContainers(ClusterSpec spec) {
        return ClusterConfig.yaml(
                containerSettings(spec),
                List.of(
                        "Flink's config.yaml for the containers of docker/compose.yaml: the settings of",
                        "`./its cluster up" + shapeOptions(spec) + "`, with container addresses, the standard",
                        "ports and the shared volume's folders. Rendered, not edited: change the settings in",
                        "org.itsrt.stack.flink.ClusterConfig and render again with",
                        "  ./its cluster config --containers" + shapeOptions(spec) + " > docker/flink/config.yaml",
                        "The docker module's tests fail when this file and the rendering differ.",
                        "",
                        "Flink's image entry point adds jobmanager.rpc.address (each JobManager's own name),",
                        "blob.server.port and query.server.port, and the compose file's FLINK_PROPERTIES."));
    }

    /** {@link #hostSettings} as the file. */
    public static String forHost(ClusterSpec spec, Path dir) {
        return ClusterConfig.yaml(
                hostSettings(spec, dir),
                List.of("Flink's config.yaml of `./its cluster up" + shapeOptions(spec) + " --dir " + dir + "`."));
    }

    /** The options of {@code ./its cluster up} that give this shape (those that differ from the defaults). */
    static String shapeOptions(ClusterSpec spec) {
        ClusterSpec defaults = ClusterSpec.defaults();
        List<String> options = new ArrayList<>();
        if (spec.jobManagers() != defaults.jobManagers()) {
            options.add("--jobmanagers " + spec.jobManagers());
        }
        if (spec.taskManagers() != defaults.taskManagers()) {
            options.add("--taskmanagers " + spec.taskManagers());
        }
        if (spec.slots() != defaults.slots()) {
            options.add("--slots " + spec.slots());
        }
        if (spec.ha() && spec.jobManagers() == 1) {
            options.add("--ha");
        }
        if (!spec.taskManagerMemory().equals(defaults.taskManagerMemory())) {
            options.add("--taskmanager-memory " + spec.taskManagerMemory());
        }
        if (!spec.restBindAddress().equals(defaults.restBindAddress())) {
            options.add("--rest-bind-address " + spec.restBindAddress());
        }
        return options.isEmpty() ? "" : " " + String.join(" ", options);
    }

    private static StandaloneFlinkOptions withZooKeeper(ClusterSpec spec, String quorum) {
        return spec.flinkOptions().zooKeeperQuorum(spec.ha() ? quorum : null).build();
    }
}
