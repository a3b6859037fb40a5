package org.itsrt.pipeline;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.itsrt.pipeline.plan.LoadPlan;
import org.itsrt.records.Workload;

/**
 * What the producers send and how the probe judges it, as a run starts it: a plan's load
 * ({@link LoadPlan}, where every count, default and check lives) with its readings file found.
 *
 * @param data        the canonical readings to replay, a file that exists
 * @param plan        rate, detectors, records and warm-up in records, steady-state cut, SLO, client settings
 * @param stationMeta the district's station metadata file, the route requests' stations (the
 *                    district workload); null for the study
 */
public record LoadSpec(Path data, LoadPlan plan, Path stationMeta) {

    public LoadSpec {
        if (data == null || !Files.isRegularFile(data)) {
            throw new IllegalArgumentException("--data: no such file: " + data);
        }
        if (plan == null) {
            throw new IllegalArgumentException("a load needs its plan");
        }
        if (plan.workload() == Workload.DISTRICT && (stationMeta == null || !Files.isRegularFile(stationMeta))) {
            throw new IllegalArgumentException(
                    "the district workload needs its station metadata file, got " + stationMeta);
        }
    }

    /** The study's load: readings alone. */
    public LoadSpec(Path data, LoadPlan plan) {
        this(data, plan, null);
    }

    /** Whether this is the district workload's load: every detector of its table, and route requests. */
    public boolean isDistrict() {
        return plan.workload() == Workload.DISTRICT;
    }

    /** VDS ids, one producer each. */
    public List<Long> detectors() {
        return plan.detectors();
    }

    /** Records per second per detector (open loop). */
    public double ratePerDetector() {
        return plan.rateHz();
    }

    /** Measured records to send, all detectors together. */
    public long records() {
        return plan.records();
    }

    /** Left out of the steady-state rows, counted from the first measured arrival. */
    public Duration steadyAfter() {
        return plan.steadyAfter();
    }

    /** The SLO for a window's p95. */
    public double sloMs() {
        return plan.sloMs();
    }

    public Map<String, String> producerProperties() {
        return plan.producerProperties();
    }

    public Map<String, String> consumerProperties() {
        return plan.consumerProperties();
    }

    /** Flagged warm-up records the producers send first, all detectors together (0: none). */
    public long warmupRecords() {
        return plan.warmupRecords();
    }

    /** The same load with {@code total} warm-up records first (0: none). */
    public LoadSpec withWarmupRecords(long total) {
        return new LoadSpec(data, plan.toBuilder().warmupRecords(total).build(), stationMeta);
    }

    /** How long the warm-up lasts at this load's rate. */
    public Duration warmupDuration() {
        return plan.warmupDuration();
    }
}
