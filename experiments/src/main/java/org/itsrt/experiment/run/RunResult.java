package org.itsrt.experiment.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.itsrt.experiment.spec.ExperimentSpec.Row;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * What one run of one row measured: the probe's latency (from the intended send time, steady
 * state and whole run), its SLO-violation ratio, and what the backend reported (throttling).
 *
 * @param exitCode the pipeline's exit code (0 = every record measured)
 * @param applied  the backend's facts: what was set, what was measured (e.g. cpu.stat)
 */
public record RunResult(Row row, int repetition, Path dir, int exitCode, Percentiles steady, Percentiles all,
                        double sloViolationRatio, long lost, Map<String, Object> applied) {

    /** Latency percentiles in ms. */
    public record Percentiles(long count, double p50, double p90, double p99, double p999, double max) {

        static Percentiles of(JsonNode node) {
            return new Percentiles(node.path("count").asLong(), node.path("p50_ms").asDouble(Double.NaN),
                    node.path("p90_ms").asDouble(Double.NaN), node.path("p99_ms").asDouble(Double.NaN),
                    node.path("p99_9_ms").asDouble(Double.NaN), node.path("max_ms").asDouble(Double.NaN));
        }
    }

    /** Reads the probe's summary.json of a run folder. */
    static RunResult read(Row row, int repetition, Path dir, int exitCode, Map<String, Object> applied)
            throws IOException {
        JsonNode summary = new ObjectMapper().readTree(dir.resolve("probe").resolve("summary.json").toFile());
        JsonNode latency = summary.path("latency").path("from_intended");
        JsonNode steady = latency.path("steady_state");
        JsonNode sequence = summary.path("sequence").path("total");
        JsonNode slo = summary.path("slo").path("from_intended");
        return new RunResult(row, repetition, dir, exitCode,
                Percentiles.of(steady.isMissingNode() || steady.path("count").asLong() == 0 ? latency.path("all") : steady),
                Percentiles.of(latency.path("all")),
                (slo.has("steady_state") ? slo.path("steady_state") : slo.path("all")).path("violation_ratio")
                        .asDouble(Double.NaN),
                sequence.path("lost").asLong() + summary.path("records").path("shortfall").asLong(), applied);
    }

    /** Whether this run met the experiment's SLO (steady-state p99 and max). */
    public boolean meets(double p99Ms, double maxMs) {
        return exitCode == 0 && steady.p99() <= p99Ms && steady.max() <= maxMs;
    }
}
