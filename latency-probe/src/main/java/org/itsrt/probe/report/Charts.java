package org.itsrt.probe.report;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The report's plots, drawn with XChart at a fixed size and written as PNG and SVG. Works without
 * a display: the JVM is put in headless mode before AWT starts, unless the caller chose otherwise.
 */
public final class Charts {

    public static final int WIDTH = 1000;
    public static final int HEIGHT = 600;

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private Charts() {}

    /** ECDFs of several series on one chart; {@code logX} draws latency on a log scale (points <= 0 dropped). */
    public static XYChart ecdf(String title, List<Ecdf> series, boolean logX) {
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .xAxisTitle(logX ? "latency (ms, log scale)" : "latency (ms)")
                .yAxisTitle("fraction of records at or below")
                .build();
        style(chart.getStyler());
        chart.getStyler().setXAxisLogarithmic(logX);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(1.0);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        List<Ecdf> drawn = new ArrayList<>();
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Ecdf ecdf : series) {
            Ecdf d = logX ? ecdf.positive() : ecdf;
            if (!d.isEmpty()) {
                drawn.add(d);
                min = Math.min(min, d.xMs()[0]);
                max = Math.max(max, d.xMs()[d.xMs().length - 1]);
            }
        }
        for (Ecdf ecdf : drawn) {
            Ecdf thin = thin(ecdf, min, max, logX);
            XYSeries line = chart.addSeries(thin.name(), thin.xMs(), thin.fraction());
            line.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            line.setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    /**
     * Leaves out points that would land within a pixel of the last one kept: the SVG
     * draws every segment as its own element, and a thousand pixels cannot show more.
     */
    static Ecdf thin(Ecdf ecdf, double minX, double maxX, boolean logX) {
        double[] x = ecdf.xMs();
        double[] y = ecdf.fraction();
        int n = x.length;
        if (n <= 2) {
            return ecdf;
        }
        double lo = logX ? Math.log(minX) : minX;
        double range = (logX ? Math.log(maxX) : maxX) - lo;
        double pixelsPerX = range > 0 ? WIDTH / range : 0;
        double[] tx = new double[n];
        double[] ty = new double[n];
        int kept = 0;
        tx[kept] = x[0];
        ty[kept++] = y[0];
        for (int i = 1; i < n - 1; i++) {
            double dx = ((logX ? Math.log(x[i]) : x[i]) - (logX ? Math.log(tx[kept - 1]) : tx[kept - 1])) * pixelsPerX;
            double dy = (y[i] - ty[kept - 1]) * HEIGHT;
            if (Math.abs(dx) >= 1 || Math.abs(dy) >= 1) {
                tx[kept] = x[i];
                ty[kept++] = y[i];
            }
        }
        tx[kept] = x[n - 1];
        ty[kept++] = y[n - 1];
        return new Ecdf(ecdf.name(), java.util.Arrays.copyOf(tx, kept), java.util.Arrays.copyOf(ty, kept));
    }

    /**
     * A series of the latency-over-time chart.
     *
     * @param line true for a line (windowed p95, SLO), false for one dot per record
     */
    public record TimeSeries(String name, double[] seconds, double[] ms, boolean line) {}

    /** Latency (ms) against time since the first arrival (s). */
    public static XYChart timeline(String title, List<TimeSeries> series) {
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .xAxisTitle("time since the first arrival (s)")
                .yAxisTitle("latency (ms)")
                .build();
        style(chart.getStyler());
        chart.getStyler().setMarkerSize(3);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        for (TimeSeries s : series) {
            if (s.seconds().length == 0) {
                continue;
            }
            XYSeries added = chart.addSeries(s.name(), s.seconds(), s.ms());
            if (s.line()) {
                added.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
                added.setMarker(SeriesMarkers.NONE);
            } else {
                added.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                added.setMarker(SeriesMarkers.CIRCLE);
            }
        }
        return chart;
    }

    /**
     * Bars: one group per category, one bar per series.
     *
     * @param values {@code values.get(s).get(c)}: series s, category c
     */
    public static CategoryChart bars(
            String title, String yTitle, List<String> categories, List<String> seriesNames, List<List<Double>> values) {
        CategoryChart chart = new CategoryChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .xAxisTitle("stage")
                .yAxisTitle(yTitle)
                .build();
        style(chart.getStyler());
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setLabelsVisible(false);
        for (int s = 0; s < seriesNames.size(); s++) {
            chart.addSeries(seriesNames.get(s), new ArrayList<>(categories), new ArrayList<>(values.get(s)));
        }
        return chart;
    }

    /** Colours that stay apart on white and in print (Tableau 10, then darker shades). */
    private static final Color[] PALETTE = {
        new Color(31, 119, 180), new Color(255, 127, 14), new Color(44, 160, 44), new Color(214, 39, 40),
        new Color(148, 103, 189), new Color(140, 86, 75), new Color(227, 119, 194), new Color(127, 127, 127),
        new Color(188, 189, 34), new Color(23, 190, 207), new Color(0, 0, 0), new Color(0, 80, 120),
        new Color(150, 60, 0), new Color(0, 100, 0), new Color(120, 0, 0), new Color(70, 0, 120)
    };

    private static void style(Styler styler) {
        styler.setSeriesColors(PALETTE);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setLegendBorderColor(Color.LIGHT_GRAY);
        styler.setChartTitleBoxVisible(false);
        styler.setAntiAlias(true);
    }

    /**
     * Readies plotting before a run, so that the report can still be drawn while the JVM shuts
     * down (Ctrl-C): ImageIO's file cache and AWT's font and graphics set-up register shutdown
     * hooks and temporary files when first used, which the JVM refuses once shutdown has begun.
     * So ImageIO caches in memory, and one small chart is drawn in both formats now.
     */
    public static void prepare() {
        ImageIO.setUseCache(false);
        XYChart chart =
                new XYChartBuilder().width(64).height(48).title("warm-up").build();
        chart.addSeries("warm-up", new double[] {0, 1}, new double[] {0, 1});
        try {
            BitmapEncoder.saveBitmap(chart, OutputStream.nullOutputStream(), BitmapEncoder.BitmapFormat.PNG);
            VectorGraphicsEncoder.saveVectorGraphic(
                    chart, OutputStream.nullOutputStream(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot draw a chart: " + e.getMessage(), e);
        }
    }

    /** Writes {@code dir/base.png} and {@code dir/base.svg}; returns both paths. */
    public static List<Path> save(Chart<?, ?> chart, Path dir, String base) throws IOException {
        Path png = dir.resolve(base + ".png");
        try (OutputStream out = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
        Path svg = dir.resolve(base + ".svg");
        try (OutputStream out = Files.newOutputStream(svg)) {
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        }
        return List.of(png, svg);
    }
}
