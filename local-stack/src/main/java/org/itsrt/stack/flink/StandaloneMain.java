package org.itsrt.stack.flink;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import org.itsrt.stack.ParentWatch;

/**
 * Entry point of a JobManager or TaskManager JVM of {@link StandaloneFlink}: runs Flink's own main
 * class (the first argument, with the remaining arguments) and ends the JVM when its parent goes
 * away ({@link ParentWatch}), which Flink's entry points alone would not notice.
 */
public final class StandaloneMain {

    private StandaloneMain() {}

    public static void main(String[] args) throws Throwable {
        if (args.length < 1) {
            System.err.println("usage: StandaloneMain FLINK_MAIN_CLASS [ARGS ...]");
            System.exit(2);
        }
        ParentWatch.exitInBackgroundWhenParentEnds();
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
