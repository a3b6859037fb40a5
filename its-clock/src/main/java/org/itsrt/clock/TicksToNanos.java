package org.itsrt.clock;

import java.math.BigInteger;

/**
 * ticks -> nanoseconds: {@code anchorNanos + floor((ticks - anchorTicks) * 1e9 / frequencyHz)},
 * exact for every tick count a long holds, without a division per call.
 *
 * <p>The factor {@code 1e9 / f} is split into an integer part {@code q} and a 64-bit binary
 * fraction {@code frac = floor(2^64 * (1e9 mod f) / f)}; {@code delta * q + (delta * frac >> 64)}
 * is then the exact quotient or one less, and one 128-bit comparison of {@code (n + 1) * f}
 * against {@code delta * 1e9} settles which. So a tick count of years converts as precisely as
 * one of microseconds, never runs backwards as ticks advance, and every process that builds this
 * from the same frequency and anchor computes bit-identical nanoseconds: what makes a send stamp
 * of one JVM comparable with an arrival stamp of another.
 */
final class TicksToNanos {

    private static final long NANOS = 1_000_000_000L;
    private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(NANOS);

    private final long frequencyHz;
    private final long anchorTicks;
    private final long anchorNanos;
    private final long wholeNanosPerTick;
    private final long fractionNanosPerTick;

    /**
     * @param frequencyHz counter ticks per second, positive
     * @param anchorTicks a counter value
     * @param anchorNanos the nanoseconds that {@code anchorTicks} maps to
     */
    TicksToNanos(long frequencyHz, long anchorTicks, long anchorNanos) {
        if (frequencyHz <= 0) {
            throw new IllegalArgumentException("frequency must be positive: " + frequencyHz);
        }
        this.frequencyHz = frequencyHz;
        this.anchorTicks = anchorTicks;
        this.anchorNanos = anchorNanos;
        BigInteger f = BigInteger.valueOf(frequencyHz);
        BigInteger[] qr = NANOS_PER_SECOND.divideAndRemainder(f);
        this.wholeNanosPerTick = qr[0].longValueExact();
        // < 2^64, so it fits in 64 bits; as a long it may read negative, toNanos treats it unsigned.
        this.fractionNanosPerTick = qr[1].shiftLeft(64).divide(f).longValue();
    }

    long frequencyHz() {
        return frequencyHz;
    }

    long anchorTicks() {
        return anchorTicks;
    }

    long anchorNanos() {
        return anchorNanos;
    }

    long toNanos(long ticks) {
        long delta = ticks - anchorTicks;
        return anchorNanos + (delta >= 0 ? floorScaled(delta) : -ceilScaled(-delta));
    }

    /** floor(d * 1e9 / f) for d >= 0. */
    private long floorScaled(long d) {
        // High 64 bits of d x (unsigned fraction): the signed high product, plus d when the
        // fraction's top bit is set (its unsigned value is then its signed value + 2^64).
        long n =
                d * wholeNanosPerTick + Math.multiplyHigh(d, fractionNanosPerTick) + ((fractionNanosPerTick >> 63) & d);
        long next = n + 1;
        long hiTarget = Math.multiplyHigh(d, NANOS);
        long hiNext = Math.multiplyHigh(next, frequencyHz);
        if (hiTarget > hiNext || (hiTarget == hiNext && Long.compareUnsigned(d * NANOS, next * frequencyHz) >= 0)) {
            return next;
        }
        return n;
    }

    /** ceil(d * 1e9 / f) for d > 0. */
    private long ceilScaled(long d) {
        long n = floorScaled(d);
        boolean exact =
                n * frequencyHz == d * NANOS && Math.multiplyHigh(n, frequencyHz) == Math.multiplyHigh(d, NANOS);
        return exact ? n : n + 1;
    }
}
