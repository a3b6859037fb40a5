package org.itsrt.job.replay;

import java.io.PrintStream;
import org.itsrt.cli.Progress;

/** The replay's progress line on stderr every two seconds: readings replayed of all, rate and time left. */
final class ReplayProgress {

    private static final long REPORT_EVERY_NS = 2_000_000_000L;

    private final String verb;
    private final Progress progress;
    private final PrintStream err = System.err;
    private long lastReportNs = System.nanoTime();
    private long done;

    ReplayProgress(String verb, long total) {
        this.verb = verb;
        this.progress = Progress.startingNow(total);
    }

    void step() {
        done++;
        long now = System.nanoTime();
        if (now - lastReportNs >= REPORT_EVERY_NS) {
            lastReportNs = now;
            err.println(line());
        }
    }

    void finish() {
        err.println(line());
    }

    private String line() {
        return verb + " " + progress.doneOfTotal(done) + " readings, " + progress.eta(done);
    }
}
