package org.itsrt.experiments.online;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.itsrt.cli.Numbers;
import org.itsrt.probe.report.Charts;
import org.itsrt.probe.report.MarkdownTable;
import org.itsrt.probe.report.ProbeSummary;
import org.itsrt.producers.send.LoadStep;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * What a budget that followed the load did: {@code online.csv} (one row per interval),
 * {@code online.md} (the SLO kept, the CPU it cost against a fixed budget sized for the peak, the
 * run's latency) and {@code online.png}/{@code .svg} (budget and p99 over time in one plot).
 */
public final class OnlineReport {

    public static final String MARKDOWN = "online.md";
    public static final String CSV = "online.csv";
    public static final String PLOT = "online";

    /**
     * The figures of a run.
     *
     * @param intervals          intervals with arrivals
     * @param metSlo             of those, intervals whose p99 met the SLO
     * @param budgetCpuSeconds   the budget in force, summed over the intervals, in CPU-seconds (all CPUs)
     * @param peakCpuSeconds     the same for a fixed budget at the largest budget the controller raised it
     *                           to: what it found the load's peak needs (the ceiling it starts at is no
     *                           finding; where it never raised the budget, the largest it held)
     * @param ceilingCpuSeconds  the same for a fixed budget at the ceiling
     * @param usedCpuSeconds     what the group used (NaN where the kernel does not count it)
     * @param peakBudgetUs       that budget
     */
    public record Figures(
            long intervals,
            long metSlo,
            double budgetCpuSeconds,
            double peakCpuSeconds,
            double ceilingCpuSeconds,
            double usedCpuSeconds,
            long peakBudgetUs) {

        public double sloRatio() {
            return intervals == 0 ? Double.NaN : (double) metSlo / intervals;
        }

        /** The CPU the following budget saved against a fixed one at the peak it found. */
        public double savedAgainstPeak() {
            return peakCpuSeconds > 0 ? 1 - budgetCpuSeconds / peakCpuSeconds : Double.NaN;
        }

        public double savedAgainstCeiling() {
            return ceilingCpuSeconds > 0 ? 1 - budgetCpuSeconds / ceilingCpuSeconds : Double.NaN;
        }
    }

    private OnlineReport() {}

    /** The figures of {@code steps}, each interval weighted by its length. */
    public static Figures figures(List<OnlineStep> steps, double sloP99Ms, long ceilingUs, int vcpus) {
        long intervals = 0;
        long met = 0;
        double budget = 0;
        double used = 0;
        double seconds = 0;
        long peakHeld = 0;
        long peakRaised = 0;
        double last = 0;
        for (OnlineStep s : steps) {
            double length = s.seconds() - last;
            last = s.seconds();
            seconds += length;
            budget += s.cpuShare() * vcpus * length;
            used += s.usedCpus() * length;
            peakHeld = Math.max(peakHeld, s.budgetUs());
            if (s.action() == BudgetController.Action.INCREASE || s.action() == BudgetController.Action.FOLLOW_LOAD) {
                peakRaised = Math.max(peakRaised, s.nextBudgetUs());
            }
            if (s.records() > 0) {
                intervals++;
                if (s.met(sloP99Ms)) {
                    met++;
                }
            }
        }
        long peak = peakRaised > 0 ? peakRaised : peakHeld;
        long periodUs = steps.isEmpty() ? 1 : steps.get(0).periodUs();
        return new Figures(
                intervals,
                met,
                budget,
                (double) peak / periodUs * vcpus * seconds,
                (double) ceilingUs / periodUs * vcpus * seconds,
                used,
                peak);
    }

    /**
     * Writes the three files into {@code dir}.
     *
     * @param probe the run's probe summary; null when the probe wrote none
     * @param step  the load's step, shaded from the first interval with arrivals
     */
    public static Figures write(Path dir, OnlineBudget budget, ProbeSummary probe, LoadStep step, List<String> facts)
            throws IOException {
        List<OnlineStep> steps = budget.steps();
        BudgetController.Settings c = budget.settings();
        Figures f = figures(steps, c.sloP99Ms(), c.ceilingUs(), budget.vcpus());
        Files.writeString(dir.resolve(CSV), csv(steps));
        double stepStart = firstArrivalSeconds(steps, budget.interval().toMillis() / 1e3);
        plot(dir, steps, c, budget.vcpus(), step, stepStart);
        Files.writeString(dir.resolve(MARKDOWN), markdown(budget, f, probe, step, facts));
        return f;
    }

    static String csv(List<OnlineStep> steps) {
        StringBuilder out = new StringBuilder(
                "seconds,budget_us,period_us,cpu_share,records,records_per_s,p50_ms,p99_ms,max_ms,throttled_share,"
                        + "used_cpus,action,next_budget_us,why\n");
        for (OnlineStep s : steps) {
            out.append(String.format(
                    Locale.ROOT,
                    "%.3f,%d,%d,%.4f,%d,%.1f,%s,%s,%s,%.4f,%s,%s,%d,\"%s\"%n",
                    s.seconds(),
                    s.budgetUs(),
                    s.periodUs(),
                    s.cpuShare(),
                    s.records(),
                    s.recordsPerS(),
                    number(s.p50Ms()),
                    number(s.p99Ms()),
                    number(s.maxMs()),
                    s.throttledShare(),
                    number(s.usedCpus()),
                    s.action().name().toLowerCase(Locale.ROOT),
                    s.nextBudgetUs(),
                    s.why().replace("\"", "'")));
        }
        return out.toString();
    }

    private static String number(double x) {
        return Double.isNaN(x) ? "" : String.format(Locale.ROOT, "%.3f", x);
    }

    /** When the first records arrived, less one interval: where the load's schedule began, to an interval. */
    static double firstArrivalSeconds(List<OnlineStep> steps, double intervalS) {
        for (OnlineStep s : steps) {
            if (s.records() > 0) {
                return Math.max(0, s.seconds() - intervalS);
            }
        }
        return 0;
    }

    static String markdown(OnlineBudget budget, Figures f, ProbeSummary probe, LoadStep step, List<String> facts) {
        BudgetController.Settings c = budget.settings();
        long period = budget.periodUs();
        StringBuilder md = new StringBuilder("# A budget that follows the load\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Every %s the controller took the p99 of the records that arrived and the load, and set the cgroup "
                        + "quota of the job's process between %,d and %,d us per CPU every %,d us (%.1f-%.1f %% of a CPU, "
                        + "%d CPUs): x%s on a p99 over %s ms in a throttled interval, the load's factor when it rose by more than %.0f %%, "
                        + "x%s after %d intervals in a row under %.0f %% of the SLO (docs/deadlines.md, section 6). "
                        + "Load: %s.%n%n",
                org.itsrt.cli.Durations.format(budget.interval()),
                c.floorUs(),
                c.ceilingUs(),
                period,
                100.0 * c.floorUs() / period,
                100.0 * c.ceilingUs() / period,
                budget.vcpus(),
                Numbers.plain(c.increaseFactor()),
                Numbers.plain(c.sloP99Ms()),
                (c.loadRise() - 1) * 100,
                Numbers.plain(c.decreaseFactor()),
                c.calmIntervals(),
                c.calmBelow() * 100,
                step.describe()));
        MarkdownTable table = new MarkdownTable(List.of("", "value"), false, true);
        table.row(List.of(
                "intervals meeting the SLO (p99 <= " + Numbers.plain(c.sloP99Ms()) + " ms)",
                String.format(Locale.ROOT, "%d of %d (%.1f %%)", f.metSlo(), f.intervals(), f.sloRatio() * 100)));
        table.row(List.of("budget in force, CPU-seconds", String.format(Locale.ROOT, "%.1f", f.budgetCpuSeconds())));
        table.row(List.of(
                String.format(
                        Locale.ROOT,
                        "a fixed budget at the largest it raised the budget to (%,d us, %.1f %%), CPU-seconds",
                        f.peakBudgetUs(),
                        100.0 * f.peakBudgetUs() / period),
                String.format(
                        Locale.ROOT, "%.1f (saved: **%.1f %%**)", f.peakCpuSeconds(), f.savedAgainstPeak() * 100)));
        table.row(List.of(
                "a fixed budget at the ceiling, CPU-seconds",
                String.format(
                        Locale.ROOT, "%.1f (saved: %.1f %%)", f.ceilingCpuSeconds(), f.savedAgainstCeiling() * 100)));
        if (!Double.isNaN(f.usedCpuSeconds())) {
            table.row(List.of(
                    "CPU the job's process used, CPU-seconds", String.format(Locale.ROOT, "%.1f", f.usedCpuSeconds())));
        }
        if (probe != null) {
            ProbeSummary.LatencyStats all = probe.latency().fromIntended().all();
            table.row(List.of(
                    "measured records: p50 / p99 / p99.9 / max (ms, from the intended send)",
                    String.format(
                            Locale.ROOT,
                            "%s / %s / %s / %s (%,d records)",
                            ms(all.p50Ms()),
                            ms(all.p99Ms()),
                            ms(all.p999Ms()),
                            ms(all.maxMs()),
                            all.count())));
        }
        md.append(table).append('\n');
        md.append("![budget and p99 over time](").append(PLOT).append(".png)\n\n");
        md.append("The budget of each interval, its records and p99, and each decision: [")
                .append(CSV)
                .append("](")
                .append(CSV)
                .append(").\n\n");
        if (!facts.isEmpty()) {
            md.append("## The run\n\n");
            facts.forEach(line -> md.append("- ").append(line).append('\n'));
        }
        return md.toString();
    }

    private static String ms(Double x) {
        return x == null ? "-" : String.format(Locale.ROOT, "%.2f", x);
    }

    private static void plot(
            Path dir,
            List<OnlineStep> steps,
            BudgetController.Settings c,
            int vcpus,
            LoadStep step,
            double scheduleStartS)
            throws IOException {
        XYChart chart = new XYChartBuilder()
                .width(Charts.WIDTH)
                .height(Charts.HEIGHT)
                .title("A budget that follows the load: budget and p99 per interval")
                .xAxisTitle("time since the budget was applied (s)")
                .build();
        chart.setYAxisGroupTitle(0, "budget (% of a CPU, per CPU)");
        chart.setYAxisGroupTitle(1, "p99 of the interval (ms)");
        chart.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setChartTitleBoxVisible(false);
        if (steps.isEmpty()) {
            chart.addSeries("no interval", new double[] {0}, new double[] {0});
            Charts.save(chart, dir, PLOT);
            return;
        }
        double[] t = steps.stream().mapToDouble(OnlineStep::seconds).toArray();
        double[] budget = steps.stream().mapToDouble(s -> s.cpuShare() * 100).toArray();
        double ceiling = 100.0 * c.ceilingUs() / steps.get(0).periodUs();
        if (!step.isNone()) {
            double from = scheduleStartS + step.at().toNanos() / 1e9;
            double to = from + step.length().toNanos() / 1e9;
            XYSeries shade = chart.addSeries(
                    "load x" + Numbers.plain(step.factor()),
                    new double[] {from, from, to, to},
                    new double[] {0, ceiling, ceiling, 0});
            shade.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.PolygonArea);
            shade.setMarker(SeriesMarkers.NONE);
            shade.setFillColor(new java.awt.Color(127, 127, 127, 60));
            shade.setLineColor(new java.awt.Color(127, 127, 127, 60));
        }
        XYSeries b = chart.addSeries("budget", t, budget);
        b.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
        b.setMarker(SeriesMarkers.NONE);
        b.setLineColor(new java.awt.Color(31, 119, 180));
        List<Double> usedT = new ArrayList<>();
        List<Double> used = new ArrayList<>();
        List<Double> p99T = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        for (OnlineStep s : steps) {
            if (!Double.isNaN(s.usedCpus())) {
                usedT.add(s.seconds());
                // Per CPU of the group, as the budget is.
                used.add(s.usedCpus() * 100 / vcpus);
            }
            if (s.records() > 0) {
                p99T.add(s.seconds());
                p99.add(s.p99Ms());
            }
        }
        if (!usedT.isEmpty()) {
            XYSeries u = chart.addSeries("CPU used", usedT, used);
            u.setMarker(SeriesMarkers.NONE);
            u.setLineColor(new java.awt.Color(44, 160, 44));
        }
        if (!p99T.isEmpty()) {
            XYSeries p = chart.addSeries("p99", p99T, p99);
            p.setYAxisGroup(1);
            p.setMarker(SeriesMarkers.CIRCLE);
            p.setLineColor(new java.awt.Color(214, 39, 40));
            p.setMarkerColor(new java.awt.Color(214, 39, 40));
            XYSeries slo = chart.addSeries(
                    "SLO " + Numbers.plain(c.sloP99Ms()) + " ms",
                    new double[] {t[0], t[t.length - 1]},
                    new double[] {c.sloP99Ms(), c.sloP99Ms()});
            slo.setYAxisGroup(1);
            slo.setMarker(SeriesMarkers.NONE);
            slo.setLineColor(new java.awt.Color(140, 0, 0));
        }
        Charts.save(chart, dir, PLOT);
    }
}
