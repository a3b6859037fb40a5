package org.itsrt.probe.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A probe run's {@code summary.json}, as one type: written by {@link RunReport}, read by every
 * program that looks at a run (the demo, experiments, {@code probe compare}). Jackson writes and
 * reads it both ways with every field required: a field that is missing, renamed or unknown fails
 * the read naming it, instead of reading as NaN. A field that has no value in a run (the steady
 * state of a run shorter than its warm-up, percentiles of no records) is written as {@code null},
 * never left out.
 */
public record ProbeSummary(
        String format,
        Run run,
        Settings settings,
        Records records,
        Warmup warmup,
        @JsonProperty("primary_latency") String primaryLatency,
        ByKind<Spans<LatencyStats>> latency,
        Stages stages,
        Sequence sequence,
        ByKind<Spans<Slo>> slo,
        Faults faults,
        Files files) {

    /**
     * The value of {@code format}; a file with another one was written by another version. 3 added
     * {@code faults}; 5 added {@code warmup} and renamed {@code settings.warmup_s} to
     * {@code settings.steady_after_s}.
     */
    public static final String FORMAT = "its-probe summary 5";

    /** Where and when the probe read, and why it stopped. */
    public record Run(
            String topic,
            @JsonProperty("bootstrap_servers") String bootstrapServers,
            @JsonProperty("group_id") String groupId,
            @JsonProperty("from_beginning") boolean fromBeginning,
            /* partition -> first offset read */
            @JsonProperty("start_offsets") Map<String, Long> startOffsets,
            @JsonProperty("consumer_overrides") Map<String, String> consumerOverrides,
            String started,
            String ended,
            @JsonProperty("duration_s") double durationS,
            @JsonProperty("active_span_s") double activeSpanS,
            @JsonProperty("stopped_by") String stoppedBy,
            String clock) {}

    /** What the statistics were computed with. */
    public record Settings(
            @JsonProperty("window_s") double windowS,
            @JsonProperty("slo_ms") double sloMs,
            @JsonProperty("steady_after_s") double steadyAfterS,
            @JsonProperty("histogram_significant_digits") int histogramSignificantDigits) {}

    /**
     * Counts of what arrived.
     *
     * @param expected  records the producers announced, null when unknown
     * @param shortfall of those, how many never arrived; null when unknown
     */
    public record Records(
            long measured,
            long malformed,
            @JsonProperty("malformed_by_reason") Map<String, Long> malformedByReason,
            @JsonProperty("negative_latency") ByKind<Long> negativeLatency,
            Long expected,
            Long shortfall) {}

    /**
     * The warm-up records, kept out of every other latency figure, and how long latency took to
     * settle (docs/latency-probe.md, "Warm-up"). Latencies are the run's {@code primary_latency}.
     *
     * @param records             warm-up records received, duplicates included
     * @param p50Ms               null without warm-up records, as are {@code p99Ms} and {@code maxMs}
     * @param settleFactor        a window has not settled while its p95 exceeds this many times
     *                            {@code medianWindowP95Ms}
     * @param medianWindowP95Ms   the median p95 of the windows of the measured records; null without
     * @param settledAfterS       from the first arrival of any record, warm-up included, to the start
     *                            of the first window from which latency stayed within the limit
     *                            ({@code RunStats.settledAfterWindow}); 0 when it did from the
     *                            first window; null without a median
     * @param windowsOver         windows over the limit, warm-up and measured
     * @param measuredWindowsOver of those, windows of the measured records
     */
    public record Warmup(
            long records,
            @JsonProperty("p50_ms") Double p50Ms,
            @JsonProperty("p99_ms") Double p99Ms,
            @JsonProperty("max_ms") Double maxMs,
            @JsonProperty("settle_factor") double settleFactor,
            @JsonProperty("median_window_p95_ms") Double medianWindowP95Ms,
            @JsonProperty("settled_after_s") Double settledAfterS,
            @JsonProperty("windows_over") long windowsOver,
            @JsonProperty("measured_windows_over") long measuredWindowsOver) {}

    /** One value per latency kind. */
    public record ByKind<T>(@JsonProperty("from_sent") T fromSent, @JsonProperty("from_intended") T fromIntended) {

        /** The value of a kind by its key ({@code from_sent}, {@code from_intended}). */
        public T of(String key) {
            return switch (key) {
                case "from_sent" -> fromSent;
                case "from_intended" -> fromIntended;
                default -> throw new IllegalArgumentException("no latency kind " + key + " (from_sent, from_intended)");
            };
        }
    }

    /**
     * A statistic over the whole run and over its steady state.
     *
     * @param steadyState null when the measured records ended before the steady-state cut
     */
    public record Spans<T>(T all, @JsonProperty("steady_state") T steadyState) {

        /** The steady state where the run has one with records in it, else the whole run. */
        public T steadyOrAll(java.util.function.ToLongFunction<T> count) {
            return steadyState != null && count.applyAsLong(steadyState) > 0 ? steadyState : all;
        }
    }

    /** End-to-end latency in milliseconds; every value but {@code count} is null when it is 0. */
    public record LatencyStats(
            long count,
            @JsonProperty("min_ms") Double minMs,
            @JsonProperty("mean_ms") Double meanMs,
            @JsonProperty("p50_ms") Double p50Ms,
            @JsonProperty("p90_ms") Double p90Ms,
            @JsonProperty("p95_ms") Double p95Ms,
            @JsonProperty("p99_ms") Double p99Ms,
            @JsonProperty("p99_9_ms") Double p999Ms,
            @JsonProperty("p99_99_ms") Double p9999Ms,
            @JsonProperty("max_ms") Double maxMs) {}

    /** A job stage's duration in microseconds; every value but {@code count} is null when it is 0. */
    public record StageStats(
            long count,
            @JsonProperty("min_us") Double minUs,
            @JsonProperty("mean_us") Double meanUs,
            @JsonProperty("p50_us") Double p50Us,
            @JsonProperty("p90_us") Double p90Us,
            @JsonProperty("p95_us") Double p95Us,
            @JsonProperty("p99_us") Double p99Us,
            @JsonProperty("p99_9_us") Double p999Us,
            @JsonProperty("p99_99_us") Double p9999Us,
            @JsonProperty("max_us") Double maxUs) {}

    /** The job's stages, from the durations advice records carry. */
    public record Stages(StageStats parse, StageStats infer, StageStats route) {}

    /** Delivery by sequence number: all detectors together and each one. */
    public record Sequence(Delivery total, @JsonProperty("per_detector") List<DetectorDelivery> perDetector) {}

    /** Lost, duplicated and reordered records of a set of detectors. */
    public record Delivery(
            long received,
            long distinct,
            @JsonProperty("max_seq") long maxSeq,
            long lost,
            long duplicated,
            long reordered) {}

    /** {@link Delivery} of one detector. */
    public record DetectorDelivery(
            long detector,
            long received,
            long distinct,
            @JsonProperty("max_seq") long maxSeq,
            long lost,
            long duplicated,
            long reordered) {}

    /**
     * The p95-per-window SLO over a span.
     *
     * @param violationRatio null when the span has no window
     */
    public record Slo(
            @JsonProperty("from_s") double fromS,
            long windows,
            @JsonProperty("empty_windows") long emptyWindows,
            @JsonProperty("violating_windows") long violatingWindows,
            @JsonProperty("violation_ratio") Double violationRatio,
            long records,
            @JsonProperty("records_over_slo") long recordsOverSlo) {}

    /**
     * Faults injected during the run and what they did to the advice stream (definitions:
     * {@code org.itsrt.probe.fault.FaultAnalysis}, docs/latency-probe.md). Times ending in
     * {@code _s} without another anchor are seconds since the run's first arrival, the time axis
     * of the timeline plot; latency is the run's {@code primary_latency}.
     *
     * @param marks          one per fault, in time order; empty when none was marked
     * @param largestSilence the longest gap between two consecutive arrivals of the whole run, null
     *                       with fewer than two polls that returned records
     */
    public record Faults(List<Fault> marks, @JsonProperty("largest_silence") Silence largestSilence) {}

    /**
     * One fault.
     *
     * @param at                   when it was marked (wall clock, ISO-8601)
     * @param offsetS              the mark, in seconds since the first arrival; null when nothing
     *                             arrived
     * @param endedAt              for a fault that lasts, when it was over (wall clock, ISO-8601):
     *                             the stopped process served again; null for a fault of one moment
     * @param endOffsetS           the same in seconds since the first arrival; null without an end
     *                             or when nothing arrived
     * @param lastArrivalBeforeS   the last arrival before the mark; null when none
     * @param firstArrivalAfterS   the first arrival at or after the mark; null when none
     * @param gapS                 from the one to the other; null unless both exist
     * @param silence              the longest gap between arrivals that ends at or after the mark
     *                             and starts before the next mark; null when none
     * @param delayed              records over the SLO from the mark until recovery
     * @param peakLatencyMs        the largest latency from the mark until recovery; null when no
     *                             record after the mark exceeded the SLO
     * @param recoveryS            the mark to the first poll from which latency stayed within the
     *                             SLO for one SLO window; 0 when it never exceeded it; null when it
     *                             did not recover before the next mark or the end of the run
     * @param recoveryAfterEndS    the fault's end to that recovery, 0 when it recovered before the
     *                             end; null without an end or without recovery
     * @param duplicated           records that arrived again, from the mark to the next mark or
     *                             the end of the run
     * @param duplicatedByDetector those per detector id, only detectors that had any
     */
    public record Fault(
            String label,
            String at,
            @JsonProperty("offset_s") Double offsetS,
            @JsonProperty("ended_at") String endedAt,
            @JsonProperty("end_offset_s") Double endOffsetS,
            @JsonProperty("last_arrival_before_s") Double lastArrivalBeforeS,
            @JsonProperty("first_arrival_after_s") Double firstArrivalAfterS,
            @JsonProperty("gap_s") Double gapS,
            Silence silence,
            long delayed,
            @JsonProperty("peak_latency_ms") Double peakLatencyMs,
            @JsonProperty("recovery_s") Double recoveryS,
            @JsonProperty("recovery_after_end_s") Double recoveryAfterEndS,
            long duplicated,
            @JsonProperty("duplicated_by_detector") Map<String, Long> duplicatedByDetector) {}

    /** A stretch without arrivals: its start (seconds since the first arrival) and length. */
    public record Silence(@JsonProperty("start_s") double startS, @JsonProperty("length_s") double lengthS) {}

    /** The run folder's other files. */
    public record Files(
            String latencies, @JsonProperty("histogram_log") String histogramLog, String windows, List<String> plots) {}

    /** Total loss: seqs that never arrived plus records announced but never received. */
    public long lostOrMissing() {
        return sequence.total().lost() + (records.shortfall() == null ? 0 : records.shortfall());
    }

    // ---------------------------------------------------------------- reading and writing

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    /** Writes {@code summary.json}. */
    public void write(Path file) throws IOException {
        JSON.writeValue(file.toFile(), this);
    }

    /** The summary as JSON text. */
    public String toJson() throws IOException {
        return JSON.writeValueAsString(this);
    }

    /**
     * Reads a {@code summary.json}.
     *
     * @throws IOException naming the file and the field when one is missing, unknown or of the
     *                     wrong type, or when the file was written by another version
     */
    public static ProbeSummary read(Path file) throws IOException {
        // The format first: a file of another version lacks or adds fields, and should be refused
        // for its version, not for the first field that differs.
        com.fasterxml.jackson.databind.JsonNode tree = JSON.readTree(file.toFile());
        com.fasterxml.jackson.databind.JsonNode format = tree == null ? null : tree.get("format");
        if (format != null && format.isTextual() && !FORMAT.equals(format.asText())) {
            throw new IOException(file + ": format '" + format.asText() + "', expected '" + FORMAT
                    + "' (written by another version of the probe)");
        }
        ProbeSummary summary;
        try {
            summary = JSON.treeToValue(tree, ProbeSummary.class);
        } catch (UnrecognizedPropertyException e) {
            throw new IOException(
                    file + ": not a probe summary (" + FORMAT + "): unknown field '" + e.getPropertyName() + "' at "
                            + path(e),
                    e);
        } catch (MismatchedInputException e) {
            java.util.regex.Matcher missing = MISSING.matcher(e.getOriginalMessage());
            throw new IOException(
                    file + ": not a probe summary (" + FORMAT + "): "
                            + (missing.find()
                                    ? "missing field '" + missing.group(1) + "' at " + path(e)
                                    : e.getOriginalMessage() + " at " + path(e)),
                    e);
        }
        if (!FORMAT.equals(summary.format())) {
            throw new IOException(file + ": format '" + summary.format() + "', expected '" + FORMAT
                    + "' (written by another version of the probe)");
        }
        return summary;
    }

    /** Reads summary JSON text; see {@link #read(Path)}. */
    public static ProbeSummary parse(String json) throws IOException {
        return JSON.readValue(json, ProbeSummary.class);
    }

    /** Jackson's words for a required field that is absent. */
    private static final java.util.regex.Pattern MISSING =
            java.util.regex.Pattern.compile("Missing creator property '([^']+)'");

    private static String path(MismatchedInputException e) {
        StringBuilder where = new StringBuilder();
        for (var ref : e.getPath()) {
            where.append('/').append(ref.getFieldName() != null ? ref.getFieldName() : String.valueOf(ref.getIndex()));
        }
        return where.length() == 0 ? "/" : where.toString();
    }
}
