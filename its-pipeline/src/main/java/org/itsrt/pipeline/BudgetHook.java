package org.itsrt.pipeline;

import java.util.OptionalLong;
import org.itsrt.probe.arrival.ArrivalSink;

/**
 * Called once the job is live (it answered the readiness handshake) and before the first
 * measured record, with the process that runs the job's tasks where it is on this host: what it
 * returns is closed once the measurement is over, before the job is cancelled. An experiment puts
 * a CPU budget on the job's process here: the job's start (deployment, model load, warm-up) is
 * not what it measures, and under a tight budget it would take minutes.
 */
@FunctionalInterface
public interface BudgetHook {

    /** No budget. */
    BudgetHook NONE = pid -> () -> {};

    AutoCloseable jobLive(OptionalLong clusterPid) throws Exception;

    /**
     * Where the probe also hands every record as it arrives, for a budget that follows the
     * latency while the run goes; null (the default) for a budget fixed for the run.
     */
    default ArrivalSink arrivals() {
        return null;
    }
}
