package org.itsrt.scheduling.linux;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One JVM shutdown hook that closes whatever budgets and loads are still open when the JVM exits
 * (Ctrl-C, System.exit), newest first, so that no cgroup, deadline policy or load process outlives it.
 * A kill -9 runs no hook: then the budget's record in the {@link BudgetLedger} lets the next start
 * restore it ({@link LeftoverRestore}).
 */
final class ShutdownRestore {

    private static final Set<AutoCloseable> OPEN = new LinkedHashSet<>();
    private static boolean hookInstalled;

    private ShutdownRestore() {}

    static synchronized void register(AutoCloseable resource) {
        if (!hookInstalled) {
            Runtime.getRuntime().addShutdownHook(new Thread(ShutdownRestore::closeAll, "itsrt-sched-restore"));
            hookInstalled = true;
        }
        OPEN.add(resource);
    }

    static synchronized void unregister(AutoCloseable resource) {
        OPEN.remove(resource);
    }

    private static void closeAll() {
        List<AutoCloseable> open;
        synchronized (ShutdownRestore.class) {
            open = new ArrayList<>(OPEN);
        }
        Collections.reverse(open);
        for (AutoCloseable resource : open) {
            try {
                resource.close();
            } catch (Exception | Error e) {
                System.err.println("itsrt-sched: restoring " + resource + " at exit failed: " + e.getMessage());
            }
        }
    }
}
