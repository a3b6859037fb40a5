package org.itsrt.probe.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.itsrt.probe.arrival.MalformedRecord;
import org.itsrt.probe.fault.FaultAnalysis;
import org.itsrt.probe.stats.LatencyKind;
import org.itsrt.probe.stats.LatencySummary;
import org.itsrt.probe.stats.RunStats;
import org.itsrt.probe.stats.SequenceTracker;
import org.itsrt.probe.stats.Stage;
import org.itsrt.probe.stats.WindowedSlo;

/** {@code summary.md}: the run for people, with the same numbers as {@code summary.json}. */
final class RunMarkdown {

    private final RunInfo info;
    private final RunStats stats;
    private final FaultAnalysis.Result faults;

    RunMarkdown(RunInfo info, RunStats stats, FaultAnalysis.Result faults) {
        this.info = info;
        this.stats = stats;
        this.faults = faults;
    }

    /** A fault's short name in tables and on the timeline: F1, F2, ... in time order. */
    static String faultName(int index) {
        return "F" + (index + 1);
    }

    String write(List<String> plots) {
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
        if (stats.warmupRecords() > 0) {
            run.row(List.of(
                    "warm-up records (apart, not measured)", String.format(Locale.ROOT, "%,d", stats.warmupRecords())));
        }
        run.row(List.of(
                "records malformed",
                String.format(Locale.ROOT, "%,d", stats.malformed().total())));
        if (info.expected() > 0) {
            run.row(List.of(
                    "records expected (`--expect`)",
                    String.format(
                            Locale.ROOT, "%,d, shortfall %,d", info.expected(), stats.shortfall(info.expected()))));
        }
        run.row(List.of(
                "SLO window / SLO / steady state after",
                Decimals.seconds(settings.windowNs()) + " / " + Decimals.millis(settings.sloNs()) + " / "
                        + Decimals.seconds(settings.steadyAfterNs())));
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
                                    "steady state (from " + Decimals.seconds(settings.steadyAfterNs()) + ")",
                                    stats.steadyLatency(kind).summary())
                            : noneRow(
                                    kind.label(),
                                    "steady state: none, the run is shorter than the steady-state cut",
                                    header.size()));
        }
        md.append(latency).append('\n');
        md.append(warmup());
        md.append("*from sent* = arrival - `sent_ns` (the pipeline alone); *from intended* = arrival - `intended_ns` "
                + "(also counts time a record waited to be sent). Min, mean and max are exact; percentiles are "
                + "HdrHistogram's (3 significant digits, nearest rank), each within 0.1% above the value it stands "
                + "for (and never above the exact max). All records "
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

        faultSection(md);

        String source = info.sequenceSource();
        md.append("## Delivery per ").append(source).append(" (by `seq`)\n\n");
        MarkdownTable delivery =
                table(List.of(source, "received", "distinct", "max seq", "lost", "duplicated", "reordered"));
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
                + "a first arrival below the " + source + "'s highest seq so far.");
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
                + "Per-window values: `" + RunReport.WINDOWS_CSV + "`.\n\n");
        WindowedSlo.Report advice = stats.slo(LatencyKind.FROM_SENT);
        if (advice.degraded() > 0) {
            md.append("Degraded: ")
                    .append(advice.degraded())
                    .append(" of ")
                    .append(advice.records())
                    .append(" records (")
                    .append(Decimals.percent((double) advice.degraded() / advice.records()))
                    .append(") were predicted by the job's linear engine because the LSTM would have missed their "
                            + "deadline (docs/deadlines.md); per window: column `degraded` of `")
                    .append(RunReport.WINDOWS_CSV)
                    .append("`.\n\n");
        }

        md.append("## Plots\n\n");
        if (plots.isEmpty()) {
            md.append("None: no record arrived.\n");
        }
        for (String plot : plots) {
            String caption =
                    switch (plot) {
                        case RunReport.ECDF -> "ECDF of latency";
                        case RunReport.ECDF_LOG -> "ECDF of latency, log scale";
                        case RunReport.TIMELINE ->
                            "latency over time with windowed p95, the SLO, duplicates and faults";
                        case RunReport.STAGES -> "time per stage";
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
                .append(RunReport.SUMMARY_JSON)
                .append("`.\n");
        return md.toString();
    }

    /** Faults and recovery, right before the delivery table that holds the run's duplicates. */
    private void faultSection(StringBuilder md) {
        md.append("## Faults and recovery\n\n");
        if (info.faultsFileError() != null) {
            md.append("**The faults file `")
                    .append(info.faultsFile())
                    .append("` could not be read** (")
                    .append(info.faultsFileError())
                    .append("): its faults are left out.\n\n");
        }
        RunStats.Settings settings = stats.settings();
        List<FaultAnalysis.Fault> marked = faults.faults();
        if (marked.isEmpty()) {
            md.append("No fault was marked (`ProbeRun.markFault`, `--faults FILE`). ");
            FaultAnalysis.Silence longest = faults.largestSilence();
            if (longest == null) {
                md.append("Longest silence: none, fewer than two polls returned records.\n\n");
            } else {
                md.append(String.format(
                        Locale.ROOT,
                        "Longest silence between two arrivals: **%s s**, from %s s to %s s after the first "
                                + "arrival. Duplicated records per " + info.sequenceSource()
                                + ": in the delivery table below.\n\n",
                        seconds(longest.lengthNs()),
                        offset(longest.startNs()),
                        offset(longest.endNs())));
            }
            return;
        }
        md.append("Latency judged: *")
                .append(stats.primaryKind().label())
                .append("* against the SLO of ")
                .append(Decimals.millis(settings.sloNs()))
                .append("; recovered = every record within the SLO for one ")
                .append(Decimals.seconds(settings.windowNs()))
                .append(" window. Times in s since the first arrival")
                .append(
                        info.faultsFile() != null
                                ? "; marks from the program and from `" + info.faultsFile() + "`"
                                : "")
                .append(".\n\n");
        MarkdownTable table = new MarkdownTable(
                List.of(
                        "fault",
                        "label",
                        "marked at",
                        "at (s)",
                        "over at (s)",
                        "gap at the mark (s)",
                        "longest silence (s)",
                        "silence from (s)",
                        "delayed",
                        "peak latency (ms)",
                        "recovered after (s)",
                        "after the end (s)",
                        "duplicated"),
                false,
                false,
                false,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                true,
                true);
        for (int i = 0; i < marked.size(); i++) {
            FaultAnalysis.Fault f = marked.get(i);
            table.row(List.of(
                    faultName(i),
                    f.mark().label(),
                    f.mark().at().toString(),
                    stats.isEmpty() ? "-" : offset(f.mark().clockNs()),
                    f.mark().end() == null || stats.isEmpty()
                            ? "-"
                            : offset(f.mark().end().clockNs()),
                    f.gapNs() == null ? "-" : seconds(f.gapNs()),
                    f.silence() == null ? "-" : seconds(f.silence().lengthNs()),
                    f.silence() == null ? "-" : offset(f.silence().startNs()),
                    String.format(Locale.ROOT, "%,d", f.delayed()),
                    f.peakLatencyNs() == null ? "-" : Decimals.ms(f.peakLatencyNs(), 3),
                    f.recoveryNs() == null ? "not recovered" : seconds(f.recoveryNs()),
                    f.recoveryAfterEndNs() == null ? "-" : seconds(f.recoveryAfterEndNs()),
                    String.format(Locale.ROOT, "%,d", f.duplicated())));
        }
        md.append(table).append('\n');

        // Per detector, the duplicates after each fault beside the run's: replays show up here.
        Map<Long, Long> whole = new TreeMap<>();
        for (SequenceTracker.DetectorCounts c : stats.sequences().perDetector()) {
            if (c.duplicated() > 0) {
                whole.put(c.detector(), c.duplicated());
            }
        }
        for (FaultAnalysis.Fault f : marked) {
            f.duplicatedByDetector().keySet().forEach(d -> whole.putIfAbsent(d, 0L));
        }
        if (whole.isEmpty()) {
            md.append("No record arrived twice.\n\n");
        } else {
            List<String> header = new ArrayList<>(List.of(info.sequenceSource()));
            for (int i = 0; i < marked.size(); i++) {
                header.add("duplicated after " + faultName(i));
            }
            header.add("duplicated, whole run");
            MarkdownTable duplicates = table(header);
            for (Map.Entry<Long, Long> e : whole.entrySet()) {
                List<String> row = new ArrayList<>(List.of(Long.toString(e.getKey())));
                for (FaultAnalysis.Fault f : marked) {
                    row.add(Long.toString(f.duplicatedByDetector().getOrDefault(e.getKey(), 0L)));
                }
                row.add(Long.toString(e.getValue()));
                duplicates.row(row);
            }
            md.append(duplicates).append('\n');
        }
        md.append("A fault's span runs from its mark to the next mark or the end of the run. *Over at* = when a "
                + "fault that lasts (a broker stopped, then started again) was marked over; its window, mark to "
                + "end, is shaded on the timeline. *Gap at the mark* = "
                + "last arrival before the mark to the first at or after it. *Longest silence* = the longest gap "
                + "between two consecutive arrivals that ends at or after the mark and starts before the next one "
                + "(it includes the gap, and also an outage that began a while after the mark). *Delayed* = "
                + "records over the SLO from the mark until recovery; *peak latency* the largest latency among "
                + "them. *Recovered after* = from the mark to the first poll, after the first record over the SLO, "
                + "from which every record stayed within the SLO for one SLO window; 0 when no record after the "
                + "mark exceeded the SLO; *not recovered* when the span ended first; *after the end* = the same "
                + "from the fault's end, 0 when it recovered before. *Duplicated* = records of "
                + "the span whose (" + info.sequenceSource() + ", seq) had arrived before.\n\n");
    }

    /** A time on the latency clock as seconds since the first arrival. */
    private String offset(long clockNs) {
        return seconds(clockNs - stats.firstArrivalNs());
    }

    private static String seconds(long ns) {
        return String.format(Locale.ROOT, "%.3f", ns / 1e9);
    }

    private static MarkdownTable table(List<String> header) {
        boolean[] right = new boolean[header.size()];
        for (int i = 0; i < right.length; i++) {
            right[i] = !(header.get(i).equals("latency")
                    || header.get(i).equals("span")
                    || header.get(i).equals("stage")
                    || header.get(i).equals(RunInfo.DETECTOR)
                    || header.get(i).equals(RunInfo.REQUEST_STREAM));
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

    /**
     * The warm-up records apart (count, p50, p99, max of the primary latency), and how long
     * latency took to settle; empty when the run had no warm-up records and nothing to say.
     */
    private String warmup() {
        LatencyKind kind = stats.primaryKind();
        RunStats.Settle settle = stats.settle(kind);
        StringBuilder md = new StringBuilder();
        if (stats.warmupRecords() > 0) {
            MarkdownTable table = table(List.of("records", "latency", "count", "p50", "p99", "max"));
            LatencySummary w = stats.warmupLatency(kind).summary();
            table.row(List.of(
                    "warm-up (not measured)",
                    kind.label(),
                    String.format(Locale.ROOT, "%,d", w.count()),
                    w.isEmpty() ? "-" : Decimals.ms(w.percentileNs(0), 3),
                    w.isEmpty() ? "-" : Decimals.ms(w.percentileNs(3), 3),
                    w.isEmpty() ? "-" : Decimals.ms(w.maxNs(), 3)));
            md.append(table).append('\n');
        }
        if (settle.settledAfterNs() >= 0) {
            md.append(String.format(
                    Locale.ROOT,
                    "Latency settled %s after the first arrival%s: from there on the %s windows' p95 (%s) stayed "
                            + "within %.0f x the median window p95 of the measured records (%s ms), ten in a row "
                            + "and at most 5 %% over it later; %d window(s) over it in all, %d among the "
                            + "measured records.%n%n",
                    Decimals.seconds(settle.settledAfterNs()),
                    stats.warmupRecords() > 0 ? " (warm-up records included)" : "",
                    Decimals.seconds(stats.settings().windowNs()),
                    kind.label(),
                    RunStats.SETTLE_FACTOR,
                    Decimals.ms(settle.medianWindowP95Ns(), 3),
                    settle.windowsOver(),
                    settle.measuredWindowsOver()));
        }
        return md.toString();
    }
}
