package org.itsrt.kafka;

import java.io.IOException;
import java.io.InputStream;

/**
 * Entry point of the child broker JVM: runs {@code kafka.Kafka} and exits when its parent goes
 * away. The parent holds the child's stdin open; end of stdin means the parent died (even by
 * SIGKILL, when no shutdown hook of its own could run), so no broker outlives the run.
 */
public final class BrokerMain {

    private BrokerMain() {
    }

    public static void main(String[] args) throws Exception {
        Thread watchdog = new Thread(() -> {
            try (InputStream in = System.in) {
                while (in.read() >= 0) {
                    // nothing is sent; only the end of the stream matters
                }
            } catch (IOException ignored) {
                // a broken pipe means the same as end of stream
            }
            // Kafka's own shutdown hook performs a controlled shutdown on exit.
            System.exit(0);
        }, "parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        kafka.Kafka.main(args);
    }
}
