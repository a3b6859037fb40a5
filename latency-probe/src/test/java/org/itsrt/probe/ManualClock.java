package org.itsrt.probe;

import org.itsrt.clock.ClockInfo;
import org.itsrt.clock.LatencyClock;

/** A latency clock the test sets by hand; optionally advancing by a step on every read. */
public final class ManualClock implements LatencyClock {

    private long now;
    private final long step;
    private int reads;

    public ManualClock(long start) {
        this(start, 0);
    }

    public ManualClock(long start, long step) {
        this.now = start;
        this.step = step;
    }

    public synchronized void set(long nanos) {
        now = nanos;
    }

    public synchronized int reads() {
        return reads;
    }

    @Override
    public synchronized long nanos() {
        reads++;
        long value = now;
        now += step;
        return value;
    }

    @Override
    public ClockInfo info() {
        return new ClockInfo("manual", 1e9, "test", "");
    }
}
