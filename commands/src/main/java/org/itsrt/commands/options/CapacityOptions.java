package org.itsrt.commands.options;

import org.itsrt.cli.options.RepetitionsOptions;
import org.itsrt.cli.options.SloP99Option;
import org.itsrt.experiments.capacity.CapacityPlan;
import org.itsrt.experiments.capacity.CapacitySlo;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What a capacity search searches and what a point must meet: the request rates beside the run
 * plan. Every value left out is {@link CapacityPlan}'s default.
 */
public final class CapacityOptions {

    @Option(
            names = "--min-rate",
            paramLabel = "R",
            description = "the lowest rate, route requests/s, tried first (default: "
                    + (int) CapacityPlan.DEFAULT_MIN_RATE + ")")
    Double minRate;

    @Option(
            names = "--max-rate",
            paramLabel = "R",
            description = "the highest rate tried: the rate doubles up to it (default: "
                    + (int) CapacityPlan.DEFAULT_MAX_RATE + ")")
    Double maxRate;

    @Option(
            names = "--rate-resolution",
            paramLabel = "R",
            description = "bisect until the capacity is known to within this many requests/s (default: "
                    + (int) CapacityPlan.DEFAULT_RESOLUTION + ")")
    Double resolution;

    @Mixin
    SloP99Option sloP99;

    @Option(
            names = "--lag-tolerance",
            paramLabel = "MS_PER_S",
            description = "no growing lag: the slope of the answers' per-window p95 over the measured windows is at "
                    + "most this, ms per s (default: " + (int) CapacitySlo.DEFAULT_LAG_TOLERANCE_MS_PER_S
                    + ", the job falling behind by 0.5%% of the rate)")
    Double lagTolerance;

    @Mixin
    RepetitionsOptions repetitions;

    /** The search as asked, checked by {@link CapacityPlan#of}. */
    public CapacityPlan.Request request() {
        return new CapacityPlan.Request(
                minRate,
                maxRate,
                resolution,
                repetitions.repetitions(),
                repetitions.maxRepetitions(),
                sloP99.given(),
                lagTolerance);
    }
}
