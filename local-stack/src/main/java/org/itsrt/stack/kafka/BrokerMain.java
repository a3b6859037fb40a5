package org.itsrt.stack.kafka;

import java.lang.reflect.InvocationTargetException;
import org.itsrt.stack.ParentWatch;

/**
 * Entry point of the child broker JVM: runs {@code kafka.Kafka} and exits when its parent goes
 * away ({@link ParentWatch}); Kafka's own shutdown hook then performs a controlled shutdown.
 */
public final class BrokerMain {

    private BrokerMain() {}

    public static void main(String[] args) throws Throwable {
        ParentWatch.exitInBackgroundWhenParentEnds();
        // By name: the broker is a run-time dependency only, so that the Flink child's class path,
        // built from this module's compile scope, stays free of it (pom.xml).
        try {
            Class.forName("kafka.Kafka").getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
