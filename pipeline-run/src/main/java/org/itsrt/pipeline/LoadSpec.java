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
 * @param records            records to send and measure, all detectors together
 * @param warmup             left out of the steady-state rows, counted from the first arrival
 * @param sloMs              the SLO for a window's p95
 * @param producerProperties Kafka producer settings for the detector producers
 * @param consumerProperties Kafka consumer settings for the probe
 */
public record LoadSpec(
        Path data,
        List<Long> detectors,
        double ratePerDetector,
        long records,
        Duration warmup,
        double sloMs,
        Map<String, String> producerProperties,
        Map<String, String> consumerProperties) {

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
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("--warmup must not be negative, got " + warmup);
        }
        if (!(sloMs > 0) || Double.isInfinite(sloMs)) {
            throw new IllegalArgumentException("--slo-ms must be > 0, got " + sloMs);
        }
    }
}
