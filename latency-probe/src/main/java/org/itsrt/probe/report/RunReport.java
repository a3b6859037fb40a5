package org.itsrt.probe.report;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.itsrt.probe.arrival.MalformedRecord;
import org.itsrt.probe.stats.LatencyHistogram;
import org.itsrt.probe.stats.LatencyKind;
import org.itsrt.probe.stats.LatencySummary;
import org.itsrt.probe.stats.RunStats;
import org.itsrt.probe.stats.SequenceTracker;
import org.itsrt.probe.stats.Stage;
import org.itsrt.probe.stats.WindowedSlo;

/**
 * Writes a run folder's report once the run has stopped: {@code summary.json},
 * {@code summary.md}, {@code windows.csv} and the plots. ({@code latencies.csv} and
 * {@code latency.hlog} are written while the run goes, by {@link LatencyCsv} and
 * {@link HistogramLog}.)
 */
public final class RunReport {

    public static final String SUMMARY_JSON = "summary.json";
    public static final String SUMMARY_MD = "summary.md";
    public static final String WINDOWS_CSV = "windows.csv";

    /** Plot files (without extension), each written as .png and .svg. */
    public static final String ECDF = "ecdf";

    public static final String ECDF_LOG = "ecdf-log";
    public static final String TIMELINE = "timeline";
    public static final String STAGES = "stages";

    private final RunInfo info;
    private final RunStats stats;
    private final TimelinePoints timeline;

    public RunReport(RunInfo info, RunStats stats, TimelinePoints timeline) {
        this.info = info;
        this.stats = stats;
        this.timeline = timeline;
    }

    /** Writes everything into {@code dir}; returns the plot names written (no extension). */
    public List<String> write(Path dir) throws IOException {
        List<String> plots = writePlots(dir);
        writeWindows(dir.resolve(WINDOWS_CSV));
        summary(plots).write(dir.resolve(SUMMARY_JSON));
        Files.writeString(dir.resolve(SUMMARY_MD), markdown(plots), StandardCharsets.UTF_8);
        return plots;
    }

    // ---------------------------------------------------------------- plots

    private List<String> writePlots(Path dir) throws IOException {
        List<String> written = new ArrayList<>();
        if (stats.isEmpty()) {
            return written;
        }
        List<Ecdf> ecdfs = new ArrayList<>();
        for (LatencyKind kind : LatencyKind.values()) {
            LatencyHistogram h = stats.latency(kind);
            if (h.count() > 0) {
                ecdfs.add(Ecdf.ofHistogram("latency " + kind.label(), h.histogram()));
            }
        }
        String title = "End-to-end latency, " + info.topic() + " (" + String.format(Locale.ROOT, "%,d", stats.records())
                + " records)";
        Charts.save(Charts.ecdf(title, ecdfs, false), dir, ECDF);
        written.add(ECDF);
        Charts.save(Charts.ecdf(title, ecdfs, true), dir, ECDF_LOG);
        written.add(ECDF_LOG);
        Charts.save(timelineChart(), dir, TIMELINE);
        written.add(TIMELINE);
        if (stats.hasStages()) {
            Charts.save(stagesChart(), dir, STAGES);
            written.add(STAGES);
        }
        return written;
    }

