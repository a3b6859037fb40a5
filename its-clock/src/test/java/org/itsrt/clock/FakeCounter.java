package org.itsrt.clock;

/**
 * A counter that ticks at exactly {@code hz} against {@link System#nanoTime()} (standing in for
 * CLOCK_MONOTONIC_RAW), optionally reporting a frequency of its own.
 */
final class FakeCounter implements TscFrequency.Counter {

    final long hz;
    final long tickOffset;
    long reportedHz;
    int reportedSource;
    int samples;

    FakeCounter(long hz, long tickOffset) {
        this.hz = hz;
        this.tickOffset = tickOffset;
    }

    FakeCounter reporting(long reported, int source) {
        this.reportedHz = reported;
        this.reportedSource = source;
        return this;
    }

    long ticksAt(long rawNanos) {
        return tickOffset + (long) (rawNanos * (hz / 1e9));
    }

    @Override
    public long reportedFrequencyHz() {
        return reportedHz;
    }

    @Override
    public int reportedFrequencySource() {
        return reportedSource;
    }

    @Override
    public void sample(long[] out) {
        samples++;
        long raw = System.nanoTime();
        long t = ticksAt(raw);
        out[0] = t;
        out[1] = raw;
        out[2] = t;
    }
}
