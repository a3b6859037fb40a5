package org.itsrt.experiments.tune;

import java.util.List;
import java.util.Locale;

/**
 * How a tune chooses its points: per-period bisection of the budget ({@link BudgetSearch}, the
 * default), or simulated annealing over (period, budget) together ({@link AnnealingSearch}).
 *
 * @param seed      the annealing's random choices: the same seed and the same verdicts give the same points
 * @param maxPoints the most points the annealing measures (bisection's count follows from its ranges)
 */
public record SearchStrategy(Kind kind, long seed, int maxPoints) {

    /** The strategies, by the name {@code --strategy} takes. */
    public enum Kind {
        BISECTION,
        ANNEALING;

        public String optionValue() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The strategy named, or null for a name that is none. */
        public static Kind named(String name) {
            for (Kind kind : values()) {
                if (kind.optionValue().equals(name)) {
                    return kind;
                }
            }
            return null;
        }
    }

    public static final SearchStrategy BISECTION = new SearchStrategy(Kind.BISECTION, 0, 0);

    public SearchStrategy {
        if (kind == null || kind == Kind.ANNEALING && maxPoints < 1) {
            throw new IllegalArgumentException("not a search strategy: " + kind + ", at most " + maxPoints + " points");
        }
    }

    public static SearchStrategy annealing(long seed, int maxPoints) {
        return new SearchStrategy(Kind.ANNEALING, seed, maxPoints);
    }

    /** The most points the search measures over these ranges. */
    public int maxPoints(List<SearchRange> ranges) {
        return kind == Kind.BISECTION
                ? ranges.stream().mapToInt(SearchRange::maxPoints).sum()
                : maxPoints;
    }

    /** The strategy in words, for the plan and the report. */
    public String describe() {
        return kind == Kind.BISECTION
                ? "noise-aware bisection of the budget, one period at a time"
                : String.format(
                        Locale.ROOT,
                        "simulated annealing over (period, budget), seed %d, at most %d points",
                        seed,
                        maxPoints);
    }
}
