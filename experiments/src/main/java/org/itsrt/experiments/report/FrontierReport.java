package org.itsrt.experiments.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.itsrt.experiments.tune.SearchRange;
import org.itsrt.experiments.tune.TuneResult;
import org.itsrt.experiments.tune.TuneResult.PeriodOutcome;
import org.itsrt.probe.report.Charts;
import org.itsrt.probe.report.MarkdownTable;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A tune's frontier: per period, the smallest budget that met the SLO and the failing budget
 * below it (the bracket), shortest period first, as tune.md's table, {@code frontier.csv} and
 * {@code frontier.png}, with the Pareto view of which periods are dominated.
 */
final class FrontierReport {

    private FrontierReport() {}

    /** The periods, shortest first: the frontier reads from left to right. */
    private static List<PeriodOutcome> byPeriod(TuneResult result) {
        return result.periods().stream()
                .sorted(Comparator.comparingLong(p -> p.range().periodUs()))
                .toList();
    }

    private static int runs(TuneResult result, long periodUs) {
        return result.points().stream()
                .filter(p -> p.periodUs() == periodUs)
                .mapToInt(p -> p.runs().size())
                .sum();
    }

    /** One line per period: period_us, budget_us, cpu_share, failed_below_us, runs, status (empty: none). */
    static String csv(TuneResult result) {
        StringBuilder csv = new StringBuilder("period_us,budget_us,cpu_share,failed_below_us,runs,status\n");
        for (PeriodOutcome p : byPeriod(result)) {
            csv.append(p.range().periodUs())
                    .append(',')
                    .append(p.smallestPassingUs() == null ? "" : p.smallestPassingUs())
                    .append(',')
                    .append(p.smallestPassingUs() == null ? "" : String.format(Locale.ROOT, "%.6f", p.utilization()))
                    .append(',')
                    .append(p.largestFailingUs() == null ? "" : p.largestFailingUs())
                    .append(',')
                    .append(runs(result, p.range().periodUs()))
                    .append(',')
                    .append(p.status().name().toLowerCase(Locale.ROOT))
                    .append('\n');
        }
        return csv.toString();
    }

    /** The table, and which periods are dominated. */
    static String markdown(TuneResult result, boolean plotted) {
        MarkdownTable t = new MarkdownTable(
                List.of(
                        "period",
                        "budgets searched",
                        "resolution",
                        "points",
                        "runs",
                        "smallest passing",
                        "share",
                        "failed below",
                        "result",
                        "Pareto"),
                true,
                false,
                true,
                true,
                true,
                true,
                true,
                true,
                false,
                false);
        Optional<PeriodOutcome> chosen = result.best();
        for (PeriodOutcome p : byPeriod(result)) {
            SearchRange r = p.range();
            long points = result.points().stream()
                    .filter(pt -> pt.periodUs() == r.periodUs())
                    .count();
            t.row(List.of(
                    r.periodUs() + " us",
                    r.minBudgetUs() + ".." + r.maxBudgetUs() + " us",
                    r.resolutionUs() + " us",
                    Long.toString(points),
                    Integer.toString(runs(result, r.periodUs())),
                    us(p.smallestPassingUs()),
                    p.smallestPassingUs() == null ? "-" : percent(p.utilization()),
                    us(p.largestFailingUs()),
                    p.status().name().toLowerCase(Locale.ROOT).replace('_', ' '),
                    pareto(result, p, chosen)));
        }
        StringBuilder md = new StringBuilder();
        md.append("Per period, the smallest budget that met the SLO and the failing budget below it: a (period, "
                + "budget) pair at or above the smallest passing budget meets the SLO, if latency does not improve as "
                + "the budget shrinks. A period is *dominated* when a shorter one met the SLO at no larger share of a "
                + "CPU: at equal share the shorter period is the better configuration, since the job is throttled "
                + "for at most period - budget at a time. The chosen point is the lowest share.\n\n");
        md.append(t).append('\n');
        md.append(dominated(result)).append("\n\n");
        if (plotted) {
            md.append("![the frontier](")
                    .append(TuneReport.FRONTIER_PLOT)
                    .append(".png) ([SVG](")
                    .append(TuneReport.FRONTIER_PLOT)
                    .append(".svg)): the smallest passing budget's share per period, the failing budget below it, "
                            + "and the chosen point. Also as `")
                    .append(TuneReport.FRONTIER_CSV)
                    .append("`.\n\n");
        } else {
            md.append("Also as `").append(TuneReport.FRONTIER_CSV).append("`.\n\n");
        }
        return md.toString();
    }

