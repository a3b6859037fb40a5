package org.itsrt.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The demo's verdict, read back from the probe's {@code summary.json}: the latency table the
 * console shows and {@code summary.md} keeps, with what was lost, duplicated and dead-lettered.
 */
final class DemoSummary {

    private static final String[] COLUMNS = {"count", "p50", "p90", "p99", "p99.9", "max"};

    private final JsonNode probe;
    /** Dead letters by reason; null when they were not counted (an interrupted run). */
    private final Map<String, Long> deadLetters;

    private DemoSummary(JsonNode probe, Map<String, Long> deadLetters) {
        this.probe = probe;
        this.deadLetters = deadLetters;
    }

    static DemoSummary read(Path probeSummaryJson, Map<String, Long> deadLetters) throws IOException {
        return new DemoSummary(new ObjectMapper().readTree(probeSummaryJson.toFile()), deadLetters);
    }

    /** Dead letters other than the handshake; -1 when they were not counted (an interrupted run). */
    long deadLettered() {
        return deadLetters == null ? -1 : deadLetters.values().stream().mapToLong(Long::longValue).sum();
    }

    long received() {
        return probe.at("/records/measured").asLong();
    }

    /** The latency table (ms): both latencies, the whole run and its steady state. */
    String latencyTable() {
        StringBuilder md = new StringBuilder("| latency (ms) | span |");
        for (String c : COLUMNS) {
            md.append(' ').append(c).append(" |");
        }
        md.append("\n|---|---|");
        md.append("---:|".repeat(COLUMNS.length)).append('\n');
        double warmup = probe.at("/settings/warmup_s").asDouble();
        for (String kind : List.of("from_intended", "from_sent")) {
            row(md, kind, "all", probe.at("/latency/" + kind + "/all"));
            JsonNode steady = probe.at("/latency/" + kind + "/steady_state");
            if (!steady.isMissingNode() && !steady.isNull()) {
                row(md, kind, String.format(Locale.ROOT, "steady state (from %.0f s)", warmup), steady);
            }
        }
        return md.toString();
    }

    private static void row(StringBuilder md, String kind, String span, JsonNode s) {
        md.append("| ").append(kind.replace('_', ' ')).append(" | ").append(span).append(" | ");
        md.append(String.format(Locale.ROOT, "%,d", s.path("count").asLong())).append(" |");
        for (String key : List.of("p50_ms", "p90_ms", "p99_ms", "p99_9_ms", "max_ms")) {
            md.append(String.format(Locale.ROOT, " %.2f |", s.path(key).asDouble(Double.NaN)));
        }
        md.append('\n');
    }

    /** One line: lost, duplicated, reordered by seq; records that never arrived; dead letters. */
    String deliveryLine() {
        JsonNode total = probe.at("/sequence/total");
        JsonNode shortfall = probe.at("/records/shortfall");
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "lost %d, duplicated %d, reordered %d", total.path("lost").asLong(), total.path("duplicated").asLong(),
                total.path("reordered").asLong()));
        // An interrupted run stopped its producers early: the announced total says nothing then.
        if (deadLetters != null && !shortfall.isMissingNode() && !shortfall.isNull()) {
            line.append(String.format(Locale.ROOT, ", never arrived %d", shortfall.asLong()));
        }
        if (deadLetters == null) {
            line.append(", dead letters not counted (interrupted)");
        } else {
            line.append(String.format(Locale.ROOT, ", dead-lettered %d", deadLettered()));
            if (!deadLetters.isEmpty()) {
                line.append(' ').append(deadLetters);
            }
        }
        double ratio = probe.at("/slo/from_intended/all/violation_ratio").asDouble(Double.NaN);
        if (!Double.isNaN(ratio)) {
            line.append(String.format(Locale.ROOT, "; SLO violation ratio %.2f%% (p95 per %.0f s window > %.0f ms)",
                    ratio * 100, probe.at("/settings/window_s").asDouble(), probe.at("/settings/slo_ms").asDouble()));
        }
        return line.toString();
    }

    /** {@code summary.md} of the run folder. */
    void write(Path file, String title, List<String> facts) throws IOException {
        StringBuilder md = new StringBuilder("# ").append(title).append("\n\n");
        for (String fact : facts) {
            md.append("- ").append(fact).append('\n');
        }
        md.append("\n## End-to-end latency\n\n").append(latencyTable()).append('\n');
        md.append("*from intended* counts from the open-loop schedule's send time, *from sent* from the actual send "
                + "stamp; percentiles are HdrHistogram's. Delivery: ").append(deliveryLine()).append(".\n\n");
        md.append("Details: [the probe's report](probe/summary.md) (per-detector delivery, stages, SLO windows, plots), "
                + "[the producers' report](producer.md).\n\n");
        md.append("![ECDF](probe/ecdf-log.png)\n\n![timeline](probe/timeline.png)\n");
        Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
    }
}
