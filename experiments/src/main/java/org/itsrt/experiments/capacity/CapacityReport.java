package org.itsrt.experiments.capacity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.DoubleStream;
import org.itsrt.probe.report.Charts;
import org.itsrt.probe.report.MarkdownTable;
import org.itsrt.records.Workload;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A capacity search's folder: {@code capacity.md} (the answer with its spread, a row per point),
 * {@code points.csv} (a row per run and judged stream) and {@code capacity.png}/{@code .svg} (p99
 * of every run and stream against the load, with the SLO line), each naming the axis and its unit.
 */
public final class CapacityReport {

    public static final String MARKDOWN = "capacity.md";
    public static final String CSV = "points.csv";
    public static final String PLOT = "capacity";

    private CapacityReport() {}

    /** points.csv's header: the load's column is named after the axis's unit ({@link CapacityAxis#column()}). */
    public static String csvHeader(CapacityAxis axis) {
        return "point," + axis.column()
                + ",repetition,stream,exit_code,p99_ms,measured,lost,lag_slope_ms_per_s,lag_windows,met_slo,verdict,dir";
    }

    /** Writes the folder's files; returns the answer in one line. */
    public static String write(Path out, CapacityPlan plan, CapacityResult result) throws IOException {
        Files.createDirectories(out);
        Files.writeString(out.resolve(CSV), csv(out, plan.axis(), result), StandardCharsets.UTF_8);
        boolean plotted = plot(out, plan, result);
        String answer = answer(plan.axis(), result);
        Files.writeString(out.resolve(MARKDOWN), markdown(out, plan, result, answer, plotted), StandardCharsets.UTF_8);
        return answer;
    }

    /** The answer in one line: the capacity, the bracket, the p99 and lag spread of its runs by stream. */
    static String answer(CapacityAxis axis, CapacityResult result) {
        String load = result.largestPassing() == null ? null : axis.quantity(result.largestPassing());
        String spread = result.at(result.largestPassing())
                .map(p -> "; its " + p.runs().size() + " runs: " + spreads(p))
                .orElse("");
        return switch (result.status()) {
            case FOUND ->
                "capacity: " + load + " (" + CapacitySlo.number(result.smallestFailing()) + " failed)" + spread;
            case UPPER_BOUND_PASSES ->
                "capacity: at least " + load + ", the upper bound (it passed; raise --max)" + spread;
            case NONE_PASSES ->
                "capacity: below " + axis.quantity(result.smallestFailing())
                        + ", the lower bound (it failed; lower --min)";
            case STOPPED ->
                "no capacity: the search stopped (" + result.failure() + ")"
                        + (load == null ? "" : "; " + load + " passed" + spread);
        };
    }

    private static String spreads(LoadPoint p) {
        List<String> parts = new ArrayList<>();
        for (Workload.Stream stream : streams(p)) {
            DoubleSummaryStatistics p99 = values(p, stream, StreamRun::p99Ms).summaryStatistics();
            DoubleSummaryStatistics lag =
                    values(p, stream, s -> s.lag().slopeMsPerS()).summaryStatistics();
            parts.add(String.format(
                    Locale.ROOT,
                    "%s p99 %.2f..%.2f ms, lag slope %.2f..%.2f ms/s",
                    stream.measures(),
                    p99.getMin(),
                    p99.getMax(),
                    lag.getMin(),
                    lag.getMax()));
        }
        return String.join("; ", parts);
    }

    /** The streams a point's runs measured, in the order the runs list them. */
    private static List<Workload.Stream> streams(LoadPoint p) {
        return p.runs().stream()
                .flatMap(r -> r.result().streams().stream())
                .map(StreamRun::stream)
                .distinct()
                .toList();
    }

    /** One value of {@code stream} from every run of the point, in order. */
    private static DoubleStream values(LoadPoint p, Workload.Stream stream, ToDoubleFunction<StreamRun> value) {
        return p.runs().stream()
                .flatMap(r -> r.result().streams().stream())
                .filter(s -> s.stream() == stream)
                .mapToDouble(value);
    }

    private static String csv(Path out, CapacityAxis axis, CapacityResult result) {
        StringBuilder csv = new StringBuilder(csvHeader(axis)).append('\n');
        for (LoadPoint p : result.points()) {
            int rep = 0;
            for (LoadPoint.Run r : p.runs()) {
                LoadRun run = r.result();
                rep++;
                for (StreamRun stream : run.streams()) {
                    csv.append(String.join(
                                    ",",
                                    Integer.toString(p.number()),
                                    CapacitySlo.number(p.load()),
                                    Integer.toString(rep),
                                    stream.stream().label(),
                                    Integer.toString(run.exitCode()),
                                    fixed(stream.p99Ms()),
                                    Long.toString(stream.measured()),
                                    Long.toString(stream.lost()),
                                    fixed(stream.lag().slopeMsPerS()),
                                    Integer.toString(stream.lag().windows()),
                                    Boolean.toString(r.metSlo()),
                                    p.verdict().name().toLowerCase(Locale.ROOT),
                                    run.dir() == null ? "" : relative(out, run.dir())))
                            .append('\n');
                }
            }
        }
        return csv.toString();
    }

