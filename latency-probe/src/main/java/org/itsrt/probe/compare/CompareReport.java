package org.itsrt.probe.compare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.itsrt.probe.report.Charts;
import org.itsrt.probe.report.Decimals;
import org.itsrt.probe.report.Ecdf;
import org.itsrt.probe.report.MarkdownTable;

/**
 * {@code compare.md} and the ECDF overlays ({@code compare-ecdf}, {@code compare-ecdf-log}, PNG and
 * SVG): several runs and study configurations side by side, in the style of the study's tables.
 */
public final class CompareReport {

    public static final String MARKDOWN = "compare.md";
    public static final String ECDF = "compare-ecdf";
    public static final String ECDF_LOG = "compare-ecdf-log";

    /** Percentile method of rows built from every value. */
    static final String EXACT = "exact, linear between nearest ranks";

    /** Percentile method of rows built from a histogram log. */
    static final String HISTOGRAM = "HdrHistogram, 3 significant digits";

    private CompareReport() {}

    /** Writes the table and the plots into {@code dir}; returns the table. */
    public static String write(Path dir, List<Distribution> rows, double sloMs, double windowS) throws IOException {
        Files.createDirectories(dir);
        List<Ecdf> ecdfs = new ArrayList<>();
        for (Distribution row : rows) {
            ecdfs.add(row.ecdf());
        }
        Charts.save(Charts.ecdf("End-to-end latency, ECDF", ecdfs, false), dir, ECDF);
        Charts.save(Charts.ecdf("End-to-end latency, ECDF (log scale)", ecdfs, true), dir, ECDF_LOG);
        String table = table(rows);
        Files.writeString(dir.resolve(MARKDOWN), markdown(rows, table, sloMs, windowS), StandardCharsets.UTF_8);
        return table;
    }

    /** The comparison table: count, min, p50, p90, p99, p99.9, max (ms, two decimals) and SLO ratio. */
    public static String table(List<Distribution> rows) {
        MarkdownTable table = new MarkdownTable(
                List.of("run", "count", "min", "p50", "p90", "p99", "p99.9", "max", "SLO ratio"),
                false,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                true);
        for (Distribution d : rows) {
            table.row(List.of(
                    d.label(),
                    String.format(Locale.ROOT, "%,d", d.count()),
                    ms(d.minMs()),
                    ms(d.p50Ms()),
                    ms(d.p90Ms()),
                    ms(d.p99Ms()),
                    ms(d.p999Ms()),
                    ms(d.maxMs()),
                    Double.isNaN(d.sloRatio()) ? "n/a" : Decimals.percent(d.sloRatio())));
        }
        return table.toString();
    }

    private static String markdown(List<Distribution> rows, String table, double sloMs, double windowS) {
        StringBuilder md = new StringBuilder();
        md.append("# Latency comparison\n\n");
        md.append("End-to-end latency in ms. SLO ratio: share of ")
                .append(fmt(windowS))
                .append(" s windows of a run's " + "active span whose p95 exceeds ")
                .append(fmt(sloMs))
                .append(" ms.\n\n");
        md.append(table).append('\n');
        md.append("![ECDF](").append(ECDF).append(".png) ([SVG](").append(ECDF).append(".svg))\n\n");
        md.append("![ECDF, log scale](")
                .append(ECDF_LOG)
                .append(".png) ([SVG](")
                .append(ECDF_LOG)
                .append(".svg))\n\n");
        md.append("## Rows\n\n");
        MarkdownTable sources = new MarkdownTable(List.of("run", "latency", "percentiles", "SLO ratio", "source"));
        for (Distribution d : rows) {
            sources.row(List.of(d.label(), d.latency(), d.percentiles(), d.sloNote(), "`" + d.source() + "`"));
        }
        md.append(sources).append('\n');
        md.append("Exact percentiles interpolate linearly between the two nearest ranks (x at index (n-1)p/100 of "
                + "the sorted values), the definition that reproduces the study's own table from its raw files; "
                + "the probe's summary.md gives HdrHistogram's nearest-rank values instead, which can differ in "
                + "the far tail by the gap between neighbouring records. The study's files are latencies only "
                + "(no arrival times), so they have no SLO ratio; their stamps were taken just before send and on "
                + "receipt, closest to the probe's latency from sent.\n");
        return md.toString();
    }

    private static String ms(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String fmt(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value) : Double.toString(value);
    }
}
