package org.itsrt.job.functions;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.itsrt.job.config.ModelSettings;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.ValidReading;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.FlowPredictors;
import org.itsrt.model.ReadingWindow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link PredictFlow} with micro-batching ({@code --max-batch N > 1}): readings are collected
 * until {@code N} are waiting or the oldest has waited {@code --max-batch-wait-us}, then
 * predicted in one model call, which costs far less per reading than N calls (docs/inference.md:
 * the kernel predicts 6 windows in 3.4 times the time of one). A throughput setting: each
 * reading may wait up to the bound for company.
 *
 * <p>An operator rather than a {@code ProcessFunction} because the wait bound needs a timer, and
 * a non-keyed function may not set timers (a keyBy would add a network exchange). Timers run on
 * the task's own thread, like {@link #processElement}, so the buffer needs no locking; their
 * resolution is 1 ms, so a bound below that is met by the next arriving reading or the next
 * millisecond, whichever comes first. The buffer is flushed before every checkpoint barrier and
 * at end of input, so a checkpoint never holds a reading back and none is lost.
 *
 * <p>{@code infer_ns} of each reading is the time of the model call of its batch.
 */
public class PredictFlowBatched extends AbstractStreamOperator<PredictedFlow>
        implements OneInputStreamOperator<ValidReading, PredictedFlow>, BoundedOneInput {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(PredictFlowBatched.class);

    private final ModelSettings model;
    private final int maxBatch;
    private final long maxWaitNanos;

    private transient FlowPredictor predictor;
    private transient List<ValidReading> pending;
    private transient List<ReadingWindow> windows;
    private transient float[] predictions;
    private transient long oldestArrivalNanos;
    /** Counts flushed batches, so that a timer set for an earlier batch leaves the current one alone. */
    private transient long batchNumber;

    /**
     * @param maxBatch       readings predicted in one model call at most ({@code --max-batch})
     * @param maxBatchWaitUs the longest the oldest reading waits for its batch ({@code --max-batch-wait-us})
     */
    public PredictFlowBatched(ModelSettings model, int maxBatch, long maxBatchWaitUs) {
        this.model = model;
        this.maxBatch = maxBatch;
        this.maxWaitNanos = maxBatchWaitUs * 1_000;
    }

    @Override
    public void open() throws Exception {
        super.open();
        predictor = FlowPredictors.open(model.path(), model.predictorOptions());
        PredictorWarmup.run(predictor, model.warmupCalls());
        pending = new ArrayList<>(maxBatch);
        windows = new ArrayList<>(maxBatch);
        predictions = new float[maxBatch];
        LOG.info(
                "subtask {}: predicting with {} in batches of up to {}, waiting at most {} us",
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                model.label(),
                maxBatch,
                maxWaitNanos / 1_000);
    }

    @Override
    public void processElement(StreamRecord<ValidReading> element) {
        ValidReading reading = element.getValue();
        long now = System.nanoTime();
        if (pending.isEmpty()) {
            oldestArrivalNanos = now;
            if (maxWaitNanos > 0) {
                long batch = batchNumber;
                long dueMs = getProcessingTimeService().getCurrentProcessingTime()
                        + Math.max(1, (maxWaitNanos + 999_999) / 1_000_000);
                getProcessingTimeService().registerTimer(dueMs, timestamp -> onWaitExpired(batch));
            }
        }
        pending.add(reading);
        windows.add(new ReadingWindow(reading.flow, reading.speed, reading.ts));
        if (pending.size() >= maxBatch || now - oldestArrivalNanos >= maxWaitNanos) {
            flush();
        }
    }

    private void onWaitExpired(long batch) {
        if (batch == batchNumber && !pending.isEmpty()) {
            flush();
        }
    }

    private void flush() {
        if (pending.isEmpty()) {
            return;
        }
        int count = pending.size();
        long start = System.nanoTime();
        predictor.predict(windows, predictions);
        long inferNs = System.nanoTime() - start;
        for (int i = 0; i < count; i++) {
            output.collect(new StreamRecord<>(PredictedFlow.of(pending.get(i), predictions[i], inferNs)));
        }
        pending.clear();
        windows.clear();
        batchNumber++;
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void endInput() {
        flush();
    }

    @Override
    public void finish() throws Exception {
        flush();
        super.finish();
    }

    @Override
    public void close() throws Exception {
        try {
            if (predictor != null) {
                predictor.close();
                predictor = null;
            }
        } finally {
            super.close();
        }
    }
}