    private static String pareto(TuneResult result, PeriodOutcome p, Optional<PeriodOutcome> chosen) {
        if (!p.passed()) {
            return "-";
        }
        if (chosen.isPresent() && chosen.get().equals(p)) {
            return "chosen";
        }
        return result.dominatedBy(p)
                .map(by -> "dominated by " + by.range().periodUs() + " us")
                .orElse("frontier");
    }

    private static String dominated(TuneResult result) {
        List<String> dominated = new ArrayList<>();
        for (PeriodOutcome p : byPeriod(result)) {
            result.dominatedBy(p)
                    .ifPresent(by -> dominated.add(String.format(
                            Locale.ROOT,
                            "%d us (%s; %d us passed at %s)",
                            p.range().periodUs(),
                            percent(p.utilization()),
                            by.range().periodUs(),
                            percent(by.utilization()))));
        }
        long passed = result.periods().stream().filter(PeriodOutcome::passed).count();
        if (passed < 2) {
            return "Fewer than two periods have a budget that passed: no period dominates another.";
        }
        if (dominated.isEmpty()) {
            return "No period is dominated: each longer period met the SLO at a smaller share than every shorter one.";
        }
        return "Dominated: " + String.join("; ", dominated) + ".";
    }

    /** Share against period, with the chosen point marked; false where no budget passed. */
    static boolean plot(Path out, String name, TuneResult result) throws IOException {
        List<Double> periods = new ArrayList<>();
        List<Double> passing = new ArrayList<>();
        List<Double> failingPeriods = new ArrayList<>();
        List<Double> failing = new ArrayList<>();
        for (PeriodOutcome p : byPeriod(result)) {
            double ms = p.range().periodUs() / 1000.0;
            if (p.smallestPassingUs() != null) {
                periods.add(ms);
                passing.add(100 * p.utilization());
            }
            if (p.largestFailingUs() != null) {
                failingPeriods.add(ms);
                failing.add(100.0 * p.largestFailingUs() / p.range().periodUs());
            }
        }
        if (periods.isEmpty()) {
            return false;
        }
        XYChart chart = new XYChartBuilder()
                .width(Charts.WIDTH)
                .height(Charts.HEIGHT)
                .title("The frontier: the smallest budget that meets the SLO, per period (" + name + ")")
                .xAxisTitle("period (ms" + (logScale(periods) ? ", log scale)" : ")"))
                .yAxisTitle("budget, % of one CPU per CPU (budget / period)")
                .build();
        chart.getStyler().setXAxisLogarithmic(logScale(periods));
        chart.getStyler().setMarkerSize(10);
        chart.addSeries("smallest passing budget", periods, passing).setMarker(SeriesMarkers.CIRCLE);
        if (!failing.isEmpty()) {
            chart.addSeries("failing budget below it", failingPeriods, failing)
                    .setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter)
                    .setMarker(SeriesMarkers.CROSS);
        }
        result.best().ifPresent(best -> chart.addSeries(
                        String.format(
                                Locale.ROOT,
                                "chosen: %d us every %d us (%s)",
                                best.smallestPassingUs(),
                                best.range().periodUs(),
                                percent(best.utilization())),
                        List.of(best.range().periodUs() / 1000.0),
                        List.of(100 * best.utilization()))
                .setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter)
                .setMarker(SeriesMarkers.DIAMOND));
        Charts.save(chart, out, TuneReport.FRONTIER_PLOT);
        return true;
    }

    private static boolean logScale(List<Double> periods) {
        double min = periods.stream().mapToDouble(Double::doubleValue).min().orElse(1);
        double max = periods.stream().mapToDouble(Double::doubleValue).max().orElse(1);
        return max >= 10 * min;
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.2f%%", share * 100);
    }

    private static String us(Long v) {
        return v == null ? "-" : v + " us";
    }
}
