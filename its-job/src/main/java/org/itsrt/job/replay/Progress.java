package org.itsrt.job.replay;

import java.io.PrintStream;
import java.util.Locale;

/** A progress line on stderr every two seconds: done / total, rate and time left. */
final class Progress {

    private static final long REPORT_EVERY_NS = 2_000_000_000L;

    private final String verb;
    private final long total;
    private final PrintStream err = System.err;
    private final long startedNs = System.nanoTime();
    private long lastReportNs = startedNs;
    private long done;

    Progress(String verb, long total) {
        this.verb = verb;
        this.total = total;
    }

    void step() {
        done++;
        long now = System.nanoTime();
        if (now - lastReportNs >= REPORT_EVERY_NS) {
            lastReportNs = now;
            err.println(line(now));
        }
    }

    void finish() {
        err.println(line(System.nanoTime()));
    }

    private String line(long now) {
        double seconds = Math.max((now - startedNs) / 1e9, 1e-9);
        double rate = done / seconds;
        double left = rate > 0 ? (total - done) / rate : Double.NaN;
        return String.format(
                Locale.ROOT,
                "%s %,d/%,d readings (%.1f%%), %,.0f/s, %s",
                verb,
                done,
                total,
                100.0 * done / Math.max(total, 1),
                rate,
                done >= total
                        ? String.format(Locale.ROOT, "took %.1f s", seconds)
                        : String.format(Locale.ROOT, "ETA %.0f s", left));
    }
}
