package org.itsrt.experiments.tune;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import org.itsrt.experiments.report.Environment;
import org.itsrt.experiments.report.TuneReport;
import org.itsrt.experiments.spec.ExperimentSpec;

/**
 * A shutdown hook that, on Ctrl-C (or SIGTERM) during the search, writes tune.md, points.csv and the
 * plot for the points measured so far, marked as interrupted with the point that was running. The
 * budget of the run under way is restored by the scheduling module's own hook, and the run's broker
 * and cluster end with theirs. Exactly one report is written: this one, or the search's own.
 */
public final class ReportOnInterrupt {

    public final Thread hook;
    private final TuneSearch search;
    private final Path dir;
    private final ExperimentSpec base;
    private final Path baseFile;
    private final BudgetSearch.Settings settings;
    private final PrintWriter err;
    private final java.util.concurrent.CountDownLatch mainReported = new java.util.concurrent.CountDownLatch(1);
    private boolean claimed;

    public ReportOnInterrupt(
            TuneSearch search,
            Path dir,
            ExperimentSpec base,
            Path baseFile,
            BudgetSearch.Settings settings,
            PrintWriter err) {
        this.search = search;
        this.dir = dir;
        this.base = base;
        this.baseFile = baseFile;
        this.settings = settings;
        this.err = err;
        this.hook = new Thread(this::onShutdown, "its-tune-interrupted-report");
        // The report's environment facts load Flink's and Kafka's version classes, which start their
        // logging, which registers a shutdown hook of its own: refused once the JVM is shutting down.
        // Loaded now, the hook finds them ready.
        Environment.facts(List.of());
    }

    /** A search that ran to its end, and its report's summary. */
    public record Finished(TuneResult result, String summary) {}

    /**
     * Runs the search with this hook in place and writes its report; null when Ctrl-C came first
     * and the hook reports the points measured instead (the JVM exits when it is done).
     */
    public Finished searchAndReport() throws java.io.IOException {
        Runtime.getRuntime().addShutdownHook(hook);
        TuneResult result;
        try {
            result = search.run();
        } catch (RuntimeException | Error e) {
            if (reportHere()) {
                reported();
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            throw e;
        }
        if (!reportHere()) {
            return null;
        }
        try {
            return new Finished(result, TuneReport.writeWithEnvironment(dir, base, baseFile, settings, result));
        } finally {
            reported();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C while the report was written: the hook waits for it and returns
            }
        }
    }

    /** Whether the search's own report is to be written (false: the hook writes the interrupted one). */
    public synchronized boolean reportHere() {
        if (claimed) {
            return false;
        }
        claimed = true;
        return true;
    }

    /** The search's own report is written. */
    public void reported() {
        mainReported.countDown();
    }

    private void onShutdown() {
        synchronized (this) {
            if (claimed) {
                // The search ended and its report is being written: let it finish before the JVM exits.
                try {
                    mainReported.await(60, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return;
            }
            claimed = true;
        }
        TuneResult sofar = search.interrupt();
        // ImageIO caches PNG output in a temporary file whose cleanup is a shutdown hook, which can no
        // longer be added: write the plot through memory.
        javax.imageio.ImageIO.setUseCache(false);
        long measured = sofar.points().stream()
                .filter(p -> p.verdict() != Verdict.INTERRUPTED)
                .count();
        try {
            TuneReport.writeWithEnvironment(dir, base, baseFile, settings, sofar);
            err.println("its-tune: " + sofar.interruption() + "; " + dir.resolve(TuneReport.MARKDOWN) + " and "
                    + TuneReport.CSV + " (and the plot, from two budgets on) cover the " + measured
                    + " point(s) measured");
        } catch (java.io.IOException | RuntimeException | Error e) {
            err.println("its-tune: interrupted; writing the report of the " + measured + " point(s) measured to " + dir
                    + " failed: " + e.getMessage());
        }
        err.flush();
    }
}
