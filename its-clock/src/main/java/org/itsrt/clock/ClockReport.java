package org.itsrt.clock;

import java.util.Locale;

/**
 * Prints which latency clock this JVM gets, as {@code key=value} lines, and optionally what one
 * read costs. Run it with the its-clock jar on the class path (the native library is inside it):
 * {@code java -cp its-clock.jar:slf4j-api.jar org.itsrt.clock.ClockReport [--cost]}.
 *
 * <p>The {@code nanos} / {@code nanotime} pair is the read with the narrowest
 * {@link System#nanoTime()} bracket out of many, so two runs can compare their timelines.
 */
public final class ClockReport {

    private ClockReport() {}

    public static void main(String[] args) {
        boolean cost = false;
        for (String a : args) {
            if (a.equals("--cost")) {
                cost = true;
            } else {
                System.err.println("usage: ClockReport [--cost]");
                System.exit(2);
            }
        }
        LatencyClock clock = Clocks.system();
        ClockInfo info = clock.info();
        StringBuilder out = new StringBuilder();
        line(out, "clock", info.name());
        line(out, "frequency_hz", String.format(Locale.ROOT, "%.0f", info.frequencyHz()));
        line(out, "frequency_source", info.frequencySource());
        line(out, "warning", info.warning());
        line(out, "describe", info.describe());
        line(out, "library", clock instanceof TscClock t ? t.library() : "");
        line(out, "from_cache", clock instanceof TscClock t ? String.valueOf(t.fromCache()) : "");

        long bestWidth = Long.MAX_VALUE;
        long bestNanos = 0;
        long bestNanoTime = 0;
        for (int i = 0; i < 1000; i++) {
            long before = System.nanoTime();
            long stamp = clock.nanos();
            long after = System.nanoTime();
            if (after - before < bestWidth) {
                bestWidth = after - before;
                bestNanos = stamp;
                bestNanoTime = before + (after - before) / 2;
            }
        }
        line(out, "nanos", String.valueOf(bestNanos));
        line(out, "nanotime", String.valueOf(bestNanoTime));
        line(out, "bracket_ns", String.valueOf(bestWidth));

        if (cost) {
            line(out, "cost_ns_per_read", String.format(Locale.ROOT, "%.1f", costPerRead(clock)));
            line(
                    out,
                    "nanotime_cost_ns_per_read",
                    String.format(Locale.ROOT, "%.1f", costPerRead(new NanoTimeClock(""))));
        }
        System.out.print(out);
        System.out.flush();
    }

    private static void line(StringBuilder out, String key, String value) {
        out.append(key).append('=').append(value.replace('\n', ' ')).append('\n');
    }

    /** Mean ns per {@link LatencyClock#nanos()} over a loop, best of several rounds after warm-up. */
    static double costPerRead(LatencyClock clock) {
        final int reads = 5_000_000;
        long sink = 0;
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 8; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < reads; i++) {
                sink += clock.nanos();
            }
            long t1 = System.nanoTime();
            best = Math.min(best, (t1 - t0) / (double) reads);
        }
        if (sink == 42) {
            System.out.print("");
        }
        return best;
    }
}
