package org.itsrt.experiments.tune;

/**
 * A search over whole-pipeline runs for budgets that meet the SLO: it chooses the points, and
 * {@link PointTrials} measures them. Which one runs is the settings' {@link SearchStrategy}.
 */
public interface TuneSearch {

    /** Searches to the end, or until a run fails or the search is interrupted. */
    TuneResult run();

    /**
     * Stops the search before its next run (Ctrl-C); the run under way is the caller's to end. Returns
     * what the search has measured until now, with what was running, for the report of an interrupted
     * search.
     */
    TuneResult interrupt();

    /** The search the settings' strategy names. */
    static TuneSearch of(BudgetSearch.Settings settings, PointEvaluator evaluator, BudgetSearch.Listener listener) {
        return switch (settings.strategy().kind()) {
            case BISECTION -> new BudgetSearch(settings, evaluator, listener);
            case ANNEALING -> new AnnealingSearch(settings, evaluator, listener);
        };
    }
}
