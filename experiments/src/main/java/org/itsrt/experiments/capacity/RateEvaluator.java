package org.itsrt.experiments.capacity;

/**
 * Measures one run at a request rate. The search only decides which rate to try next; how a run is
 * measured (the whole pipeline, {@link PipelineRateEvaluator}, or a model of it in a test) is this
 * interface's business.
 */
@FunctionalInterface
public interface RateEvaluator {

    /**
     * @param point      the point's number in the search, from 1 (names its folder)
     * @param rate       route requests per second, all request streams together
     * @param repetition the run's number at this point, from 1
     * @throws Exception when the run could not be measured at all (the search stops)
     */
    RateRun measure(int point, double rate, int repetition) throws Exception;
}
