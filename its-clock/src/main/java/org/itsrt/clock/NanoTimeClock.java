package org.itsrt.clock;

/**
 * {@link System#nanoTime()}: CLOCK_MONOTONIC on Linux, so stamps of two JVMs on one host are
 * comparable. The fallback when the TSC cannot be used.
 */
public final class NanoTimeClock implements LatencyClock {

    private final ClockInfo info;

    public NanoTimeClock(String warning) {
        this.info = new ClockInfo("nanotime", 1e9, "jvm", warning);
    }

    @Override
    public long nanos() {
        return System.nanoTime();
    }

    @Override
    public ClockInfo info() {
        return info;
    }
}
