package org.itsrt.scheduling.linux;

import java.util.Map;

/** A budget in force on a process; closing it restores the process as it was. */
public interface AppliedBudget extends AutoCloseable {

    String backend();

    /** One line for logs: what is reserved for what. */
    String description();

    /**
     * What was set and what was measured, for run reports (JSON-friendly values: numbers, strings,
     * lists, maps). Read during a run it is up to now; after close, as it was just before restoring.
     */
    Map<String, Object> facts();

    /**
     * What restoring reported (e.g. a read-back of the defaults), after {@link #close()}; read
     * {@link #facts()} before closing, as what it reads (a cgroup's counters) may be gone after.
     */
    default Map<String, Object> restoreFacts() {
        return Map.of();
    }

    /** Restores the process; idempotent. Throws SchedulingException after doing all it can. */
    @Override
    void close();
}
