package org.itsrt.job.functions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.itsrt.job.config.ModelSettings;
import org.itsrt.job.config.RuntimeSettings;
import org.itsrt.job.deadline.Deadlines;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.ValidReading;
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
 * <p>Within a batch, earliest deadline first (docs/deadlines.md): the readings are taken in the
 * order of their deadlines, and with {@code --degrade} those whose slack is below what the LSTM's
 * batch call is expected to cost are predicted one by one by the linear engine, first, and marked
 * degraded; the rest go to the LSTM in one call. Every output of a batch is emitted in deadline
 * order.
 *
 * <p>{@code infer_ns} of each reading is the time of the model call that served it: its batch's,
 * or its own linear call.
 */
public class PredictFlowBatched extends AbstractStreamOperator<PredictedFlow>
        implements OneInputStreamOperator<ValidReading, PredictedFlow>, BoundedOneInput {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(PredictFlowBatched.class);

    private final ModelSettings model;
    private final RuntimeSettings runtime;
    private final int maxBatch;
    private final long maxWaitNanos;

    private transient Predictors predictors;
    private transient List<ValidReading> pending;
    /** The pending readings' deadlines, by position in {@link #pending}. */
    private transient long[] deadlines;
    /** Positions in {@link #pending}, sorted by deadline at each flush. */
    private transient Integer[] byDeadline;

    private transient List<ReadingWindow> windows;
    private transient float[] predictions;
    private transient long oldestArrivalNanos;
    /** Counts flushed batches, so that a timer set for an earlier batch leaves the current one alone. */
    private transient long batchNumber;

    /**
     * @param runtime its {@code maxBatch} is the most readings predicted in one model call ({@code
     *                --max-batch}), its {@code maxBatchWaitUs} the longest the oldest reading waits
     *                for its batch ({@code --max-batch-wait-us}); its deadline settings as {@link
     *                PredictFlow}'s
     */
    public PredictFlowBatched(ModelSettings model, RuntimeSettings runtime) {
        this.model = model;
        this.runtime = runtime;
        this.maxBatch = runtime.maxBatch();
        this.maxWaitNanos = runtime.maxBatchWaitUs() * 1_000;
    }

    @Override
    public void open() throws Exception {
        super.open();
        predictors = Predictors.open(
                model,
                model.bundleIn(getRuntimeContext().getDistributedCache()),
                runtime,
                getRuntimeContext().getMetricGroup());
        pending = new ArrayList<>(maxBatch);
        deadlines = new long[maxBatch];
        byDeadline = new Integer[maxBatch];
        windows = new ArrayList<>(maxBatch);
        predictions = new float[maxBatch];
        LOG.info(
                "subtask {}: predicting with {} in batches of up to {}, waiting at most {} us{}",
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                model.label(),
                maxBatch,
                maxWaitNanos / 1_000,
                predictors.degrades() ? ", degrading to linear within " + runtime.deadlineMs() + " ms deadlines" : "");
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
        deadlines[pending.size()] = Deadlines.deadlineMicros(reading.createdMs, runtime.deadlineMs());
        pending.add(reading);
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
        for (int i = 0; i < count; i++) {
            byDeadline[i] = i;
        }
        Arrays.sort(byDeadline, 0, count, (a, b) -> Long.compare(deadlines[a], deadlines[b]));
        // The most urgent first: those that would miss their deadline waiting for the LSTM's batch
        // call go to the linear engine one by one; the deadline order puts them all at the front.
        long now = Deadlines.nowMicros();
        int degraded = 0;
        while (degraded < count && predictors.degrade(deadlines[byDeadline[degraded]], now)) {
            ValidReading reading = pending.get(byDeadline[degraded]);
            long start = System.nanoTime();
            float predicted = predictors.fallback().predict(reading.window());
            long inferNs = System.nanoTime() - start;
            predictors.served(true, start, inferNs, 1);
            output.collect(new StreamRecord<>(PredictedFlow.of(reading, predicted, inferNs, true)));
            degraded++;
        }
        if (degraded == count && count > 0) {
            // Every reading of the batch was degraded: the LSTM did not run, so measure it once more.
            predictors.remeasureAfterDegraded(pending.get(byDeadline[count - 1]).window());
        }
        if (degraded < count) {
            for (int k = degraded; k < count; k++) {
                windows.add(pending.get(byDeadline[k]).window());
            }
            long start = System.nanoTime();
            predictors.primary().predict(windows, predictions);
            long inferNs = System.nanoTime() - start;
            predictors.served(false, start, inferNs, count - degraded);
            for (int k = degraded; k < count; k++) {
                output.collect(new StreamRecord<>(
                        PredictedFlow.of(pending.get(byDeadline[k]), predictions[k - degraded], inferNs, false)));
            }
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
            if (predictors != null) {
                predictors.close();
                predictors = null;
            }
        } finally {
            super.close();
        }
    }
}
