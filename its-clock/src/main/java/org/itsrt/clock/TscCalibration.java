package org.itsrt.clock;

import java.util.concurrent.TimeUnit;

/**
 * Measures the counter frequency against CLOCK_MONOTONIC_RAW (the kernel clock that NTP does not
 * slew). At each end of the interval it reads ticks / raw ns / ticks many times and keeps the
 * sample whose tick bracket is narrowest, i.e. the one least disturbed by interrupts or
 * preemption, placing the raw reading at the bracket's midpoint.
 */
final class TscCalibration {

    /** Reads {@code out[0..2]} = ticks, raw ns, ticks (see {@link NativeTsc#sample}). */
    @FunctionalInterface
    interface Sampler {
        void sample(long[] out);
    }

    /** A calibration result: the frequency and one (ticks, raw ns) point on the line. */
    record Result(long frequencyHz, long anchorTicks, long anchorRawNanos, long durationMillis) {}

    /** One bracketed reading: the ticks at the raw reading (bracket midpoint), raw ns, bracket width. */
    record Point(long ticks, long rawNanos, long width) {}

    static final int SAMPLES_PER_END = 64;

    private TscCalibration() {}

    static Point narrowest(Sampler sampler, int samples) {
        long[] s = new long[3];
        Point best = null;
        for (int i = 0; i < samples; i++) {
            sampler.sample(s);
            long width = s[2] - s[0];
            if (width < 0) {
                continue;
            }
            if (best == null || width < best.width()) {
                best = new Point(s[0] + width / 2, s[1], width);
            }
        }
        return best;
    }

    /** Calibrates over about {@code durationMillis} of CLOCK_MONOTONIC_RAW. */
    static Result calibrate(Sampler sampler, long durationMillis) throws ClockUnavailableException {
        Point start = narrowest(sampler, SAMPLES_PER_END);
        if (start == null) {
            throw new ClockUnavailableException("TSC calibration failed: the counter ran backwards in every sample");
        }
        long until = start.rawNanos() + TimeUnit.MILLISECONDS.toNanos(durationMillis);
        long[] s = new long[3];
        while (true) {
            sampler.sample(s);
            long left = until - s[1];
            if (left <= 0) {
                break;
            }
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClockUnavailableException("TSC calibration interrupted", e);
            }
        }
        Point end = narrowest(sampler, SAMPLES_PER_END);
        if (end == null) {
            throw new ClockUnavailableException("TSC calibration failed: the counter ran backwards in every sample");
        }
        return fromPoints(start, end);
    }

    static Result fromPoints(Point start, Point end) throws ClockUnavailableException {
        long dTicks = end.ticks() - start.ticks();
        long dRaw = end.rawNanos() - start.rawNanos();
        if (dTicks <= 0 || dRaw <= 0) {
            throw new ClockUnavailableException("TSC calibration failed: ticks advanced " + dTicks
                    + " while CLOCK_MONOTONIC_RAW advanced " + dRaw + " ns");
        }
        long hz = Math.round(dTicks * 1e9 / dRaw);
        if (hz < 1_000_000L || hz > 100_000_000_000L) {
            throw new ClockUnavailableException("TSC calibration gave an implausible " + hz + " Hz");
        }
        return new Result(hz, end.ticks(), end.rawNanos(), Math.round(dRaw / 1e6));
    }
}
