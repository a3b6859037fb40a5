package org.itsrt.producers.send;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.io.IOException;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;

/**
 * What one replay sent, as plain values: the producers' side of a pipeline run, beside the
 * probe's summary. Written as {@code producer.json} next to the Markdown report and read back
 * with every field required.
 *
 * @param target       every record the run was meant to send, warm-up records included
 * @param warmupTarget of them, the warm-up records sent first (0: no warm-up)
 * @param warmupSent   of {@code sent}, the warm-up records
 * @param firstError the first send failure's message, null when none failed
 * @param seconds    the active span: first to last send
 */
public record ProducerSummary(
        int detectors,
        @JsonProperty("rate_per_detector") double ratePerDetector,
        long target,
        long sent,
        @JsonProperty("warmup_target") long warmupTarget,
        @JsonProperty("warmup_sent") long warmupSent,
        long acked,
        long failed,
        @JsonProperty("first_error") String firstError,
        double seconds,
        @JsonProperty("achieved_rate") Double achievedRate,
        @JsonProperty("send_lag_ms") Percentiles sendLagMs,
        @JsonProperty("ack_latency_ms") Percentiles ackLatencyMs) {

    /** Percentiles in ms; null when nothing was recorded. */
    public record Percentiles(
            long count, Double p50, Double p90, Double p99, @JsonProperty("p99_9") Double p999, Double max) {

        static Percentiles of(Histogram h) {
            if (h.getTotalCount() == 0) {
                return new Percentiles(0, null, null, null, null, null);
            }
            return new Percentiles(
                    h.getTotalCount(), ms(h, 50), ms(h, 90), ms(h, 99), ms(h, 99.9), h.getMaxValue() / 1e6);
        }

        private static double ms(Histogram h, double percentile) {
            return h.getValueAtPercentile(percentile) / 1e6;
        }
    }

    public static ProducerSummary of(RunSummary run) {
        double rate = run.achievedRate();
        return new ProducerSummary(
                run.detectors(),
                run.ratePerDetector(),
                run.target(),
                run.sent(),
                run.warmupTarget(),
                run.warmupSent(),
                run.acked(),
                run.failed(),
                run.firstError(),
                run.seconds(),
                Double.isNaN(rate) ? null : rate,
                Percentiles.of(run.sendLagNs()),
                Percentiles.of(run.ackLatencyNs()));
    }

    /** True when every record the run was meant to send was sent and acknowledged. */
    public boolean complete() {
        return failed == 0 && sent == target && acked == sent;
    }

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    public void write(Path file) throws IOException {
        JSON.writeValue(file.toFile(), this);
    }

    /** @throws IOException naming the file and the field that is missing, unknown or mistyped */
    public static ProducerSummary read(Path file) throws IOException {
        try {
            return JSON.readValue(file.toFile(), ProducerSummary.class);
        } catch (MismatchedInputException e) {
            throw new IOException(file + ": not a producer summary: " + e.getOriginalMessage(), e);
        }
    }
}
