package org.itsrt.probe.fault;

import java.time.Instant;

/**
 * The moment a fault was injected (a process killed, a broker stopped), as the probe compares it
 * with arrivals; for a fault that lasts (a broker stopped for 20 s and started again), also the
 * moment it was over.
 *
 * @param label   what was done, e.g. {@code kill -9 taskmanager-1}
 * @param at      wall-clock time, for people and for the report's {@code at}
 * @param clockNs the same moment on the latency clock that stamps arrivals: arrivals are compared
 *                with this, since the wall clock may be stepped or slewed during a run
 * @param end     when the fault was over (the stopped process served again); null for a fault of
 *                one moment, or one whose end was not marked
 */
public record FaultMark(String label, Instant at, long clockNs, End end) {

    /**
     * The end of a fault that lasts: what was taken away is back.
     *
     * @param at      wall-clock time
     * @param clockNs the same moment on the latency clock
     */
    public record End(Instant at, long clockNs) {
        public End {
            if (at == null) {
                throw new IllegalArgumentException("a fault's end needs its time");
            }
        }
    }

    public FaultMark {
        if (label == null || label.isBlank()) {
            throw new IllegalArgumentException("a fault mark needs a label");
        }
        if (at == null) {
            throw new IllegalArgumentException("a fault mark needs its time");
        }
        label = label.strip();
        if (end != null && end.clockNs() < clockNs) {
            throw new IllegalArgumentException(
                    "the fault '" + label + "' ends (" + end.at() + ") before it begins (" + at + ")");
        }
    }

    /** A fault of one moment. */
    public FaultMark(String label, Instant at, long clockNs) {
        this(label, at, clockNs, null);
    }

    /** This fault, over at {@code end}. */
    public FaultMark withEnd(End end) {
        return new FaultMark(label, at, clockNs, end);
    }

    /** From the mark to the end; null without an end. */
    public Long lengthNs() {
        return end == null ? null : end.clockNs() - clockNs;
    }
}
