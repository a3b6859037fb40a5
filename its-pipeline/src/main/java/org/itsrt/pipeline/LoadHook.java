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

    /** Marks events on the probe's timeline. */
    interface FaultMarks {

        /** Marks an event (a fault injected) at this instant. */
        void mark(String label);

        /**
         * Marks the start of a fault that lasts (a broker stopped, to be started again) at this
         * instant; {@link Window#end()} marks when it is over. The probe's report shows the window
         * and the recovery after its end.
         */
        Window begin(String label);
    }

    /** A fault that lasts, marked at its start. */
    @FunctionalInterface
    interface Window {

        /** Marks the fault over at this instant (what was taken away is back). */
        void end();
    }
}
