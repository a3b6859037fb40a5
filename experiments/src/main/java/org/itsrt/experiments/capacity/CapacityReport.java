package org.itsrt.experiments.capacity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.itsrt.probe.report.Charts;
import org.itsrt.probe.report.MarkdownTable;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A capacity search's folder: {@code capacity.md} (the answer with its spread, a row per point),
 * {@code points.csv} (a row per run) and {@code capacity.png}/{@code .svg} (p99 of every run
 * against the rate, with the SLO line).
 */
public final class CapacityReport {

    public static final String MARKDOWN = "capacity.md";
    public static final String CSV = "points.csv";
    public static final String PLOT = "capacity";
    public static final String CSV_HEADER =
            "point,rate,repetition,exit_code,p99_ms,answered,lost,lag_slope_ms_per_s,lag_windows,met_slo,verdict,dir";

    private CapacityReport() {}

    /** Writes the folder's files; returns the answer in one line. */
    public static String write(Path out, CapacityPlan plan, CapacityResult result) throws IOException {
        Files.createDirectories(out);
        Files.writeString(out.resolve(CSV), csv(out, result), StandardCharsets.UTF_8);
        boolean plotted = plot(out, plan, result);
        String answer = answer(result);
        Files.writeString(out.resolve(MARKDOWN), markdown(out, plan, result, answer, plotted), StandardCharsets.UTF_8);
        return answer;
    }

    /** The answer in one line: the capacity, the bracket, the p99 spread of its runs. */
    static String answer(CapacityResult result) {
        String rate = result.largestPassing() == null ? null : CapacitySlo.number(result.largestPassing());
        String spread = result.at(result.largestPassing())
                .map(p -> {
                    DoubleSummaryStatistics p99 = p.runs().stream()
                            .mapToDouble(r -> r.result().p99Ms())
                            .summaryStatistics();
                    DoubleSummaryStatistics lag = p.runs().stream()
                            .mapToDouble(r -> r.result().lag().slopeMsPerS())
                            .summaryStatistics();
                    return String.format(
                            Locale.ROOT,
                            "; its %d runs: p99 %.2f..%.2f ms, lag slope %.2f..%.2f ms/s",
                            p.runs().size(),
                            p99.getMin(),
                            p99.getMax(),
                            lag.getMin(),
                            lag.getMax());
                })
                .orElse("");
        return switch (result.status()) {
            case FOUND ->
                "capacity: " + rate + " requests/s (" + CapacitySlo.number(result.smallestFailing()) + " failed)"
                        + spread;
            case UPPER_BOUND_PASSES ->
                "capacity: at least " + rate + " requests/s, the upper bound (it passed; raise --max-rate)" + spread;
            case NONE_PASSES ->
                "capacity: below " + CapacitySlo.number(result.smallestFailing())
                        + " requests/s, the lower bound (it failed; lower --min-rate)";
            case STOPPED ->
                "no capacity: the search stopped (" + result.failure() + ")"
                        + (rate == null ? "" : "; " + rate + " requests/s passed" + spread);
        };
    }

    private static String csv(Path out, CapacityResult result) {
        StringBuilder csv = new StringBuilder(CSV_HEADER).append('\n');
        for (RatePoint p : result.points()) {
            int rep = 0;
            for (RatePoint.Run r : p.runs()) {
                RateRun run = r.result();
                csv.append(String.join(
                                ",",
                                Integer.toString(p.number()),
                                CapacitySlo.number(p.rate()),
                                Integer.toString(++rep),
                                Integer.toString(run.exitCode()),
                                fixed(run.p99Ms()),
                                Long.toString(run.answered()),
                                Long.toString(run.lost()),
                                fixed(run.lag().slopeMsPerS()),
                                Integer.toString(run.lag().windows()),
                                Boolean.toString(r.metSlo()),
                                p.verdict().name().toLowerCase(Locale.ROOT),
                                run.dir() == null ? "" : relative(out, run.dir())))
                        .append('\n');
            }
        }
        return csv.toString();
    }

