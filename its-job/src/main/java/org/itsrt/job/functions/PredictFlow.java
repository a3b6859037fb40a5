package org.itsrt.job.functions;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.itsrt.job.config.ModelSettings;
import org.itsrt.job.config.RuntimeSettings;
import org.itsrt.job.deadline.Deadlines;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.ValidReading;
import org.itsrt.model.FlowPredictor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Predicts each reading's next flow from the record's own 12-reading window, one model call per
 * record (batch 1, the latency case). The predictor is not thread-safe, so each subtask opens its
 * own in {@link #open} and closes it in {@link #close}: TensorFlow's native session is freed when
 * a job is cancelled, not when the JVM exits. Measures {@code infer_ns}.
 *
 * <p>With {@code --degrade}, a reading whose slack to its deadline is below the LSTM's recent p99
 * is predicted by the linear engine instead and marked degraded ({@link Predictors},
 * docs/deadlines.md).
 *
 * <p>{@link PredictFlowBatched} does the same with several readings per model call.
 */
public class PredictFlow extends ProcessFunction<ValidReading, PredictedFlow> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(PredictFlow.class);

    private final ModelSettings model;
    private final RuntimeSettings runtime;
    private transient Predictors predictors;

    public PredictFlow(ModelSettings model, RuntimeSettings runtime) {
        this.model = model;
        this.runtime = runtime;
    }

    @Override
    public void open(OpenContext openContext) {
        java.nio.file.Path bundle = model.bundleIn(getRuntimeContext().getDistributedCache());
        predictors = Predictors.open(model, bundle, runtime, getRuntimeContext().getMetricGroup());
        LOG.info(
                "subtask {}: predicting with {} ({}, shipped from {}){}",
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                model.label(),
                bundle,
                model.path().toAbsolutePath(),
                predictors.degrades() ? ", degrading to linear within " + runtime.deadlineMs() + " ms deadlines" : "");
    }

    @Override
    public void processElement(ValidReading reading, Context ctx, Collector<PredictedFlow> out) {
        // The clock is read only where a reading may be degraded: not at all in the default run.
        boolean degrade = predictors.degrades()
                && predictors.degrade(
                        Deadlines.deadlineMicros(reading.createdMs, runtime.deadlineMs()), Deadlines.nowMicros());
        FlowPredictor engine = degrade ? predictors.fallback() : predictors.primary();
        long start = System.nanoTime();
        float predicted = engine.predict(reading.window());
        long inferNs = System.nanoTime() - start;
        predictors.served(degrade, start, inferNs, 1);
        out.collect(PredictedFlow.of(reading, predicted, inferNs, degrade));
        if (degrade) {
            predictors.remeasureAfterDegraded(reading.window());
        }
    }

    @Override
    public void close() {
        if (predictors != null) {
            predictors.close();
            predictors = null;
        }
    }
}
