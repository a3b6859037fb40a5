package org.itsrt.stack.zookeeper;

import java.lang.reflect.InvocationTargetException;
import org.itsrt.stack.ParentWatch;

/**
 * Entry point of the child ZooKeeper JVM: runs ZooKeeper's own {@code QuorumPeerMain} on the
 * {@code zoo.cfg} given as argument (a configuration without other servers makes it a standalone
 * server) and exits when its parent goes away ({@link ParentWatch}).
 */
public final class ZooKeeperMain {

    static final String QUORUM_PEER_MAIN = "org.apache.zookeeper.server.quorum.QuorumPeerMain";

    private ZooKeeperMain() {}

    public static void main(String[] args) throws Throwable {
        ParentWatch.exitInBackgroundWhenParentEnds();
        // By name: the server is a run-time dependency only, so that the Flink child's class path,
        // built from this module's compile scope, stays free of it (pom.xml).
        try {
            Class.forName(QUORUM_PEER_MAIN).getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
