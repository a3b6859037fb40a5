package org.itsrt.stack;

import java.io.IOException;
import java.io.InputStream;

/**
 * For the main class of a {@link ChildJvm}: ends this JVM when its parent goes away. The parent
 * holds the child's stdin open and never writes to it; the end of the stream means the parent
 * died, even by SIGKILL, when no shutdown hook of its own could run. So no broker or cluster
 * outlives the run that started it.
 */
public final class ParentWatch {

    private ParentWatch() {}

    /** Blocks until stdin ends, then exits this JVM (status 0; its shutdown hooks run). */
    public static void exitWhenParentEnds() {
        try (InputStream in = System.in) {
            while (in.read() >= 0) {
                // nothing is sent; only the end of the stream matters
            }
        } catch (IOException ignored) {
            // a broken pipe means the same as end of stream
        }
        System.exit(0);
    }

    /** The same on a daemon thread, for a main that goes on to run something else. */
    public static void exitInBackgroundWhenParentEnds() {
        Thread watchdog = new Thread(ParentWatch::exitWhenParentEnds, "parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }
}
