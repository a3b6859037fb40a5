package org.itsrt.pipeline.sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.itsrt.probe.report.Charts;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * {@code sweep.md}, {@code sweep.csv} and {@code sweep.png} (delivered against offered rate)
 * and {@code sweep-latency.png} (p50, p99, max), each also as SVG: rate, latency and loss per step of a rate sweep. Targets are shown
 * beside the numbers, never judged for the caller.
 */
public final class SweepReport {

    public static final String MARKDOWN = "sweep.md";
    public static final String CSV = "sweep.csv";
    public static final String PLOT = "sweep";
    public static final String LATENCY_PLOT = "sweep-latency";

    private SweepReport() {}

    /**
     * Writes the three files into {@code dir} for the steps measured so far.
     *
     * @param facts lines that say what was swept (job, settings, stack), one bullet each
     * @param interrupted whether the sweep stopped before its last step
     */
    public static void write(Path dir, List<SweepStep> steps, List<String> facts, boolean interrupted)
            throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(CSV), csv(steps));
        Files.writeString(dir.resolve(MARKDOWN), markdown(steps, facts, interrupted));
        if (!steps.isEmpty()) {
            Charts.save(ratePlot(steps), dir, PLOT);
            if (steps.stream().anyMatch(s -> s.p99Ms() != null && s.p99Ms() > 0)) {
                Charts.save(latencyPlot(steps), dir, LATENCY_PLOT);
            }
        }
    }

    static String csv(List<SweepStep> steps) {
        StringBuilder csv = new StringBuilder(
                "offered_per_s,records,measured,delivered_per_s,p50_ms,p99_ms,max_ms,lost,duplicated,dead_lettered,exit\n");
        for (SweepStep s : steps) {
            csv.append(String.format(
                    Locale.ROOT,
                    "%.1f,%d,%d,%.1f,%s,%s,%s,%d,%d,%d,%d%n",
                    s.offeredPerS(),
                    s.records(),
                    s.measured(),
                    s.deliveredPerS(),
                    number(s.p50Ms()),
                    number(s.p99Ms()),
                    number(s.maxMs()),
                    s.lost(),
                    s.duplicated(),
                    s.deadLettered(),
                    s.exitCode()));
        }
        return csv.toString();
    }

    public static String markdown(List<SweepStep> steps, List<String> facts, boolean interrupted) {
        StringBuilder md = new StringBuilder("# Rate sweep\n\n");
        for (String fact : facts) {
            md.append("- ").append(fact).append('\n');
        }
        if (interrupted) {
            md.append("- **interrupted**: the steps measured before the interrupt\n");
        }
        md.append("\nLatency in ms from the intended send time, steady state (after the warm-up) of each step; "
                + "*delivered* is records measured over the probe's first-to-last arrival. Targets: >= 10,000 "
                + "records/s (linear engine), >= 3,000 (LSTM), p99 <= 50 ms, 0 lost.\n\n");
        md.append("| offered/s | records | measured | delivered/s | p50 | p99 | max | lost | duplicated "
                + "| dead letters | exit |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (SweepStep s : steps) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %,.0f | %,d | %,d | %,.0f | %s | %s | %s | %d | %d | %s | %d |%n",
                    s.offeredPerS(),
                    s.records(),
                    s.measured(),
                    s.deliveredPerS(),
                    ms(s.p50Ms()),
                    ms(s.p99Ms()),
                    ms(s.maxMs()),
                    s.lost(),
                    s.duplicated(),
                    s.deadLettered() < 0 ? "n/a" : Long.toString(s.deadLettered()),
                    s.exitCode()));
        }
        if (!steps.isEmpty()) {
            md.append("\n![delivered against offered](").append(PLOT).append(".png)\n");
            md.append("\n![latency against offered](").append(LATENCY_PLOT).append(".png)\n");
        }
        return md.toString();
    }

    /** Delivered against offered rate. */
    static XYChart ratePlot(List<SweepStep> steps) {
        XYChart chart = new XYChartBuilder()
                .width(Charts.WIDTH)
                .height(Charts.HEIGHT)
                .title("Rate sweep: delivered against offered rate")
                .xAxisTitle("offered (records/s, all detectors)")
                .yAxisTitle("delivered (records/s)")
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        List<Double> offered = new ArrayList<>();
        List<Double> delivered = new ArrayList<>();
        for (SweepStep s : steps) {
            offered.add(s.offeredPerS());
            delivered.add(s.deliveredPerS());
        }
        chart.addSeries("delivered", offered, delivered).setMarker(SeriesMarkers.CIRCLE);
        chart.addSeries("offered (keeping up)", offered, offered).setMarker(SeriesMarkers.NONE);
        return chart;
    }

    /** p50, p99 and max against offered rate, log scale: from a few ms to seconds of backlog. */
    static XYChart latencyPlot(List<SweepStep> steps) {
        XYChart chart = new XYChartBuilder()
                .width(Charts.WIDTH)
                .height(Charts.HEIGHT)
                .title("Rate sweep: steady-state latency from intended against offered rate")
                .xAxisTitle("offered (records/s, all detectors)")
                .yAxisTitle("latency (ms, log scale)")
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setYAxisLogarithmic(true);
        latencySeries(chart, steps, "p50", SweepStep::p50Ms);
        latencySeries(chart, steps, "p99", SweepStep::p99Ms);
        latencySeries(chart, steps, "max", SweepStep::maxMs);
        return chart;
    }

    private static void latencySeries(
            XYChart chart, List<SweepStep> steps, String name, java.util.function.Function<SweepStep, Double> value) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (SweepStep s : steps) {
            Double v = value.apply(s);
            if (v != null && v > 0) {
                x.add(s.offeredPerS());
                y.add(v);
            }
        }
        if (!x.isEmpty()) {
            var series = chart.addSeries(name, x, y);
            series.setMarker(SeriesMarkers.DIAMOND);
        }
    }

    private static String ms(Double v) {
        return v == null ? "n/a" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String number(Double v) {
        return v == null ? "" : String.format(Locale.ROOT, "%.3f", v);
    }
}
