package org.itsrt.job.deadline;

import java.time.Instant;

/**
 * A record's deadline and its slack, on the wall clock (docs/deadlines.md). The deadline is the
 * Kafka record's timestamp, the producer's create time in epoch milliseconds, plus the SLO
 * ({@code --deadline-ms}); the job compares it with its own wall clock. Both ends read the wall
 * clock of their host, so across hosts the slack is off by the hosts' clock offset (NTP keeps it
 * within about a millisecond on a LAN, PTP far below); on one host it is exact up to the
 * timestamp's millisecond, which it truncates: a record looks up to 1 ms older than it is, so the
 * job degrades or sheds slightly early, never late.
 *
 * <p>Deadlines are in epoch microseconds, slack in nanoseconds (the unit inference costs are
 * measured in). Nothing here allocates but {@link #nowMicros}'s short-lived {@code Instant}.
 */
public final class Deadlines {

    /** The deadline of a record that has none: no timestamp, or deadlines are off. */
    public static final long NONE = Long.MAX_VALUE;

    private Deadlines() {}

    /**
     * The deadline in epoch microseconds of a record created at {@code createdMs}; {@link #NONE}
     * when it has no timestamp (negative) or deadlines are off ({@code deadlineMs} 0).
     */
    public static long deadlineMicros(long createdMs, long deadlineMs) {
        if (createdMs < 0 || deadlineMs <= 0) {
            return NONE;
        }
        return (createdMs + deadlineMs) * 1_000;
    }

    /** The wall clock now, in epoch microseconds. */
    public static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }

    /**
     * Nanoseconds left until the deadline at {@code nowMicros}, negative once it has passed;
     * {@link Long#MAX_VALUE} for {@link #NONE}.
     */
    public static long slackNanos(long deadlineMicros, long nowMicros) {
        if (deadlineMicros == NONE) {
            return Long.MAX_VALUE;
        }
        return (deadlineMicros - nowMicros) * 1_000;
    }

    /** True when the deadline has passed at {@code nowMicros}; never for {@link #NONE}. */
    public static boolean expired(long deadlineMicros, long nowMicros) {
        return deadlineMicros != NONE && nowMicros > deadlineMicros;
    }
}
