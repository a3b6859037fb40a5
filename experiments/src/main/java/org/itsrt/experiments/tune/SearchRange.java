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

    /**
     * The budgets a search over a lattice may try: the lower bound and every resolution step above
     * it, the last step cut to the upper bound. Step {@code 0} is the lower bound, {@link #topStep()}
     * the upper one.
     */
    public long latticeBudget(int step) {
        if (step < 0 || step > topStep()) {
            throw new IllegalArgumentException("no step " + step + " in " + this);
        }
        return Math.min(minBudgetUs + step * resolutionUs, maxBudgetUs);
    }

    /** The lattice's last step: the upper bound. */
    public int topStep() {
        return (int) Math.min(Integer.MAX_VALUE - 1, (maxBudgetUs - minBudgetUs + resolutionUs - 1) / resolutionUs);
    }

    /** The lattice step of the smallest budget at or above {@code budgetUs}, within the lattice. */
    public int stepAtOrAbove(double budgetUs) {
        double steps = Math.ceil((budgetUs - minBudgetUs) / resolutionUs - 1e-9);
        return (int) Math.max(0, Math.min(topStep(), steps));
    }
}
