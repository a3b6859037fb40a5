package org.itsrt.experiments.tune;

import java.io.PrintStream;
import java.util.Locale;
import org.itsrt.experiments.run.RowRun;

/** One line before and after each run, one per point: runs take minutes, a search an hour. */
public final class SearchProgress implements BudgetSearch.Listener {

    private final String name;
    private final PrintStream log;
    private final long started = System.nanoTime();
    private int runsDone;

    public SearchProgress(String name, PrintStream log) {
        this.name = name;
        this.log = log;
    }

    @Override
    public void starting(int point, long budgetUs, long periodUs, int repetition, int runsPlanned) {
        log.printf(
                Locale.ROOT,
                "tune %s: point %d, budget %d/%d us (%.2f%% of a CPU per CPU), run %d of %d%n",
                name,
                point,
                budgetUs,
                periodUs,
                100.0 * budgetUs / periodUs,
                repetition,
                runsPlanned);
    }

    @Override
    public void ran(int point, long budgetUs, long periodUs, RowRun run, boolean metSlo, int runsLeftAtMost) {
        runsDone++;
        double perRunS = (System.nanoTime() - started) / 1e9 / runsDone;
        log.printf(
                Locale.ROOT,
                "tune %s: point %d run %d: steady p50 %.2f p99 %.2f max %.2f ms%s%s: %s; %d run(s) "
                        + "done, at most %d to go (%s)%n",
                name,
                point,
                run.repetition(),
                run.steady().p50(),
                run.steady().p99(),
                run.steady().max(),
                run.lost() > 0 ? ", " + run.lost() + " records lost" : "",
                run.exitCode() != 0 ? ", exit code " + run.exitCode() : "",
                metSlo ? "meets the SLO" : "misses the SLO",
                runsDone,
                runsLeftAtMost,
                "about " + org.itsrt.cli.Progress.time(perRunS * runsLeftAtMost));
    }

    @Override
    public void tried(TriedPoint point) {
        log.printf(
                Locale.ROOT,
                "tune %s: point %d, %d/%d us: %s (%d of %d runs met the SLO)%n",
                name,
                point.number(),
                point.budgetUs(),
                point.periodUs(),
                point.verdict().text,
                point.runsMeetingSlo(),
                point.runs().size());
    }
}
