package org.itsrt.probe.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
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

    /** How a series of the latency-over-time chart is drawn. */
    public enum Style {
        /** One dot per record. */
        DOTS,
        /** One diamond per record: records that stand apart from the dots (duplicates). */
        DIAMONDS,
        /** A line (windowed p95, SLO). */
        LINE
    }

    /** A series of the latency-over-time chart. */
    public record TimeSeries(String name, double[] seconds, double[] ms, Style style) {}

    /** A vertical line at {@code seconds} with {@code label} near the top: a fault's mark. */
    public record Mark(String label, double seconds) {}

    /**
     * A shaded stretch of time, full height, behind the records: a silence without arrivals.
     * Shades of one {@code name} share a colour and one legend entry.
     */
    public record Shade(String name, double fromSeconds, double toSeconds) {}

    /** Latency (ms) against time since the first arrival (s), with marks and shades. */
    public static XYChart timeline(String title, List<TimeSeries> series, List<Mark> marks, List<Shade> shades) {
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
        double top = 0;
        for (TimeSeries s : series) {
            for (double ms : s.ms()) {
                if (!Double.isNaN(ms)) {
                    top = Math.max(top, ms);
                }
            }
        }
        // Shades first, so that records are drawn over them; each shade is a polygon series, the
        // one shape XChart fills in data coordinates.
        List<String> shadeNames = new ArrayList<>();
        for (Shade shade : shades) {
            if (!(shade.toSeconds() > shade.fromSeconds()) || top <= 0) {
                continue;
            }
            boolean first = !shadeNames.contains(shade.name());
            if (first) {
                shadeNames.add(shade.name());
            }
            Color colour = SHADES[shadeNames.indexOf(shade.name()) % SHADES.length];
            XYSeries area = chart.addSeries(
                    shade.name() + (first ? "" : " " + chart.getSeriesMap().size()),
                    new double[] {shade.fromSeconds(), shade.fromSeconds(), shade.toSeconds(), shade.toSeconds()},
                    new double[] {0, top, top, 0});
            area.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.PolygonArea);
            area.setMarker(SeriesMarkers.NONE);
            area.setFillColor(colour);
            area.setLineColor(colour);
            area.setShowInLegend(first);
        }
        // Data series take the palette in their own order, shades or not, so a run with faults
        // keeps the colours of one without.
        int drawn = 0;
        for (TimeSeries s : series) {
            if (s.seconds().length == 0) {
                continue;
            }
            Color colour = PALETTE[drawn++ % PALETTE.length];
            XYSeries added = chart.addSeries(s.name(), s.seconds(), s.ms());
            added.setLineColor(colour);
            added.setMarkerColor(colour);
            switch (s.style()) {
                case LINE -> {
                    added.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
                    added.setMarker(SeriesMarkers.NONE);
                }
                case DOTS -> {
                    added.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                    added.setMarker(SeriesMarkers.CIRCLE);
                }
                case DIAMONDS -> {
                    added.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                    added.setMarker(SeriesMarkers.DIAMOND);
                }
            }
        }
        if (!marks.isEmpty()) {
            chart.getStyler().setAnnotationLineColor(MARK);
            chart.getStyler()
                    .setAnnotationLineStroke(new BasicStroke(
                            1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
            chart.getStyler().setAnnotationTextFontColor(MARK);
            chart.getStyler().setAnnotationTextFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
        }
        if (!marks.isEmpty() || !shades.isEmpty()) {
            // Below the chart: the top of the plot is where the marks' labels go.
            chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
            chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        }
        double xMin = Double.POSITIVE_INFINITY;
        double xMax = Double.NEGATIVE_INFINITY;
        for (XYSeries s : chart.getSeriesMap().values()) {
            xMin = Math.min(xMin, s.getXMin());
            xMax = Math.max(xMax, s.getXMax());
        }
        for (Mark mark : marks) {
            xMin = Math.min(xMin, mark.seconds());
            xMax = Math.max(xMax, mark.seconds());
        }
        double span = xMax > xMin ? xMax - xMin : 1;
        for (int i = 0; i < marks.size(); i++) {
            Mark mark = marks.get(i);
            chart.addAnnotation(new AnnotationLine(mark.seconds(), true, false));
            // XChart centres a label on its point: shift it beside the line, to the right unless
            // the line is near the right edge, by half the label's width estimated in seconds.
            double secondsPerPixel = span / (WIDTH - 150.0);
            double half = (mark.label().length() * LABEL_CHAR_PX / 2 + 6) * secondsPerPixel;
            double x = mark.seconds() + (mark.seconds() - xMin < 0.7 * span ? half : -half);
            // Labels step down the chart so that marks close in time stay readable.
            double y = top > 0 ? top * (0.97 - 0.06 * (i % 5)) : 0;
            chart.addAnnotation(new AnnotationText(mark.label(), x, y, false));
        }
        return chart;
    }

    /** Average width of a character of the marks' labels (12 pt bold sans), in pixels. */
    private static final double LABEL_CHAR_PX = 7.5;

    /** Fault marks: a dark red that stands apart from the palette's red. */
    private static final Color MARK = new Color(140, 0, 0);

    /** Translucent fills for shades, so the records behind stay visible. */
    private static final Color[] SHADES = {new Color(127, 127, 127, 70), new Color(188, 189, 34, 70)};

    /**
     * Bars: one group per category, one bar per series.
     *
     * @param values {@code values.get(s).get(c)}: series s, category c
     */
    public static CategoryChart bars(
            String title, String yTitle, List<String> categories, List<String> seriesNames, List<List<Double>> values) {
        return bars(title, "stage", yTitle, categories, seriesNames, values);
    }

    /** Bars as {@link #bars(String, String, List, List, List)}, the categories' axis titled {@code xTitle}. */
    public static CategoryChart bars(
            String title,
            String xTitle,
            String yTitle,
            List<String> categories,
            List<String> seriesNames,
            List<List<Double>> values) {
        CategoryChart chart = new CategoryChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .xAxisTitle(xTitle)
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