    private static String markdown(Path out, CapacityPlan plan, CapacityResult result, String answer, boolean plotted) {
        CapacityAxis axis = plan.axis();
        CapacitySlo slo = plan.settings().slo();
        StringBuilder md = new StringBuilder("# Capacity: " + axis.title + " within the SLO\n\n");
        md.append("**").append(answer).append("**\n\n");
        md.append(plan.describe().strip().replace("\n", "\n\n")).append("\n\n");
        md.append(String.format(
                Locale.ROOT,
                "A point passes only if every run meets the SLO (for each stream it judges p99 <= %s ms, lag slope "
                        + "<= %s ms/s and every record delivered; exit code 0); runs that disagree are run up to %d "
                        + "times.%n%n",
                CapacitySlo.number(slo.p99Ms()),
                CapacitySlo.number(slo.lagToleranceMsPerS()),
                plan.settings().maxRepetitions()));
        List<String> columns = new ArrayList<>(List.of("point", axis.unit, "runs", "met"));
        for (Workload.Stream stream : plan.judged()) {
            columns.add(stream.measures() + " p99 ms, each run");
            columns.add(stream.measures() + " lag slope ms/s, each run");
        }
        columns.add("verdict");
        MarkdownTable table = new MarkdownTable(columns);
        for (LoadPoint p : result.points()) {
            List<String> row = new ArrayList<>(List.of(
                    Integer.toString(p.number()),
                    CapacitySlo.number(p.load()),
                    Integer.toString(p.runs().size()),
                    Integer.toString(p.runsMeetingSlo())));
            for (Workload.Stream stream : plan.judged()) {
                row.add(each(p, stream, StreamRun::p99Ms));
                row.add(each(p, stream, s -> s.lag().slopeMsPerS()));
            }
            row.add(p.verdict().text);
            table.row(row);
        }
        md.append(table).append('\n');
        List<String> misses = new ArrayList<>();
        for (LoadPoint p : result.points()) {
            int rep = 0;
            for (LoadPoint.Run r : p.runs()) {
                rep++;
                List<String> why = slo.misses(r.result());
                if (!why.isEmpty()) {
                    misses.add("- point " + p.number() + " (" + axis.quantity(p.load()) + "), run " + rep + ": "
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
            md.append("![p99 against the ")
                    .append(axis.unit)
                    .append("](")
                    .append(PLOT)
                    .append(".png)\n\n");
        }
        md.append("Every run: `")
                .append(CSV)
                .append("`; its folder: `")
                .append(PipelineLoadEvaluator.POINTS_DIR)
                .append("/NN-LOAD/rep-R/` (the run's own summary.md; `probe/predictions/` for the predictions, "
                        + "`probe/routes/` for the answers).\n");
        return md.toString();
    }

    private static String each(LoadPoint p, Workload.Stream stream, ToDoubleFunction<StreamRun> value) {
        return values(p, stream, value)
                .mapToObj(v -> String.format(Locale.ROOT, "%.2f", v))
                .collect(Collectors.joining(", "));
    }

    /**
     * p99 of every run and their mean per load against the load, a pair of series per judged
     * stream, with the SLO line; false with fewer than two loads.
     */
    private static boolean plot(Path out, CapacityPlan plan, CapacityResult result) throws IOException {
        List<LoadPoint> sorted = result.points().stream()
                .filter(p -> !p.runs().isEmpty())
                .sorted(Comparator.comparingDouble(LoadPoint::load))
                .toList();
        if (sorted.size() < 2) {
            return false;
        }
        CapacityAxis axis = plan.axis();
        XYChart chart = new XYChartBuilder()
                .width(Charts.WIDTH)
                .height(Charts.HEIGHT)
                .title("p99 against the " + axis.title)
                .xAxisTitle(axis.title)
                .yAxisTitle("p99 from the intended send time (ms)")
                .build();
        chart.getStyler().setYAxisLogarithmic(true);
        List<Double> loads = sorted.stream().map(LoadPoint::load).toList();
        for (Workload.Stream stream : plan.judged()) {
            List<Double> means = new ArrayList<>();
            List<Double> dotsX = new ArrayList<>();
            List<Double> dotsY = new ArrayList<>();
            for (LoadPoint p : sorted) {
                means.add(values(p, stream, StreamRun::p99Ms).average().orElse(Double.NaN));
                values(p, stream, StreamRun::p99Ms).forEach(v -> {
                    dotsX.add(p.load());
                    dotsY.add(v);
                });
            }
            if (dotsX.isEmpty()) {
                continue;
            }
            chart.addSeries(stream.measures() + " p99 (mean)", loads, means).setMarker(SeriesMarkers.CIRCLE);
            chart.addSeries(stream.measures() + " p99 (each run)", dotsX, dotsY)
                    .setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        }
        double target = plan.settings().slo().p99Ms();
        chart.addSeries("SLO p99", List.of(loads.get(0), loads.get(loads.size() - 1)), List.of(target, target))
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
