package org.itsrt.pipeline;

/**
 * Called once the probe reads and the producers are about to send, with a way to mark events on
 * the probe's timeline; what it returns is closed once the probe has measured every record (or
 * stopped). A failover test kills a JobManager, a TaskManager or a broker from here and marks
 * the moment, so the probe's report can show the outage after it.
 */
@FunctionalInterface
public interface LoadHook {

    /** Nothing happens during the load. */
    LoadHook NONE = marks -> () -> {};

    AutoCloseable loadStarting(FaultMarks marks) throws Exception;

    /** Marks an event (a fault injected) at this instant on the probe's timeline. */
    @FunctionalInterface
    interface FaultMarks {
        void mark(String label);
    }
}