    private static String markdown(Path out, CapacityPlan plan, CapacityResult result, String answer, boolean plotted) {
        CapacitySlo slo = plan.settings().slo();
        StringBuilder md = new StringBuilder("# Capacity: route requests per second within the SLO\n\n");
        md.append("**").append(answer).append("**\n\n");
        md.append(plan.describe().strip().replace("\n", "\n\n")).append("\n\n");
        md.append(String.format(
                Locale.ROOT,
                "A point passes only if every run meets the SLO (p99 <= %s ms, lag slope <= %s ms/s, every request "
                        + "answered, exit code 0); runs that disagree are run up to %d times.%n%n",
                CapacitySlo.number(slo.p99Ms()),
                CapacitySlo.number(slo.lagToleranceMsPerS()),
                plan.settings().maxRepetitions()));
        MarkdownTable table = new MarkdownTable(
                List.of("point", "rate /s", "runs", "met", "p99 ms, each run", "lag slope ms/s, each run", "verdict"));
        for (RatePoint p : result.points()) {
            table.row(List.of(
                    Integer.toString(p.number()),
                    CapacitySlo.number(p.rate()),
                    Integer.toString(p.runs().size()),
                    Integer.toString(p.runsMeetingSlo()),
                    each(p, r -> r.p99Ms()),
                    each(p, r -> r.lag().slopeMsPerS()),
                    p.verdict().text));
        }
        md.append(table).append('\n');
        List<String> misses = new ArrayList<>();
        for (RatePoint p : result.points()) {
            int rep = 0;
            for (RatePoint.Run r : p.runs()) {
                rep++;
                List<String> why = slo.misses(r.result());
                if (!why.isEmpty()) {
                    misses.add("- point " + p.number() + " (" + CapacitySlo.number(p.rate()) + "/s), run " + rep + ": "
                            + String.join(", ", why));
                }
            }
        }
        if (!misses.isEmpty()) {
            md.append("Runs that missed the SLO:\n\n")
                    .append(String.join("\n", misses))
                    .append("\n\n");
        }
        if (plotted) {
            md.append("![p99 against the rate](").append(PLOT).append(".png)\n\n");
        }
        md.append("Every run: `")
                .append(CSV)
                .append("`; its folder: `")
                .append(PipelineRateEvaluator.POINTS_DIR)
                .append("/NN-RATE/rep-R/` (the run's own summary.md, `probe/routes/` for the answers).\n");
        return md.toString();
    }

    private static String each(RatePoint p, java.util.function.ToDoubleFunction<RateRun> value) {
        return p.runs().stream()
                .map(r -> String.format(Locale.ROOT, "%.2f", value.applyAsDouble(r.result())))
                .collect(Collectors.joining(", "));
    }

    /** p99 of every run and their mean per rate against the rate, with the SLO line; false with fewer than two rates. */
    private static boolean plot(Path out, CapacityPlan plan, CapacityResult result) throws IOException {
        List<RatePoint> sorted = result.points().stream()
                .filter(p -> !p.runs().isEmpty())
                .sorted(java.util.Comparator.comparingDouble(RatePoint::rate))
                .toList();
        if (sorted.size() < 2) {
            return false;
        }
        List<Double> rates = new ArrayList<>();
        List<Double> means = new ArrayList<>();
        List<Double> dotsX = new ArrayList<>();
        List<Double> dotsY = new ArrayList<>();
        for (RatePoint p : sorted) {
            rates.add(p.rate());
            means.add(p.runs().stream()
                    .mapToDouble(r -> r.result().p99Ms())
                    .average()
                    .orElse(Double.NaN));
            for (RatePoint.Run r : p.runs()) {
                dotsX.add(p.rate());
                dotsY.add(r.result().p99Ms());
            }
        }
        XYChart chart = new XYChartBuilder()
                .width(Charts.WIDTH)
                .height(Charts.HEIGHT)
                .title("requests -> answers p99 against the request rate")
                .xAxisTitle("route requests per second")
                .yAxisTitle("p99 from the intended send time (ms)")
                .build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.addSeries("p99 (mean)", rates, means).setMarker(SeriesMarkers.CIRCLE);
        chart.addSeries("p99 (each run)", dotsX, dotsY).setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        double target = plan.settings().slo().p99Ms();
        chart.addSeries("SLO p99", List.of(rates.get(0), rates.get(rates.size() - 1)), List.of(target, target))
                .setMarker(SeriesMarkers.NONE);
        Charts.save(chart, out, PLOT);
        return true;
    }

    private static String fixed(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
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
}
