package org.itsrt.pipeline;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.itsrt.probe.report.ProbeSummary;
import org.itsrt.probe.report.ProbeSummary.LatencyStats;

/**
 * A run's verdict as people read it: the latency table the console shows and {@code summary.md}
 * keeps, with what was lost, duplicated and dead-lettered.
 */
public final class PipelineReport {

    private static final String[] COLUMNS = {"count", "p50", "p90", "p99", "p99.9", "max"};

    private final RunResult result;

    public PipelineReport(RunResult result) {
        this.result = result;
    }

    /** What the run measured: the identity floor or the whole job. */
    public String title() {
        return result.identity() ? "Pipeline run: identity floor" : "Pipeline run: the ITS pipeline";
    }

    /**
     * The latency table (ms): both latencies, the whole run and its steady state (when the
     * steady-state cut leaves something out), and the warm-up records apart.
     */
    public String latencyTable() {
        if (result.requests() == null) {
            return latencyTable(result.probe());
        }
        return "readings -> predictions:\n\n" + latencyTable(result.probe()) + "\nroute requests -> answers:\n\n"
                + latencyTable(result.requests().answers());
    }

    private static String latencyTable(ProbeSummary probe) {
        StringBuilder md = new StringBuilder("| latency (ms) | span |");
        for (String c : COLUMNS) {
            md.append(' ').append(c).append(" |");
        }
        md.append("\n|---|---|");
        md.append("---:|".repeat(COLUMNS.length)).append('\n');
        double steadyAfter = probe.settings().steadyAfterS();
        for (String kind : List.of("from_intended", "from_sent")) {
            ProbeSummary.Spans<LatencyStats> spans = probe.latency().of(kind);
            row(md, kind, "all", spans.all());
            // With no cut the steady state is the whole run again: one row says it.
            if (spans.steadyState() != null && steadyAfter > 0) {
                row(
                        md,
                        kind,
                        String.format(Locale.ROOT, "steady state (from %.0f s)", steadyAfter),
                        spans.steadyState());
            }
        }
        ProbeSummary.Warmup warmup = probe.warmup();
        if (warmup.records() > 0) {
            md.append("| ")
                    .append(probe.primaryLatency().replace('_', ' '))
                    .append(" | warm-up (not measured) | ")
                    .append(String.format(Locale.ROOT, "%,d", warmup.records()))
                    .append(" |");
            for (Double value : new Double[] {warmup.p50Ms(), null, warmup.p99Ms(), null, warmup.maxMs()}) {
                md.append(value == null ? " - |" : String.format(Locale.ROOT, " %.2f |", value));
            }
            md.append('\n');
        }
        return md.toString();
    }

    /**
     * When latency settled, counted from the first arrival (warm-up records included): the start
     * of the first SLO window from which the windows' p95 stayed within the probe's factor times
     * the measured median (docs/latency-probe.md, "Warm-up"); null when the probe could not tell
     * (no measured window).
     */
    public String settleLine() {
        ProbeSummary probe = result.probe();
        ProbeSummary.Warmup w = probe.warmup();
        if (w.settledAfterS() == null) {
            return null;
        }
        return String.format(
                Locale.ROOT,
                "latency settled %.0f s after the first arrival (%.0f s windows' p95 within %.0f x the measured "
                        + "median %.2f ms from there on; %d window(s) over it, %d among the measured records)",
                w.settledAfterS(),
                probe.settings().windowS(),
                w.settleFactor(),
                w.medianWindowP95Ms(),
                w.windowsOver(),
                w.measuredWindowsOver());
    }

    private static void row(StringBuilder md, String kind, String span, LatencyStats s) {
        md.append("| ")
                .append(kind.replace('_', ' '))
                .append(" | ")
                .append(span)
                .append(" | ");
        md.append(String.format(Locale.ROOT, "%,d", s.count())).append(" |");
        for (Double value : new Double[] {s.p50Ms(), s.p90Ms(), s.p99Ms(), s.p999Ms(), s.maxMs()}) {
            md.append(value == null ? " - |" : String.format(Locale.ROOT, " %.2f |", value));
        }
        md.append('\n');
    }

    /** One line: lost, duplicated, reordered by seq; records that never arrived; dead letters. */
    public String deliveryLine() {
        ProbeSummary probe = result.probe();
        Map<String, Long> deadLetters = result.deadLetters();
        StringBuilder line = new StringBuilder();
        if (result.requests() != null) {
            line.append("readings: ").append(delivery(probe, deadLetters != null));
            line.append("; requests: ").append(delivery(result.requests().answers(), deadLetters != null));
            line.append("; both: ");
        } else {
            line.append(delivery(probe, deadLetters != null));
        }
        if (deadLetters == null) {
            line.append(result.requests() != null ? "" : ", ").append("dead letters not counted (interrupted)");
        } else {
            line.append(result.requests() != null ? "" : ", ")
                    .append(String.format(Locale.ROOT, "dead-lettered %d", result.deadLettered()));
            if (!deadLetters.isEmpty()) {
                line.append(' ').append(deadLetters);
            }
        }
        Double ratio = probe.slo().fromIntended().all().violationRatio();
        if (ratio != null) {
            line.append(String.format(
                    Locale.ROOT,
                    "; SLO violation ratio %.2f%% (p95 per %.0f s window > %.0f ms)",
                    ratio * 100,
                    probe.settings().windowS(),
                    probe.settings().sloMs()));
        }
        return line.toString();
    }

    /** Lost, duplicated, reordered by seq; with {@code counted}, the records that never arrived. */
    private static String delivery(ProbeSummary probe, boolean counted) {
        ProbeSummary.Delivery total = probe.sequence().total();
        String line = String.format(
                Locale.ROOT,
                "lost %d, duplicated %d, reordered %d",
                total.lost(),
                total.duplicated(),
                total.reordered());
        // An interrupted run stopped its producers early: the announced total says nothing then.
        if (counted && probe.records().shortfall() != null) {
            line += String.format(
                    Locale.ROOT, ", never arrived %d", probe.records().shortfall());
        }
        return line;
    }

    /** {@code summary.md} of the run folder: the title, the facts of the run, the table, the delivery line. */
    public void write(Path file, List<String> facts) throws IOException {
        StringBuilder md = new StringBuilder("# ").append(title()).append("\n\n");
        for (String fact : facts) {
            md.append("- ").append(fact).append('\n');
        }
        md.append("\n## End-to-end latency\n\n").append(latencyTable()).append('\n');
        md.append("*from intended* counts from the open-loop schedule's send time, *from sent* from the actual send "
                        + "stamp; percentiles are HdrHistogram's. Delivery: ")
                .append(deliveryLine())
                .append(".\n\n");
        String settle = settleLine();
        // Only beside a warm-up: a run without one keeps the report it always had.
        if (settle != null && result.probe().warmup().records() > 0) {
            md.append("Warm-up: ").append(settle).append(".\n\n");
        }
        md.append(
                "Details: [the probe's report](probe/summary.md) (per-detector delivery, stages, SLO windows, plots), "
                        + "[the producers' report](producer.md).\n\n");
        md.append("![ECDF](probe/ecdf-log.png)\n\n![timeline](probe/timeline.png)\n");
        Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
    }
}
