package org.itsrt.experiments.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.itsrt.experiments.run.RowRun;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.experiments.spec.ExperimentSpec.Row;
import org.itsrt.experiments.tune.BudgetSearch;
import org.itsrt.experiments.tune.SearchRange;
import org.itsrt.experiments.tune.TriedPoint;
import org.itsrt.experiments.tune.TuneResult;
import org.itsrt.experiments.tune.TuneResult.NonMonotonic;
import org.itsrt.experiments.tune.TuneResult.PeriodOutcome;
import org.itsrt.probe.report.MarkdownTable;

/**
 * The out folder of {@code ./its tune}: {@code tune.md} (what was searched and how, the answer,
 * the frontier over the periods with the dominated ones, every point in the order tried with
 * each run, noisy and non-monotonic points, the environment), {@code frontier.csv} and its plot
 * ({@link FrontierReport}), {@code points.csv} (one line per run, the columns of an experiment's
 * runs.csv after the point's) and the p99/max-versus-budget plot of an experiment.
 */
public final class TuneReport {

    public static final String MARKDOWN = "tune.md";
    public static final String CSV = "points.csv";
    public static final String PLOT = ExperimentReport.BUDGET_PLOT;
    /** Per period, the smallest passing budget and the failing one below it. */
    public static final String FRONTIER_CSV = "frontier.csv";
    /** The frontier's plot, as .png and .svg. */
    public static final String FRONTIER_PLOT = "frontier";

    private TuneReport() {}

    /**
     * Writes the report.
     *
     * @param base     the experiment the points were built from (backend, CPUs, load, records, warm-up)
     * @param baseFile where it was read from
     * @return the result in a few lines, for the console
     */
    public static String write(
            Path out,
            ExperimentSpec base,
            Path baseFile,
            BudgetSearch.Settings settings,
            TuneResult result,
            Map<String, String> environment)
            throws IOException {
        Files.writeString(out.resolve(CSV), csv(result), StandardCharsets.UTF_8);
        Files.writeString(out.resolve(FRONTIER_CSV), FrontierReport.csv(result), StandardCharsets.UTF_8);
        boolean plotted = plot(out, base, result);
        boolean frontierPlotted = FrontierReport.plot(out, base.name(), result);
        String summary = summary(result);

        StringBuilder md = new StringBuilder();
        md.append("# Tune ").append(base.name()).append(": the smallest budget that meets the SLO");
        md.append(result.interrupted() ? " (interrupted: the search did not finish)\n\n" : "\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Backend `%s`, %d CPU(s) on the real-time side (a budget is per CPU, "
                        + "as an experiment row's `budget_us`). SLO: a run meets it when its steady-state p99 <= %s ms, "
                        + "its max <= %s ms and every record arrived; a point (a budget) passes when every run at it "
                        + "meets it. %d run(s) per point, each on a fresh broker and Flink cluster, up to %d where they "
                        + "disagree; %,d records per run at %s records/s from each of six detectors; %s. Base file: `%s` (copied here as `base.yaml`; its rows are not run, they give the default "
                        + "search space).%n%n",
                base.backend().yamlName,
                base.vcpus(),
                ExperimentReport.fmt(settings.sloP99Ms()),
                ExperimentReport.fmt(settings.sloMaxMs()),
                settings.repetitions(),
                settings.maxRepetitions(),
                base.records(),
                ExperimentReport.fmt(base.load().rateHz()),
                base.warmupDescription(),
                baseFile));
        md.append("Searched by ").append(settings.strategy().describe()).append(" (docs/experiments.md, section 7): ");
        List<String> searched = new ArrayList<>();
        for (SearchRange r : settings.ranges()) {
            searched.add(String.format(
                    Locale.ROOT,
                    "budgets %d..%d us every %d us to within %d us",
                    r.minBudgetUs(),
                    r.maxBudgetUs(),
                    r.periodUs(),
                    r.resolutionUs()));
        }
        md.append(String.join("; ", searched)).append(".\n\n");