    private org.knowm.xchart.XYChart timelineChart() {
        LatencyKind kind = stats.primaryKind();
        WindowedSlo.Report slo = stats.slo(kind);
        List<Charts.TimeSeries> series = new ArrayList<>();
        series.add(points("records", timeline.regular(), kind));
        series.add(points("records above the SLO", timeline.tail(), kind));
        double[] windowSeconds = new double[slo.nonEmpty().size()];
        double[] windowP95 = new double[windowSeconds.length];
        for (int i = 0; i < windowSeconds.length; i++) {
            WindowedSlo.Window w = slo.nonEmpty().get(i);
            windowSeconds[i] = (w.index() + 0.5) * slo.windowNs() / 1e9;
            windowP95[i] = w.p95Ns() / 1e6;
        }
        series.add(new Charts.TimeSeries(
                "p95 per " + Decimals.seconds(slo.windowNs()) + " window", windowSeconds, windowP95, true));
        double span = (stats.lastArrivalNs() - stats.firstArrivalNs()) / 1e9;
        double sloMs = slo.sloNs() / 1e6;
        series.add(new Charts.TimeSeries(
                "SLO " + Decimals.millis(slo.sloNs()),
                new double[] {0, Math.max(span, 1e-3)},
                new double[] {sloMs, sloMs},
                true));
        String sampled = timeline.stride() > 1
                ? " (1 in " + timeline.stride() + " records at or below the SLO shown, all above)"
                : "";
        return Charts.timeline("Latency " + kind.label() + " over time" + sampled, series);
    }

    private static Charts.TimeSeries points(String name, TimelinePoints.Points points, LatencyKind kind) {
        double[] x = new double[points.size()];
        double[] y = new double[points.size()];
        int n = 0;
        for (int i = 0; i < points.size(); i++) {
            float ms = kind == LatencyKind.FROM_SENT ? points.fromSentMs(i) : points.fromIntendedMs(i);
            if (!Float.isNaN(ms)) {
                x[n] = points.seconds(i);
                y[n] = ms;
                n++;
            }
        }
        return new Charts.TimeSeries(name, java.util.Arrays.copyOf(x, n), java.util.Arrays.copyOf(y, n), false);
    }

    private org.knowm.xchart.CategoryChart stagesChart() {
        List<String> categories = new ArrayList<>();
        List<Stage> present = new ArrayList<>();
        for (Stage stage : Stage.values()) {
            if (stats.stage(stage).count() > 0) {
                categories.add(stage.label());
                present.add(stage);
            }
        }
        double[] percentiles = {50, 99, 99.9};
        List<String> names = List.of("p50", "p99", "p99.9");
        List<List<Double>> values = new ArrayList<>();
        for (double p : percentiles) {
            List<Double> row = new ArrayList<>();
            for (Stage stage : present) {
                row.add(stats.stage(stage).percentileNs(p) / 1e3);
            }
            values.add(row);
        }
        return Charts.bars(
                "Time per stage in the job ("
                        + String.format(
                                Locale.ROOT, "%,d", stats.stage(present.get(0)).count()) + " records)",
                "duration (µs)",
                categories,
                names,
                values);
    }

    // ---------------------------------------------------------------- windows.csv

