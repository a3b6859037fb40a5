package org.itsrt.producers;

import java.io.PrintStream;
import java.util.Locale;
import org.itsrt.cli.Progress;
import org.itsrt.producers.send.SendStats;

/**
 * The progress line on stderr: the phase (warm-up or measured), sent of total, rate, acknowledged,
 * failed, send lag, ETA.
 */
final class SendProgress {

    private final Progress progress;
    private final long warmupTotal;
    private final PrintStream log;

    /** @param total every record, {@code warmupTotal} of them warm-up records sent first */
    SendProgress(long total, long warmupTotal, long startedNs, PrintStream log) {
        this.progress = new Progress(total, startedNs);
        this.warmupTotal = warmupTotal;
        this.log = log;
    }

    void print(SendStats stats) {
        long sent = stats.sent();
        log.printf(
                Locale.ROOT,
                "%ssent %s, acked %,d, failed %,d, send lag p99 %.2f ms, %s%n",
                warmupTotal == 0 ? "" : sent < warmupTotal ? "warm-up: " : "measured: ",
                progress.doneOfTotal(sent),
                stats.acked(),
                stats.failed(),
                stats.sendLagNs().getValueAtPercentile(99) / 1e6,
                progress.eta(sent));
    }
}
