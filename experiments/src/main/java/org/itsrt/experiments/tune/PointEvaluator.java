package org.itsrt.experiments.tune;

import org.itsrt.experiments.run.RowRun;

/**
 * Measures one run under a budget. The search only decides which budget to try next; how a run
 * is measured (the whole pipeline, {@link PipelineEvaluator}, or a model of it in a test) is this
 * interface's business.
 */
@FunctionalInterface
public interface PointEvaluator {

    /**
     * @param point      the point's number in the search, from 1 (names its folder)
     * @param budgetUs   CPU time per period, per CPU of the real-time side (as an experiment row's budget_us)
     * @param periodUs   the period
     * @param repetition the run's number at this point, from 1
     * @return what the run measured; a non-zero exit code means the run itself failed
     * @throws Exception when the run could not be measured at all (the search stops)
     */
    RowRun measure(int point, long budgetUs, long periodUs, int repetition) throws Exception;
}
