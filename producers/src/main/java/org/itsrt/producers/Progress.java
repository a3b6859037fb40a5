package org.itsrt.producers;

import java.io.PrintStream;
import java.util.Locale;
import org.itsrt.producers.send.SendStats;

/**
 * The progress line on stderr: the phase (warm-up or measured), sent of total, rate, acknowledged,
 * failed, send lag, ETA.
 */
final class Progress {

    private final long total;
    private final long warmupTotal;
    private final long startedNs;
    private final PrintStream log;

    /** @param total every record, {@code warmupTotal} of them warm-up records sent first */
    Progress(long total, long warmupTotal, long startedNs, PrintStream log) {
        this.total = total;
        this.warmupTotal = warmupTotal;
        this.startedNs = startedNs;
        this.log = log;
    }

    void print(SendStats stats) {
        long sent = stats.sent();
        double seconds = (System.nanoTime() - startedNs) / 1e9;
        double rate = sent / Math.max(seconds, 1e-9);
        double eta = rate > 0 ? (total - sent) / rate : Double.NaN;
        log.printf(
                Locale.ROOT,
                "%ssent %,d/%,d (%.1f%%), %,.1f/s, acked %,d, failed %,d, send lag p99 %.2f ms, ETA %s%n",
                warmupTotal == 0 ? "" : sent < warmupTotal ? "warm-up: " : "measured: ",
                sent,
                total,
                100.0 * sent / total,
                rate,
                stats.acked(),
                stats.failed(),
                stats.sendLagNs().getValueAtPercentile(99) / 1e6,
                eta(eta));
    }

    private static String eta(double seconds) {
        if (Double.isNaN(seconds)) {
            return "?";
        }
        long s = Math.round(seconds);
        return s >= 60 ? String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60) : s + " s";
    }
}
