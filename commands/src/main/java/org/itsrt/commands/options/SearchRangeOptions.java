package org.itsrt.commands.options;

import org.itsrt.cli.options.RepetitionsOptions;
import org.itsrt.cli.options.SloP99Option;
import org.itsrt.experiments.tune.TunePlan;
import org.itsrt.scheduling.cli.PeriodOption;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What a tune searches and what a point must meet: the search range beside a tune's run plan.
 * Every value left out is the base experiment's, or the backend's.
 */
public final class SearchRangeOptions {

    @Mixin
    SloP99Option sloP99;

    @Option(
            names = "--slo-max",
            paramLabel = "MS",
            description = "... and its steady-state max at most this (default: the file's slo.max_ms)")
    Double sloMax;

    @Mixin
    PeriodOption periods;

    @Option(
            names = "--min-budget-us",
            paramLabel = "US",
            description = "lower end of the range, per CPU (default: the smallest budget of the file's rows with that "
                    + "period if below the upper end, else the backend's minimum: 1000 us for linux-cgroup, 2 us for "
                    + "linux-deadline)")
    Long minBudget;

    @Option(
            names = "--max-budget-us",
            paramLabel = "US",
            description = "upper end of the range, tried first (default: the largest budget of the file's rows with "
                    + "that period, or the period)")
    Long maxBudget;

    @Option(
            names = "--resolution-us",
            paramLabel = "US",
            description =
                    "bisect until the smallest passing budget is known to within this (default: 1%% of the period)")
    Long resolution;

    @Mixin
    RepetitionsOptions repetitions;

    @Mixin
    SearchStrategyOptions strategy;

    /** Runs per point of a tune unless {@code --repetitions} says otherwise. */
    public static final int DEFAULT_REPETITIONS = 2;

    /** The range as asked, checked by {@link TunePlan#of}. */
    public TunePlan.Request request() {
        return new TunePlan.Request(
                sloP99.given(),
                sloMax,
                periods.all(),
                minBudget,
                maxBudget,
                resolution,
                repetitions.repetitionsOr(DEFAULT_REPETITIONS),
                repetitions.maxRepetitions(),
                strategy.strategy(),
                strategy.seed(),
                strategy.maxPoints());
    }
}
