package org.itsrt.probe.fault;

import java.time.Instant;

/**
 * The moment a fault was injected (a process killed, a broker stopped), as the probe compares it
 * with arrivals.
 *
 * @param label   what was done, e.g. {@code kill -9 taskmanager-1}
 * @param at      wall-clock time, for people and for the report's {@code at}
 * @param clockNs the same moment on the latency clock that stamps arrivals: arrivals are compared
 *                with this, since the wall clock may be stepped or slewed during a run
 */
public record FaultMark(String label, Instant at, long clockNs) {

    public FaultMark {
        if (label == null || label.isBlank()) {
            throw new IllegalArgumentException("a fault mark needs a label");
        }
        if (at == null) {
            throw new IllegalArgumentException("a fault mark needs its time");
        }
        label = label.strip();
    }
}
