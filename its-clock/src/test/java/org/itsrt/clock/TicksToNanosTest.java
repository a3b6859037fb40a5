package org.itsrt.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TicksToNanosTest {

    private static final long[] FREQUENCIES = {
        1L,
        24_000_000L,
        1_000_000_000L,
        2_000_000_000L,
        2_100_000_000L,
        2_445_404_120L,
        3_999_999_999L,
        9_999_999_967L,
        50_000_000_000L
    };

    /** floor((ticks - anchorTicks) * 1e9 / f) + anchorNanos, computed exactly. */
    private static BigInteger exact(long f, long anchorTicks, long anchorNanos, long ticks) {
        BigInteger delta = BigInteger.valueOf(ticks).subtract(BigInteger.valueOf(anchorTicks));
        BigInteger[] qr = delta.multiply(BigInteger.valueOf(1_000_000_000L)).divideAndRemainder(BigInteger.valueOf(f));
        BigInteger floor = qr[1].signum() < 0 ? qr[0].subtract(BigInteger.ONE) : qr[0];
        return floor.add(BigInteger.valueOf(anchorNanos));
    }

    @Test
    void wholeNanosecondFrequenciesConvertExactly() {
        TicksToNanos ghz = new TicksToNanos(1_000_000_000L, 0, 0);
        assertThat(ghz.toNanos(123_456_789_012_345L)).isEqualTo(123_456_789_012_345L);
        TicksToNanos twoGhz = new TicksToNanos(2_000_000_000L, 0, 0);
        assertThat(twoGhz.toNanos(4_000_000_000_000_000_000L)).isEqualTo(2_000_000_000_000_000_000L);
        TicksToNanos mhz24 = new TicksToNanos(24_000_000L, 0, 0);
        assertThat(mhz24.toNanos(24_000_000L * 3600)).isEqualTo(3_600_000_000_000L);
    }

    @Test
    void anchorShiftsTheLine() {
        TicksToNanos c = new TicksToNanos(2_500_000_000L, 1_000_000L, 777L);
        assertThat(c.toNanos(1_000_000L)).isEqualTo(777L);
        assertThat(c.toNanos(1_000_000L + 2_500_000_000L)).isEqualTo(777L + 1_000_000_000L);
        assertThat(c.toNanos(1_000_000L - 2_500_000_000L)).isEqualTo(777L - 1_000_000_000L);
    }

    @Test
    void largeTickCountsKeepNanosecondPrecision() {
        // Ticks near Long.MAX_VALUE (a century of a 2.4 GHz TSC): ticks * 1e9 overflows a long
        // and a double keeps only ~16 digits, the fixed point neither.
        long f = 2_445_404_120L;
        TicksToNanos c = new TicksToNanos(f, 0, 0);
        long ticks = Long.MAX_VALUE - 12345;
        assertThat(BigInteger.valueOf(c.toNanos(ticks))).isEqualTo(exact(f, 0, 0, ticks));
    }

    @Test
    void exactForRandomValues() {
        SplittableRandom rnd = new SplittableRandom(20240611);
        for (long f : FREQUENCIES) {
            for (int i = 0; i < 20_000; i++) {
                long anchorTicks = rnd.nextLong(0, Long.MAX_VALUE / 2);
                long anchorNanos = rnd.nextLong(0, Long.MAX_VALUE / 4);
                // deltas of every magnitude, both signs, kept to ones whose result fits in a long
                long maxDelta = BigInteger.valueOf(Long.MAX_VALUE / 4)
                        .multiply(BigInteger.valueOf(f))
                        .divide(BigInteger.valueOf(1_000_000_000L))
                        .min(BigInteger.valueOf(Long.MAX_VALUE / 4))
                        .longValue();
                long magnitude = maxDelta >> rnd.nextInt(0, 62);
                long delta = magnitude == 0 ? 0 : rnd.nextLong(-magnitude, magnitude + 1);
                long ticks = anchorTicks + delta;
                TicksToNanos c = new TicksToNanos(f, anchorTicks, anchorNanos);
                assertThat(BigInteger.valueOf(c.toNanos(ticks)))
                        .as("f=%d anchor=%d/%d ticks=%d", f, anchorTicks, anchorNanos, ticks)
                        .isEqualTo(exact(f, anchorTicks, anchorNanos, ticks));
            }
        }
    }

    @Test
    void exactAtWholeMultiplesAndTheirNeighbours() {
        for (long f : FREQUENCIES) {
            for (long k = -3; k <= 3; k++) {
                for (long m : new long[] {1, 7, 1_000_003, 86_400L * 365 * 50}) {
                    long ticks = k + m * f;
                    if (ticks / f != m) {
                        continue; // overflowed
                    }
                    TicksToNanos c = new TicksToNanos(f, 0, 0);
                    assertThat(BigInteger.valueOf(c.toNanos(ticks)))
                            .as("f=%d ticks=%d", f, ticks)
                            .isEqualTo(exact(f, 0, 0, ticks));
                    assertThat(BigInteger.valueOf(c.toNanos(-ticks)))
                            .as("f=%d ticks=%d", f, -ticks)
                            .isEqualTo(exact(f, 0, 0, -ticks));
                }
            }
        }
    }

    @Test
    void neverGoesBackwardsAsTicksAdvance() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (long f : FREQUENCIES) {
            TicksToNanos c = new TicksToNanos(f, 5_000_000_000L, 1_000L);
            for (int i = 0; i < 2_000; i++) {
                long start = rnd.nextLong(-1_000_000_000_000L, Long.MAX_VALUE / 8);
                long prev = c.toNanos(start);
                for (long t = start + 1; t < start + 200; t++) {
                    long n = c.toNanos(t);
                    assertThat(n).as("f=%d t=%d", f, t).isGreaterThanOrEqualTo(prev);
                    prev = n;
                }
            }
        }
    }

    @Test
    void sameInputsGiveTheSameNanosInEveryInstance() {
        TicksToNanos a = new TicksToNanos(2_445_404_120L, 24_541_790_679_404L, 10_035_656_493_784L);
        TicksToNanos b = new TicksToNanos(2_445_404_120L, 24_541_790_679_404L, 10_035_656_493_784L);
        for (long t = 24_000_000_000_000L; t < 30_000_000_000_000L; t += 999_999_937L) {
            assertThat(a.toNanos(t)).isEqualTo(b.toNanos(t));
        }
    }

    @Test
    void rejectsNonPositiveFrequency() {
        assertThatThrownBy(() -> new TicksToNanos(0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
