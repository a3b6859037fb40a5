package org.itsrt.experiments.tune;

/**
 * The budgets searched for one period: whole microseconds from {@code minBudgetUs} to
 * {@code maxBudgetUs}, bisected until the smallest passing budget is known to within
 * {@code resolutionUs}.
 */
public record SearchRange(long periodUs, long minBudgetUs, long maxBudgetUs, long resolutionUs) {

    public SearchRange {
        if (periodUs < 1
                || minBudgetUs < 1
                || minBudgetUs >= maxBudgetUs
                || maxBudgetUs > periodUs
                || resolutionUs < 1) {
            throw new IllegalArgumentException("not a search range: budgets " + minBudgetUs + ".." + maxBudgetUs
                    + " us every " + periodUs + " us, resolution " + resolutionUs + " us");
        }
    }

    /** The most points a search of this range tries: the upper bound, the halvings, the lower bound. */
    public int maxPoints() {
        return 2 + halvings(maxBudgetUs - minBudgetUs);
    }

    /**
     * How many more midpoints a bracket {@code gapUs} wide needs before it is within the
     * resolution, counting the larger half each time (the midpoint is rounded down).
     */
    int halvings(long gapUs) {
        int n = 0;
        for (long gap = gapUs; gap > resolutionUs; gap -= gap / 2) {
            n++;
        }
        return n;
    }
}
