package org.itsrt.commands.options;

import org.itsrt.cli.options.RepetitionsOptions;
import org.itsrt.cli.options.SloP99Option;
import org.itsrt.experiments.capacity.CapacityAxis;
import org.itsrt.experiments.capacity.CapacityPlan;
import org.itsrt.experiments.capacity.CapacitySlo;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What a capacity search searches and what a point must meet: the axis and its range beside the
 * run plan. The range's options are spelled for either axis, and by their first names for the
 * requests axis too; every value left out is {@link CapacityPlan}'s default, the axis's for the range.
 */
public final class CapacityOptions {

    @Option(
            names = "--axis",
            paramLabel = "requests|detectors",
            description = "what the search varies: requests, the route requests per second beside the plan's "
                    + "readings; or detectors, the detectors of the plan's generated district at its speed-up, its "
                    + "requests per second held (default: requests)")
    String axis;

    @Option(
            names = {"--min", "--min-rate"},
            paramLabel = "N",
            description = "the lowest load, tried first: requests/s (default: " + (int) CapacityAxis.REQUESTS_MIN
                    + ") or detectors (default: " + (int) CapacityAxis.DETECTORS_MIN + ", at least 100)")
    Double min;

    @Option(
            names = {"--max", "--max-rate"},
            paramLabel = "N",
            description = "the highest load tried: the load doubles up to it (default: "
                    + (int) CapacityAxis.REQUESTS_MAX + " requests/s, " + (int) CapacityAxis.DETECTORS_MAX
                    + " detectors)")
    Double max;

    @Option(
            names = {"--resolution", "--rate-resolution"},
            paramLabel = "N",
            description = "bisect until the capacity is known to within this much load (default: "
                    + (int) CapacityAxis.REQUESTS_RESOLUTION + " requests/s, "
                    + (int) CapacityAxis.DETECTORS_RESOLUTION + " detectors)")
    Double resolution;

    @Mixin
    SloP99Option sloP99;

    @Option(
            names = "--lag-tolerance",
            paramLabel = "MS_PER_S",
            description = "no growing lag: the slope of each judged stream's per-window p95 over the measured "
                    + "windows is at most this, ms per s (default: " + (int) CapacitySlo.DEFAULT_LAG_TOLERANCE_MS_PER_S
                    + ", the job falling behind by 0.5%% of the rate)")
    Double lagTolerance;

    @Mixin
    RepetitionsOptions repetitions;

    /** The search as asked, checked by {@link CapacityPlan#of}. */
    public CapacityPlan.Request request() {
        return new CapacityPlan.Request(
                axis,
                min,
                max,
                resolution,
                repetitions.repetitions(),
                repetitions.maxRepetitions(),
                sloP99.given(),
                lagTolerance);
    }
}
