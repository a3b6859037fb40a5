package org.itsrt.cli.options;

import java.time.Duration;
import org.itsrt.cli.DurationConverter;
import picocli.CommandLine.Option;

/**
 * A warm-up phase before the measured records, as a time or as records, never both: flagged
 * records the producers send first, on the same schedule, which the probe keeps apart. Whoever
 * knows the rate turns a time into records, once.
 */
public final class WarmupOptions {

    @Option(
            names = "--warmup",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "a warm-up phase before the measured records: flagged records sent for this long first, on "
                    + "the same schedule, reported apart; 0 for none (default: the command's; a sweep's steps each "
                    + "have theirs)")
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
}
