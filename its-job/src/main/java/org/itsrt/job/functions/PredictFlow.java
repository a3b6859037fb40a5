package org.itsrt.job.functions;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.itsrt.job.config.ModelSettings;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.ValidReading;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.FlowPredictors;
import org.itsrt.model.ReadingWindow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Predicts each reading's next flow from the record's own 12-reading window, one model call per
 * record (batch 1, the latency case). The predictor is not thread-safe, so each subtask opens its
 * own in {@link #open} and closes it in {@link #close}: TensorFlow's native session is freed when
 * a job is cancelled, not when the JVM exits. Measures {@code infer_ns}.
 *
 * <p>{@link PredictFlowBatched} does the same with several readings per model call.
 */
public class PredictFlow extends ProcessFunction<ValidReading, PredictedFlow> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(PredictFlow.class);

    private final ModelSettings model;
    private transient FlowPredictor predictor;

    public PredictFlow(ModelSettings model) {
        this.model = model;
    }

    @Override
    public void open(OpenContext openContext) {
        predictor = FlowPredictors.open(model.path(), model.predictorOptions());
        PredictorWarmup.run(predictor, model.warmupCalls());
        LOG.info(
                "subtask {}: predicting with {} ({})",
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                model.label(),
                model.path().toAbsolutePath());
    }

    @Override
    public void processElement(ValidReading reading, Context ctx, Collector<PredictedFlow> out) {
        long start = System.nanoTime();
        float predicted = predictor.predict(new ReadingWindow(reading.flow, reading.speed, reading.ts));
        long inferNs = System.nanoTime() - start;
        out.collect(PredictedFlow.of(reading, predicted, inferNs));
    }

    @Override
    public void close() {
        if (predictor != null) {
            predictor.close();
            predictor = null;
        }
    }
}
