package org.itsrt.job.functions;

import java.nio.file.Path;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.itsrt.job.config.ModelSettings;
import org.itsrt.job.config.RuntimeSettings;
import org.itsrt.job.deadline.Deadlines;
import org.itsrt.job.deadline.DegradePolicy;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.FlowPredictors;
import org.itsrt.model.ReadingWindow;

/**
 * The engines a predict operator holds: the job's model, and with {@code --degrade} (and
 * deadlines on) the linear engine of the same bundle that stands in for it when a reading's slack
 * is below the LSTM's expected cost ({@link DegradePolicy}). Keeps the operator's metrics:
 * {@code predictions}, {@code degraded}, {@code lstmRemeasured} (counters: the last, LSTM calls
 * made only to measure it while degrading) and {@code lstmExpectedUs} (the estimate the decision
 * uses), so the share degraded is visible in Flink's web UI and metric reporters as well as in the
 * records.
 *
 * <p>One per operator instance, opened in {@code open} and closed in {@code close}; not
 * thread-safe.
 */
final class Predictors implements AutoCloseable {

    private final FlowPredictor primary;
    private final FlowPredictor fallback;
    private final DegradePolicy policy;
    private final Counter predictions;
    private final Counter degraded;
    private final Counter remeasured;

    private Predictors(FlowPredictor primary, FlowPredictor fallback, DegradePolicy policy, MetricGroup metrics) {
        this.primary = primary;
        this.fallback = fallback;
        this.policy = policy;
        this.predictions = metrics.counter("predictions");
        this.degraded = metrics.counter("degraded");
        this.remeasured = metrics.counter("lstmRemeasured");
        metrics.gauge("lstmExpectedUs", (Gauge<Long>) () -> policy.expectedLstmNanos() / 1_000);
    }

    /**
     * Opens and warms the job's model from {@code bundle} (the subtask's copy), and the linear
     * engine when the run degrades.
     */
    static Predictors open(ModelSettings model, Path bundle, RuntimeSettings runtime, MetricGroup metrics) {
        FlowPredictor primary = FlowPredictors.open(bundle, model.predictorOptions());
        PredictorWarmup.run(primary, model.warmupCalls());
        FlowPredictor fallback = null;
        if (runtime.degrade() && runtime.hasDeadlines()) {
            try {
                fallback = FlowPredictors.open(bundle, model.fallbackOptions());
            } catch (RuntimeException e) {
                primary.close();
                throw e;
            }
        }
        return new Predictors(primary, fallback, DegradePolicy.learning(), metrics);
    }

    /** True when this operator may degrade at all. */
    boolean degrades() {
        return fallback != null;
    }

    /** True when a reading due at {@code deadlineMicros} should be predicted by the fallback now. */
    boolean degrade(long deadlineMicros, long nowMicros) {
        return fallback != null && policy.degrade(Deadlines.slackNanos(deadlineMicros, nowMicros));
    }

    FlowPredictor primary() {
        return primary;
    }

    /** The linear engine; only when {@link #degrades()}. */
    FlowPredictor fallback() {
        return fallback;
    }

    /**
     * Counts one model call that served {@code readings} readings, and learns from it if it was the
     * LSTM's.
     *
     * @param callStartNanos {@link System#nanoTime()} when the call began
     */
    void served(boolean byFallback, long callStartNanos, long callNanos, int readings) {
        predictions.inc(readings);
        if (byFallback) {
            degraded.inc(readings);
        } else {
            policy.lstmCalled(callNanos, callStartNanos + callNanos);
        }
    }

    /**
     * After a degraded reading's output is out: when the LSTM has not run for a while, it predicts
     * the same window once more, the result discarded, so the estimate keeps measuring what the
     * LSTM costs now ({@link DegradePolicy#remeasureDue}).
     */
    void remeasureAfterDegraded(ReadingWindow window) {
        long start = System.nanoTime();
        if (!policy.remeasureDue(start)) {
            return;
        }
        primary.predict(window);
        long callNanos = System.nanoTime() - start;
        policy.lstmCalled(callNanos, start + callNanos);
        remeasured.inc();
    }

    /** The LSTM's expected cost of a call now, in nanoseconds. */
    long expectedLstmNanos() {
        return policy.expectedLstmNanos();
    }

    @Override
    public void close() {
        try {
            primary.close();
        } finally {
            if (fallback != null) {
                fallback.close();
            }
        }
    }
}
