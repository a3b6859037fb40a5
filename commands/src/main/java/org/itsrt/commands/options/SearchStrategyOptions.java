package org.itsrt.commands.options;

import picocli.CommandLine.Option;

/**
 * How a tune chooses its points: the strategy, and the annealing's seed and point budget. Taken
 * as given and checked with the rest of the request by {@code TunePlan.of}, so that a bad value
 * is named in one line with every other problem.
 */
public final class SearchStrategyOptions {

    @Option(
            names = "--strategy",
            paramLabel = "NAME",
            description = "bisection: each period's budget bisected in turn, the whole frontier located (default); "
                    + "annealing: simulated annealing over (period, budget) together, aimed at the lowest share")
    String strategy;

    @Option(
            names = "--search-seed",
            paramLabel = "N",
            description = "the annealing's seed: the same seed and the same verdicts give the same points (default: "
                    + "1; --seed is the district load's)")
    Long seed;

    @Option(
            names = "--max-points",
            paramLabel = "N",
            description = "the most points the annealing measures (default: as many as the bisection may take)")
    Integer maxPoints;

    public String strategy() {
        return strategy;
    }

    public Long seed() {
        return seed;
    }

    public Integer maxPoints() {
        return maxPoints;
    }
}
