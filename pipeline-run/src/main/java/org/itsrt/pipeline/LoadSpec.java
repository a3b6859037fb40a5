package org.itsrt.pipeline;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.itsrt.producers.ProducerRun;

/**
 * What the producers send and how the probe judges it.
 *
 * @param data               canonical readings to replay
 * @param detectors          VDS ids, one producer each
 * @param ratePerDetector    records per second per detector (open loop)
 * @param records            measured records to send, all detectors together
 * @param steadyAfter        left out of the steady-state rows, counted from the first measured arrival
 *                           (a cut within the measured records, not the warm-up phase)
 * @param sloMs              the SLO for a window's p95
 * @param producerProperties Kafka producer settings for the detector producers
 * @param consumerProperties Kafka consumer settings for the probe
 * @param warmupRecords      flagged warm-up records the producers send first, all detectors
 *                           together, on the same schedule; the probe keeps them apart (0: none)
 */
public record LoadSpec(
        Path data,
        List<Long> detectors,
        double ratePerDetector,
        long records,
        Duration steadyAfter,
        double sloMs,
        Map<String, String> producerProperties,
        Map<String, String> consumerProperties,
        long warmupRecords) {

    /** The option that gives each field the producers check, to name it in a refusal. */
    private static final Map<String, String> OPTIONS =
            Map.of("ratePerDetector", "--rate", "records", "--records", "warmupRecords", "--warmup-records");

    /** A load without a warm-up phase. */
    public LoadSpec(
            Path data,
            List<Long> detectors,
            double ratePerDetector,
            long records,
            Duration steadyAfter,
            double sloMs,
            Map<String, String> producerProperties,
            Map<String, String> consumerProperties) {
        this(data, detectors, ratePerDetector, records, steadyAfter, sloMs, producerProperties, consumerProperties, 0);
    }

    public LoadSpec {
        detectors = List.copyOf(detectors);
        producerProperties = Map.copyOf(producerProperties);
        consumerProperties = Map.copyOf(consumerProperties);
        if (data == null || !Files.isRegularFile(data)) {
            throw new IllegalArgumentException("--data: no such file: " + data);
        }
        if (detectors.isEmpty()) {
            throw new IllegalArgumentException("no detectors to replay");
        }
        // The producers' own rules, asked now: a load they would refuse fails before a stack starts.
        try {
            ProducerRun.Plan.checkLoad(ratePerDetector, records, warmupRecords);
        } catch (ProducerRun.InvalidPlan e) {
            throw new IllegalArgumentException(OPTIONS.get(e.field()) + " " + e.problem(), e);
        }
        if (steadyAfter.isNegative()) {
            throw new IllegalArgumentException("--steady-after must not be negative, got " + steadyAfter);
        }
        if (!(sloMs > 0) || Double.isInfinite(sloMs)) {
            throw new IllegalArgumentException("--slo-ms must be > 0, got " + sloMs);
        }
    }

    /** The same load with {@code total} warm-up records first (0: none). */
    public LoadSpec withWarmupRecords(long total) {
        return new LoadSpec(
                data,
                detectors,
                ratePerDetector,
                records,
                steadyAfter,
                sloMs,
                producerProperties,
                consumerProperties,
                total);
    }

    /** How long the warm-up lasts at this load's rate. */
    public Duration warmupDuration() {
        return Duration.ofNanos(Math.round(warmupRecords / (ratePerDetector * detectors.size()) * 1e9));
    }
}
