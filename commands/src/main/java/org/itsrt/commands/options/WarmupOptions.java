package org.itsrt.commands.options;

import java.time.Duration;
import org.itsrt.cli.DurationConverter;
import org.itsrt.pipeline.plan.LoadPlan;
import picocli.CommandLine.Option;

/**
 * A warm-up phase before the measured records, as a time or as records, never both. The load
 * turns a time into records once, at its own rate ({@link LoadPlan.Builder#warmup}).
 */
public final class WarmupOptions {

    @Option(
            names = "--warmup",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "a warm-up phase before the measured records: flagged records sent for this long first, on "
                    + "the same schedule, reported apart; 0 for none (default: 60s; 10s with --quick; with --sweep, "
                    + "each step's, default 20s)")
    Duration time;

    @Option(
            names = "--warmup-records",
            paramLabel = "N",
            description = "the warm-up as N records in all, all detectors together, instead of a time")
    Long records;

    /** The warm-up as a time, or null when given as records or not at all. */
    public Duration time() {
        return time;
    }

    /** The warm-up as records, or null when given as a time or not at all. */
    public Long records() {
        return records;
    }

    /** Whether a warm-up was given either way. */
    public boolean given() {
        return time != null || records != null;
    }

    /** Sets the warm-up given, if any, over the load's. */
    public void applyTo(LoadPlan.Builder load) {
        LoadPlan.WARMUP.require(
                time == null || records == null, "and --warmup-records are mutually exclusive: give one");
        if (time != null) {
            load.warmup(time);
        } else if (records != null) {
            load.warmupRecords(records);
        }
    }
}
