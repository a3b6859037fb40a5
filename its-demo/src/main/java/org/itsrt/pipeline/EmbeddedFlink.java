package org.itsrt.pipeline;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A Flink MiniCluster in this process, reachable like a real cluster through its REST endpoint
 * (and web UI) on a free loopback port. The job is submitted to it over REST with
 * {@code createRemoteEnvironment}, the way {@code flink run} submits to a session cluster.
 */
final class EmbeddedFlink implements AutoCloseable {

    private final MiniCluster cluster;
    private final URI restAddress;

    private EmbeddedFlink(MiniCluster cluster, URI restAddress) {
        this.cluster = cluster;
        this.restAddress = restAddress;
    }

    /**
     * @param slots   task slots of the one TaskManager: the job's parallelism
     * @param tempDir Flink's working files (blobs, web UI files; ~20 MB a start), deleted by the caller
     */
    static EmbeddedFlink start(int slots, Path tempDir) throws Exception {
        Files.createDirectories(tempDir);
        Configuration conf = new Configuration();
        // Loopback only, any free port: the demo opens nothing to the network and never collides
        // with a Flink already running on 8081.
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_PORT, "0");
        conf.set(CoreOptions.TMP_DIRS, tempDir.toString());
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(slots)
                .build());
        cluster.start();
        try {
            return new EmbeddedFlink(cluster, cluster.getRestAddress().get());
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
    }

    URI restAddress() {
        return restAddress;
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
