package org.itsrt.pipeline;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

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
        if (!(ratePerDetector > 0) || Double.isInfinite(ratePerDetector)) {
            throw new IllegalArgumentException("--rate must be > 0, got " + ratePerDetector);
        }
        if (records <= 0) {
            throw new IllegalArgumentException("--records must be > 0, got " + records);
        }
        if (steadyAfter.isNegative()) {
            throw new IllegalArgumentException("--steady-after must not be negative, got " + steadyAfter);
        }
        if (warmupRecords < 0) {
            throw new IllegalArgumentException("--warmup-records must be >= 0, got " + warmupRecords);
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