    private void writeWindows(Path file) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write("latency,window,start_s,records,p95_ms,max_ms,over_slo,violates\n");
            for (LatencyKind kind : LatencyKind.values()) {
                WindowedSlo.Report report = stats.slo(kind);
                for (WindowedSlo.Window w : report.nonEmpty()) {
                    out.write(String.join(
                            ",",
                            kind.key(),
                            Long.toString(w.index()),
                            Decimals.fixed(w.index() * report.windowNs() / 1000, 6),
                            Integer.toString(w.count()),
                            Decimals.fixed(w.p95Ns(), 6),
                            Decimals.fixed(w.maxNs(), 6),
                            Integer.toString(w.overSlo()),
                            Boolean.toString(w.p95Ns() > report.sloNs())));
                    out.write('\n');
                }
            }
        }
    }

    // ---------------------------------------------------------------- summary.json

    /** The run as {@code summary.json} holds it. */
    ProbeSummary summary(List<String> plots) {
        Map<String, Long> offsets = new LinkedHashMap<>();
        for (Map.Entry<TopicPartition, Long> e : info.startOffsets().entrySet()) {
            offsets.put(Integer.toString(e.getKey().partition()), e.getValue());
        }
        ProbeSummary.Run run = new ProbeSummary.Run(
                info.topic(),
                info.bootstrapServers(),
                info.groupId(),
                info.fromBeginning(),
                offsets,
                new LinkedHashMap<>(info.consumerOverrides()),
                info.started().toString(),
                info.ended().toString(),
                Duration.between(info.started(), info.ended()).toMillis() / 1000.0,
                stats.isEmpty() ? 0 : (stats.lastArrivalNs() - stats.firstArrivalNs()) / 1e9,
                info.stoppedBy(),
                info.clock());
        ProbeSummary.Settings settings = new ProbeSummary.Settings(
                stats.settings().windowNs() / 1e9,
                stats.settings().sloNs() / 1e6,
                stats.settings().warmupNs() / 1e9,
                LatencyHistogram.SIGNIFICANT_DIGITS);
        boolean expected = info.expected() > 0;
        ProbeSummary.Records records = new ProbeSummary.Records(
                stats.records(),
                stats.malformed().total(),
                new LinkedHashMap<>(stats.malformed().byReason()),
                new ProbeSummary.ByKind<>(
                        stats.latency(LatencyKind.FROM_SENT).negative(),
                        stats.latency(LatencyKind.FROM_INTENDED).negative()),
                expected ? info.expected() : null,
                expected ? stats.sequences().shortfall(info.expected()) : null);
        ProbeSummary.Latencies latency = new ProbeSummary.Latencies(
                latencySpans(LatencyKind.FROM_SENT), latencySpans(LatencyKind.FROM_INTENDED));
        ProbeSummary.Stages stages =
                new ProbeSummary.Stages(stageStats(Stage.PARSE), stageStats(Stage.INFER), stageStats(Stage.ROUTE));
        List<ProbeSummary.DetectorDelivery> perDetector = new ArrayList<>();
        for (SequenceTracker.DetectorCounts c : stats.sequences().perDetector()) {
            perDetector.add(new ProbeSummary.DetectorDelivery(
                    c.detector(), c.received(), c.distinct(), c.maxSeq(), c.lost(), c.duplicated(), c.reordered()));
        }
        SequenceTracker.DetectorCounts t = stats.sequences().total();
        ProbeSummary.Sequence sequence = new ProbeSummary.Sequence(
                new ProbeSummary.Delivery(
                        t.received(), t.distinct(), t.maxSeq(), t.lost(), t.duplicated(), t.reordered()),
                perDetector);
        ProbeSummary.Slos slo =
                new ProbeSummary.Slos(sloSpans(LatencyKind.FROM_SENT), sloSpans(LatencyKind.FROM_INTENDED));
        List<String> plotFiles = new ArrayList<>();
        for (String plot : plots) {
            plotFiles.add(plot + ".png");
            plotFiles.add(plot + ".svg");
        }
        ProbeSummary.Files files = new ProbeSummary.Files(LatencyCsv.FILE, HistogramLog.FILE, WINDOWS_CSV, plotFiles);
        return new ProbeSummary(
                ProbeSummary.FORMAT,
                run,
                settings,
                records,
                stats.primaryKind().key(),
                latency,
                stages,
                sequence,
                slo,
                files);
    }

    private ProbeSummary.Spans<ProbeSummary.LatencyStats> latencySpans(LatencyKind kind) {
        return new ProbeSummary.Spans<>(
                latencyStats(stats.latency(kind).summary()),
                stats.hasSteadyState() ? latencyStats(stats.steadyLatency(kind).summary()) : null);
    }

    private ProbeSummary.Spans<ProbeSummary.Slo> sloSpans(LatencyKind kind) {
        return new ProbeSummary.Spans<>(
                slo(stats.slo(kind)), stats.hasSteadyState() ? slo(stats.steadySlo(kind)) : null);
    }

    private static ProbeSummary.LatencyStats latencyStats(LatencySummary s) {
        double[] v = values(s, 1e6);
        return s.isEmpty()
                ? new ProbeSummary.LatencyStats(0, null, null, null, null, null, null, null, null, null)
                : new ProbeSummary.LatencyStats(s.count(), v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
    }

    private ProbeSummary.StageStats stageStats(Stage stage) {
        LatencySummary s = stats.stage(stage).summary();
        double[] v = values(s, 1e3);
        return s.isEmpty()
                ? new ProbeSummary.StageStats(0, null, null, null, null, null, null, null, null, null)
                : new ProbeSummary.StageStats(s.count(), v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
    }

    /** min, mean, the percentiles of {@link LatencySummary#PERCENTILES} and max, divided by {@code divisor}. */
    private static double[] values(LatencySummary s, double divisor) {
        double[] v = new double[3 + LatencySummary.PERCENTILES.length];
        v[0] = s.minNs() / divisor;
        v[1] = s.meanNs() / divisor;
        for (int i = 0; i < LatencySummary.PERCENTILES.length; i++) {
            v[2 + i] = s.percentileNs(i) / divisor;
        }
        v[v.length - 1] = s.maxNs() / divisor;
        return v;
    }

    private static ProbeSummary.Slo slo(WindowedSlo.Report r) {
        return new ProbeSummary.Slo(
                r.fromOffsetNs() / 1e9,
                r.windows(),
                r.empty(),
                r.violating(),
                Double.isNaN(r.ratio()) ? null : r.ratio(),
                r.records(),
                r.overSlo());
    }

    // ---------------------------------------------------------------- summary.md

    String markdown(List<String> plots) {
        StringBuilder md = new StringBuilder();
        RunStats.Settings settings = stats.settings();
        md.append("# Latency probe run: ").append(info.topic()).append("\n\n");
        MarkdownTable run = new MarkdownTable(List.of("", ""));
        run.row(List.of(
                "topic",
                "`" + info.topic() + "`"
                        + (info.fromBeginning() ? " (from the beginning)" : " (from the latest offsets)")));
        run.row(List.of("bootstrap servers", "`" + info.bootstrapServers() + "`"));
        run.row(List.of("consumer group", "`" + info.groupId() + "`"));
        if (!info.consumerOverrides().isEmpty()) {
            run.row(List.of("consumer overrides", "`" + info.consumerOverrides() + "`"));
        }
        run.row(List.of("started", info.started().toString()));
        run.row(List.of("ended", info.ended().toString()));
        run.row(List.of(
                "active span (first to last arrival)",
                stats.isEmpty()
                        ? "-"
                        : String.format(
                                Locale.ROOT, "%.3f s", (stats.lastArrivalNs() - stats.firstArrivalNs()) / 1e9)));
        run.row(List.of("stopped by", info.stoppedBy()));
        run.row(List.of("clock", info.clock()));
        run.row(List.of("records measured", String.format(Locale.ROOT, "%,d", stats.records())));
        run.row(List.of(
                "records malformed",
                String.format(Locale.ROOT, "%,d", stats.malformed().total())));
        if (info.expected() > 0) {
            run.row(List.of(
                    "records expected (`--expect`)",
                    String.format(
                            Locale.ROOT,
                            "%,d, shortfall %,d",
                            info.expected(),
                            stats.sequences().shortfall(info.expected()))));
        }
        run.row(List.of(
                "SLO window / SLO / warm-up",
                Decimals.seconds(settings.windowNs()) + " / " + Decimals.millis(settings.sloNs()) + " / "
                        + Decimals.seconds(settings.warmupNs())));
        md.append(run).append('\n');

        md.append("## End-to-end latency (ms)\n\n");
        List<String> header = new ArrayList<>(List.of("latency", "span", "count", "min", "mean"));
        header.addAll(List.of(LatencySummary.PERCENTILE_NAMES));
        header.add("max");
        MarkdownTable latency = table(header);
        for (LatencyKind kind : LatencyKind.values()) {
            latency.row(latencyRow(kind.label(), "all", stats.latency(kind).summary()));
            latency.row(
                    stats.hasSteadyState()
                            ? latencyRow(
                                    kind.label(),
                                    "steady state (from " + Decimals.seconds(settings.warmupNs()) + ")",
                                    stats.steadyLatency(kind).summary())
                            : noneRow(
                                    kind.label(),
                                    "steady state: none, the run is shorter than the warm-up",
                                    header.size()));
        }
        md.append(latency).append('\n');
        md.append("*from sent* = arrival - `sent_ns` (the pipeline alone); *from intended* = arrival - `intended_ns` "
                + "(also counts time a record waited to be sent). Min, mean and max are exact; percentiles are "
                + "HdrHistogram's (3 significant digits, nearest rank), each within 0.1% above the value it stands "
                + "for (so in a small run a high percentile can read up to 0.1% above the exact max). All records "
                + "that arrived in one poll share one arrival stamp.\n");
        long negativeSent = stats.latency(LatencyKind.FROM_SENT).negative();
        long negativeIntended = stats.latency(LatencyKind.FROM_INTENDED).negative();
        if (negativeSent + negativeIntended > 0) {
            md.append("\n**Warning:** ")
                    .append(negativeSent)
                    .append(" latencies from sent and ")
                    .append(negativeIntended)
                    .append(" from intended were negative and are left out: producer and probe did not stamp with "
                            + "the same clock.\n");
        }
        md.append('\n');

        md.append("## Stages in the job (µs)\n\n");
        if (stats.hasStages()) {
            List<String> stageHeader = List.of("stage", "count", "p50", "p99", "p99.9", "max");
            MarkdownTable table = table(stageHeader);
            for (Stage stage : Stage.values()) {
                LatencySummary s = stats.stage(stage).summary();
                if (s.isEmpty()) {
                    table.row(List.of(stage.label(), "0", "-", "-", "-", "-"));
                } else {
                    table.row(List.of(
                            stage.label(),
                            String.format(Locale.ROOT, "%,d", s.count()),
                            us(s.p50Ns()),
                            us(s.p99Ns()),
                            us(s.p999Ns()),
                            us(s.maxNs())));
                }
            }
            md.append(table).append('\n');
        } else {
            md.append("None: the records carry no stage durations (`parse_ns`, `infer_ns`, `route_ns`), as on "
                    + "`its.readings`, where the probe measures the Kafka hop alone.\n\n");
        }

        md.append("## Delivery per detector (by `seq`)\n\n");
        MarkdownTable delivery =
                table(List.of("detector", "received", "distinct", "max seq", "lost", "duplicated", "reordered"));
        for (SequenceTracker.DetectorCounts c : stats.sequences().perDetector()) {
            delivery.row(deliveryRow(Long.toString(c.detector()), c));
        }
        if (!delivery.isEmpty()) {
            delivery.row(deliveryRow("all", stats.sequences().total()));
            md.append(delivery).append('\n');
        } else {
            md.append("No record arrived.\n\n");
        }
        md.append("Lost = seqs in [0, max seq] that never arrived; duplicated = a seq that arrived again; reordered = "
                + "a first arrival below the detector's highest seq so far.");
        if (info.expected() > 0) {
            md.append(String.format(
                    Locale.ROOT,
                    " Producers announced %,d records: %,d never arrived.",
                    info.expected(),
                    stats.sequences().shortfall(info.expected())));
        }
        md.append("\n\n");
        if (stats.malformed().total() > 0) {
            md.append("Malformed records (counted, not measured):\n\n");
            MarkdownTable malformed = new MarkdownTable(List.of("reason", "records"), false, true);
            stats.malformed().byReason().forEach((reason, n) -> malformed.row(List.of(reason, Long.toString(n))));
            md.append(malformed).append('\n');
            md.append("First examples:\n\n");
            for (MalformedRecord m : stats.malformed().examples()) {
                md.append("- partition ")
                        .append(m.partition())
                        .append(" offset ")
                        .append(m.offset())
                        .append(": ")
                        .append(m.reason())
                        .append(" (")
                        .append(m.detail())
                        .append(")\n");
            }
            md.append('\n');
        }

        md.append("## SLO: p95 per ")
                .append(Decimals.seconds(settings.windowNs()))
                .append(" window against ")
                .append(Decimals.millis(settings.sloNs()))
                .append("\n\n");
        MarkdownTable slo = table(List.of(
                "latency", "span", "windows", "empty", "violating", "violation ratio", "records", "records over SLO"));
        for (LatencyKind kind : LatencyKind.values()) {
            slo.row(sloRow(kind.label(), "all", stats.slo(kind)));
            if (stats.hasSteadyState()) {
                slo.row(sloRow(
                        kind.label(),
                        "steady state (windows from "
                                + Decimals.seconds(stats.steadySlo(kind).fromOffsetNs()) + ")",
                        stats.steadySlo(kind)));
            }
        }
        md.append(slo).append('\n');
        md.append("Violation ratio = windows whose p95 exceeds the SLO / all windows of the active span (first to "
                + "last arrival; windows start at the first arrival, the last one may be partial, an empty window "
                + "counts in the denominator and never as a violation). A window's p95 is exact (nearest rank). "
                + "Per-window values: `" + WINDOWS_CSV + "`.\n\n");

        md.append("## Plots\n\n");
        if (plots.isEmpty()) {
            md.append("None: no record arrived.\n");
        }
        for (String plot : plots) {
            String caption =
                    switch (plot) {
                        case ECDF -> "ECDF of latency";
                        case ECDF_LOG -> "ECDF of latency, log scale";
                        case TIMELINE -> "latency over time with windowed p95 and the SLO";
                        case STAGES -> "time per stage";
                        default -> plot;
                    };
            md.append("![")
                    .append(caption)
                    .append("](")
                    .append(plot)
                    .append(".png) ([SVG](")
                    .append(plot)
                    .append(".svg))\n\n");
        }
        md.append("Raw data: `")
                .append(LatencyCsv.FILE)
                .append("` (one row per record), `")
                .append(HistogramLog.FILE)
                .append("` (HdrHistogram interval log), `")
                .append(SUMMARY_JSON)
                .append("`.\n");
        return md.toString();
    }

    private static MarkdownTable table(List<String> header) {
        boolean[] right = new boolean[header.size()];
        for (int i = 0; i < right.length; i++) {
            right[i] = !(header.get(i).equals("latency")
                    || header.get(i).equals("span")
                    || header.get(i).equals("stage")
                    || header.get(i).equals("detector"));
        }
        return new MarkdownTable(header, right);
    }

    private static List<String> latencyRow(String kind, String span, LatencySummary s) {
        List<String> row = new ArrayList<>(List.of(kind, span, String.format(Locale.ROOT, "%,d", s.count())));
        if (s.isEmpty()) {
            for (int i = 0; i < 2 + LatencySummary.PERCENTILES.length + 1; i++) {
                row.add("-");
            }
            return row;
        }
        row.add(Decimals.ms(s.minNs(), 3));
        row.add(Decimals.ms(s.meanNs(), 3));
        for (int i = 0; i < LatencySummary.PERCENTILES.length; i++) {
            row.add(Decimals.ms(s.percentileNs(i), 3));
        }
        row.add(Decimals.ms(s.maxNs(), 3));
        return row;
    }

    private static List<String> noneRow(String kind, String text, int columns) {
        List<String> row = new ArrayList<>(List.of(kind, text));
        while (row.size() < columns) {
            row.add("-");
        }
        return row;
    }

    private static List<String> deliveryRow(String name, SequenceTracker.DetectorCounts c) {
        return List.of(
                name,
                Long.toString(c.received()),
                Long.toString(c.distinct()),
                Long.toString(c.maxSeq()),
                Long.toString(c.lost()),
                Long.toString(c.duplicated()),
                Long.toString(c.reordered()));
    }

    private static List<String> sloRow(String kind, String span, WindowedSlo.Report r) {
        return List.of(
                kind,
                span,
                Long.toString(r.windows()),
                Long.toString(r.empty()),
                Long.toString(r.violating()),
                Decimals.percent(r.ratio()),
                Long.toString(r.records()),
                Long.toString(r.overSlo()));
    }

    private static String us(long ns) {
        return String.format(Locale.ROOT, "%.1f", ns / 1e3);
    }
}
