package org.itsrt.clock;

/**
 * The clock that stamps a record when it is sent and when it arrives (docs/design.md, D4). Producer and
 * probe on one host must read the same clock with the same conversion to nanoseconds, so that an
 * arrival stamp minus a send stamp taken in another process is a true duration.
 */
public interface LatencyClock {

    /** Nanoseconds on this host's timeline; only differences between two stamps mean anything. */
    long nanos();

    /** Which clock this is, its frequency and how that was obtained: every report prints it. */
    ClockInfo info();
}
