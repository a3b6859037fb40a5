package org.itsrt.stack.flink;

import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.highavailability.ClientHighAvailabilityServices;
import org.apache.flink.runtime.highavailability.HighAvailabilityServicesUtils;
import org.apache.flink.runtime.leaderretrieval.LeaderRetrievalListener;
import org.apache.flink.runtime.leaderretrieval.LeaderRetrievalService;

/**
 * Which JobManager's REST endpoint a highly available cluster's leader election names, watched in
 * ZooKeeper as Flink's own clients (the {@code flink} command, {@code RestClusterClient}) find it:
 * with Flink's client-side HA services on the cluster's configuration. A standby JobManager's REST
 * endpoint answers requests too (it hands them on to the leader), so the answer of a REST endpoint
 * alone does not tell which JobManager leads.
 */
public final class ZooKeeperLeader implements AutoCloseable {

    private ClientHighAvailabilityServices services;
    private LeaderRetrievalService retrieval;
    private volatile String address;
    private volatile Throwable error;

    private ZooKeeperLeader() {}

    /** Starts watching; the first leader arrives shortly after (asynchronously). */
    static ZooKeeperLeader start(Map<String, String> config) throws IOException {
        ZooKeeperLeader watch = new ZooKeeperLeader();
        try {
            watch.services = HighAvailabilityServicesUtils.createClientHAService(
                    Configuration.fromMap(config), e -> watch.error = e);
            watch.retrieval = watch.services.getClusterRestEndpointLeaderRetriever();
            watch.retrieval.start(new LeaderRetrievalListener() {
                @Override
                public void notifyLeaderAddress(String leaderAddress, UUID leaderSessionId) {
                    watch.address = leaderAddress == null || leaderAddress.isEmpty() ? null : leaderAddress;
                }

                @Override
                public void handleError(Exception e) {
                    watch.error = e;
                }
            });
            return watch;
        } catch (Exception e) {
            watch.close();
            throw new IOException(
                    "cannot watch the Flink leader in ZooKeeper " + config.get("high-availability.zookeeper.quorum")
                            + ": " + e.getMessage(),
                    e);
        }
    }

    /**
     * The leading REST endpoint ({@code http://HOST:PORT}) that ZooKeeper names for a cluster with
     * these high-availability options, asked once: waits up to {@code timeout} for the answer.
     *
     * @return empty when ZooKeeper names none within the time (no leader elected, or ZooKeeper down)
     */
    public static java.util.Optional<String> lookup(Map<String, String> haOptions, java.time.Duration timeout)
            throws IOException, InterruptedException {
        try (ZooKeeperLeader watch = start(haOptions)) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (watch.address == null && watch.error == null && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            return java.util.Optional.ofNullable(watch.address);
        }
    }

    /** The leading REST endpoint ({@code http://HOST:PORT}) as ZooKeeper names it now; null for none. */
    String restAddress() {
        return address;
    }

    /** An error of the watch (ZooKeeper unreachable for good, say); null for none. */
    Throwable error() {
        return error;
    }

    @Override
    public void close() {
        try {
            if (retrieval != null) {
                retrieval.stop();
            }
        } catch (Exception ignored) {
            // closing: the watch has no further use
        }
        try {
            if (services != null) {
                services.close();
            }
        } catch (Exception ignored) {
            // closing: the watch has no further use
        }
    }
}
