package org.itsrt.stack.flink;

import java.net.URI;
import java.nio.file.Path;
import org.apache.flink.runtime.minicluster.MiniCluster;

/**
 * A Flink MiniCluster in this process ({@link MiniClusterSetup}), reachable like a real cluster
 * through its REST endpoint (and web UI) on a free loopback port. The job is submitted to it over
 * REST with {@code createRemoteEnvironment}, the way {@code flink run} submits to a session
 * cluster. The caller's class path must hold Flink (this module has it as an optional dependency).
 */
public final class EmbeddedFlink implements AutoCloseable {

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
    public static EmbeddedFlink start(int slots, Path tempDir) throws Exception {
        MiniCluster cluster = MiniClusterSetup.cluster(MiniClusterSetup.configuration(tempDir), slots);
        cluster.start();
        try {
            return new EmbeddedFlink(cluster, cluster.getRestAddress().get());
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
    }

    public URI restAddress() {
        return restAddress;
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