        md.append("## Result\n\n").append(summary).append('\n');
        md.append("## Frontier\n\n").append(FrontierReport.markdown(result, frontierPlotted));
        if (plotted) {
            md.append("![p99 and max against the budget](")
                    .append(PLOT)
                    .append(".png) ([SVG](")
                    .append(PLOT)
                    .append(".svg)): each point's runs as dots, the mean over its runs as a line per period, the "
                            + "SLO as horizontal lines.\n\n");
        }
        md.append("## Every point, in the order tried\n\n")
                .append(points(out, result))
                .append('\n');
        md.append("## Noise\n\n").append(notes(result)).append('\n');
        md.append("Each run's own reports (the demo's summary.md, the probe's folder, applied.json with what the "
                + "backend set and measured): `points/NN-BUDGET_PERIOD/rep-R/`.\n\n");
        md.append("## Environment\n\n");
        MarkdownTable env = new MarkdownTable(List.of("fact", "value"));
        environment.forEach((k, v) -> env.row(List.of(k, v)));
        md.append(env).append('\n');
        Files.writeString(out.resolve(MARKDOWN), md.toString(), StandardCharsets.UTF_8);
        return summary;
    }

    /** The answer: the lowest utilization that passed, or why there is none. */
    static String summary(TuneResult result) {
        StringBuilder s = new StringBuilder();
        var best = result.best();
        if (best.isPresent()) {
            PeriodOutcome b = best.get();
            s.append(String.format(
                    Locale.ROOT,
                    "**Smallest budget that meets the SLO: %d us every %d us (%s of one CPU " + "per CPU)**",
                    b.smallestPassingUs(),
                    b.range().periodUs(),
                    percent(b.utilization())));
            if (result.periods().size() > 1) {
                s.append(", the lowest share of the ")
                        .append(result.periods().size())
                        .append(" periods searched");
            }
            s.append(": ").append(outcomeText(b)).append(".\n");
        } else if (!result.stoppedEarly()) {
            s.append("**No budget in the range meets the SLO**: ");
            s.append(result.periods().stream()
                            .map(p -> outcomeText(p) + " (period " + p.range().periodUs() + " us)")
                            .reduce((a, c) -> a + "; " + c)
                            .orElse(""))
                    .append(".\n");
        }
        if (result.interrupted()) {
            s.append("**Interrupted (Ctrl-C)**: ")
                    .append(result.interruption())
                    .append(". The points measured before it are below; the answer is incomplete");
            result.periods().stream()
                    .filter(p -> p.status() == TuneResult.Status.INTERRUPTED)
                    .forEach(p -> s.append(" (period ")
                            .append(p.range().periodUs())
                            .append(" us: ")
                            .append(outcomeText(p))
                            .append(")"));
            s.append(".\n");
        } else if (result.stoppedEarly()) {
            s.append("**The search stopped early**: ")
                    .append(result.failure())
                    .append(". The points before it are below; the answer is incomplete.\n");
        }
        return s.toString();
    }

    private static String outcomeText(PeriodOutcome p) {
        SearchRange r = p.range();
        return switch (p.status()) {
            case FOUND ->
                String.format(
                        Locale.ROOT,
                        "%d us passed and %d us failed, so the smallest budget that meets "
                                + "the SLO lies between them (if latency does not improve as the budget shrinks)",
                        p.smallestPassingUs(),
                        p.largestFailingUs());
            case LOWER_BOUND_PASSES ->
                String.format(
                        Locale.ROOT,
                        "even the lower bound %d us passed: a smaller budget "
                                + "may meet the SLO too (lower --min-budget-us)",
                        r.minBudgetUs());
            case NONE_PASSES -> String.format(Locale.ROOT, "the upper bound %d us failed", r.maxBudgetUs());
            case STOPPED ->
                "a run failed"
                        + (p.smallestPassingUs() == null
                                ? ""
                                : String.format(
                                        Locale.ROOT,
                                        " (%d us had passed%s)",
                                        p.smallestPassingUs(),
                                        p.largestFailingUs() == null
                                                ? ""
                                                : ", " + p.largestFailingUs() + " us had failed"));
            case NOT_SEARCHED -> "not searched (the search had stopped)";
            case OPEN ->
                p.smallestPassingUs() == null
                        ? p.largestFailingUs() == null
                                ? "no point measured"
                                : "no budget passed; " + p.largestFailingUs() + " us failed"
                        : String.format(
                                Locale.ROOT,
                                "%d us passed, and the search ended before a failing budget within the resolution "
                                        + "below it was measured (%s), so the smallest passing budget is at most that",
                                p.smallestPassingUs(),
                                p.largestFailingUs() == null
                                        ? "none below it failed"
                                        : p.largestFailingUs() + " us failed");
            case INTERRUPTED ->
                "interrupted"
                        + (p.smallestPassingUs() == null
                                ? ", no budget had passed yet"
                                : String.format(
                                        Locale.ROOT,
                                        " when %d us had passed%s",
                                        p.smallestPassingUs(),
                                        p.largestFailingUs() == null
                                                ? ""
                                                : " and " + p.largestFailingUs() + " us had failed"));
        };
    }

    private static String points(Path out, TuneResult result) {
        MarkdownTable t = new MarkdownTable(
                List.of(
                        "point",
                        "budget / period (us)",
                        "share",
                        "run",
                        "exit",
                        "p50",
                        "p99",
                        "max",
                        "lost",
                        "throttled",
                        "run meets SLO",
                        "point",
                        "folder"),
                true,
                false,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                false,
                false,
                false);
        for (TriedPoint p : result.points()) {
            String verdict = p.verdict().text
                    + (p.runs().isEmpty()
                            ? ""
                            : " (" + p.runsMeetingSlo() + " of " + p.runs().size() + ")");
            String label = p.budgetUs() + " / " + p.periodUs();
            if (p.runs().isEmpty()) {
                t.row(List.of(
                        Integer.toString(p.number()),
                        label,
                        percent(p.utilization()),
                        "-",
                        "-",
                        "-",
                        "-",
                        "-",
                        "-",
                        "-",
                        "-",
                        verdict,
                        "-"));
            }
            for (int i = 0; i < p.runs().size(); i++) {
                TriedPoint.Run run = p.runs().get(i);
                RowRun r = run.result();
                double throttled = ExperimentReport.throttled(r);
                boolean first = i == 0;
                t.row(List.of(
                        first ? Integer.toString(p.number()) : "",
                        first ? label : "",
                        first ? percent(p.utilization()) : "",
                        Integer.toString(r.repetition()),
                        Integer.toString(r.exitCode()),
                        ExperimentReport.ms(r.steady().p50()),
                        ExperimentReport.ms(r.steady().p99()),
                        ExperimentReport.ms(r.steady().max()),
                        Long.toString(r.lost()),
                        Double.isNaN(throttled) ? "-" : percent(throttled),
                        run.metSlo() ? "yes" : "no",
                        first ? verdict : "",
                        "`" + relative(out, r.dir()) + "`"));
            }
        }
        return t.toString();
    }

    static String notes(TuneResult result) {
        StringBuilder s = new StringBuilder();
        List<TriedPoint> noisy = result.noisy();
        List<NonMonotonic> nonMonotonic = result.nonMonotonic();
        if (noisy.isEmpty() && nonMonotonic.isEmpty()) {
            return "No point's runs disagreed, and no run met the SLO at a budget below one where a run missed it: "
                    + "within these runs, a larger budget was never worse.\n";
        }
        for (TriedPoint p : noisy) {
            s.append(String.format(
                    Locale.ROOT,
                    "- Noisy: point %d (%d / %d us): %d of %d runs met the SLO. Its first "
                            + "runs disagreed, so it was run %d times; it fails, as a budget that misses the SLO in any run "
                            + "does.%n",
                    p.number(),
                    p.budgetUs(),
                    p.periodUs(),
                    p.runsMeetingSlo(),
                    p.runs().size(),
                    p.runs().size()));
        }
        for (NonMonotonic n : nonMonotonic) {
            s.append(String.format(
                    Locale.ROOT,
                    "- Not monotonic: at %d / %d us %d of %d run(s) met the SLO, although "
                            + "at the larger %d us %d of %d missed it: run-to-run noise is as large as the difference "
                            + "between these budgets, so the boundary is no sharper than that.%n",
                    n.lowerBudgetUs(),
                    n.periodUs(),
                    n.lowerMet(),
                    n.lowerRuns(),
                    n.higherBudgetUs(),
                    n.higherMissed(),
                    n.higherRuns()));
        }
        return s.toString();
    }

    /** One line per run: the point, its verdict and share, whether the run met the SLO, then runs.csv's columns. */
    static String csv(TuneResult result) {
        List<RowRun> runs = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        for (TriedPoint p : result.points()) {
            for (TriedPoint.Run run : p.runs()) {
                runs.add(run.result());
                prefixes.add(String.format(
                        Locale.ROOT,
                        "%d,%s,%.6f,%s,",
                        p.number(),
                        p.verdict().name().toLowerCase(Locale.ROOT),
                        p.utilization(),
                        run.metSlo()));
            }
        }
        String[] lines = ExperimentReport.csv(runs).split("\n");
        StringBuilder csv = new StringBuilder("point,point_verdict,utilization,met_slo,")
                .append(lines[0])
                .append('\n');
        for (int i = 1; i < lines.length; i++) {
            csv.append(prefixes.get(i - 1)).append(lines[i]).append('\n');
        }
        return csv.toString();
    }

    /** {@link #write} with the environment facts of the runs measured. */
    public static String writeWithEnvironment(
            Path out, ExperimentSpec base, Path baseFile, BudgetSearch.Settings settings, TuneResult result)
            throws IOException {
        List<RowRun> runs = result.points().stream()
                .flatMap(p -> p.runs().stream())
                .map(TriedPoint.Run::result)
                .toList();
        return write(out, base, baseFile, settings, result, Environment.facts(runs));
    }

    /** The experiment's plot with one row per point tried; false where fewer than two budgets were measured. */
    private static boolean plot(Path out, ExperimentSpec base, TuneResult result) throws IOException {
        Map<Row, List<RowRun>> byPoint = new LinkedHashMap<>();
        for (TriedPoint p : result.points()) {
            for (TriedPoint.Run run : p.measuredRuns()) {
                byPoint.computeIfAbsent(run.result().row(), k -> new ArrayList<>())
                        .add(run.result());
            }
        }
        return ExperimentReport.budgetPlot(out, base.name(), base.slo(), byPoint);
    }

    private static String relative(Path out, Path dir) {
        try {
            return out.toAbsolutePath()
                    .normalize()
                    .relativize(dir.toAbsolutePath().normalize())
                    .toString();
        } catch (IllegalArgumentException e) {
            return dir.toString();
        }
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.2f%%", share * 100);
    }

    private static String us(Long v) {
        return v == null ? "-" : v + " us";
    }
}
