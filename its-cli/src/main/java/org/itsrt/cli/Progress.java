package org.itsrt.cli;

import java.util.Locale;

/**
 * How far a long piece of work has come: done of total, the rate so far and the time left, the
 * figures every progress line of the suite shows (records sent and received, readings replayed,
 * runs of an experiment), computed and written one way. A caller adds what only it knows (acked,
 * lost, the phase) around them.
 */
public final class Progress {

    private final long total;
    private final long startedNs;

    /** Work of {@code total} units that started at {@code startedNs} ({@link System#nanoTime()}). */
    public Progress(long total, long startedNs) {
        this.total = total;
        this.startedNs = startedNs;
    }

    /** Work of {@code total} units starting now. */
    public static Progress startingNow(long total) {
        return new Progress(total, System.nanoTime());
    }

    public long total() {
        return total;
    }

    /** Seconds since the start. */
    public double elapsedS() {
        return Math.max((System.nanoTime() - startedNs) / 1e9, 1e-9);
    }

    /** Units per second so far. */
    public double perSecond(long done) {
        return done / elapsedS();
    }

    /** Done as a percentage of the total. */
    public double percent(long done) {
        return 100.0 * done / Math.max(total, 1);
    }

    /** {@code 1,200/6,000 (20.0%), 60.0/s}: done of total, and the rate. */
    public String doneOfTotal(long done) {
        return String.format(Locale.ROOT, "%,d/%,d (%.1f%%), %,.1f/s", done, total, percent(done), perSecond(done));
    }

    /** The time left at the rate so far, e.g. {@code ETA 1m 05s}; {@code took 12.3 s} once all is done. */
    public String eta(long done) {
        if (done >= total) {
            return String.format(Locale.ROOT, "took %.1f s", elapsedS());
        }
        double rate = perSecond(done);
        return "ETA " + (rate > 0 ? time((total - done) / rate) : "?");
    }

    /** A time left or taken, to the second: {@code 42 s}, {@code 3m 05s}. */
    public static String time(double seconds) {
        if (Double.isNaN(seconds) || Double.isInfinite(seconds)) {
            return "?";
        }
        long s = Math.round(seconds);
        return s >= 60 ? String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60) : s + " s";
    }
}
