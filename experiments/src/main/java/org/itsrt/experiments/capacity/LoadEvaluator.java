package org.itsrt.experiments.capacity;

/**
 * Measures one run at a load. The search only decides which load to try next; how a run is
 * measured (the whole pipeline, {@link PipelineLoadEvaluator}, or a model of it in a test) is this
 * interface's business.
 */
@FunctionalInterface
public interface LoadEvaluator {

    /**
     * @param point      the point's number in the search, from 1 (names its folder)
     * @param load       the point's load on the search's axis: route requests per second, all request
     *                   streams together, or detectors
     * @param repetition the run's number at this point, from 1
     * @throws Exception when the run could not be measured at all (the search stops)
     */
    LoadRun measure(int point, double load, int repetition) throws Exception;
}
