package org.itsrt.records;

import java.time.Instant;
import java.util.Objects;

/**
 * A record on {@code its.predictions} (docs/records.md): the job's predicted flow for one reading,
 * without a route. The district workload's per-reading output: with thousands of detectors, routes
 * answer travellers' requests ({@link RouteRecord}) instead of being computed for every reading as
 * on {@code its.advice}, and "reading to prediction" is measured on these. Carries the reading's
 * identity and stamps, so {@link RecordStampsReader} measures it as it measures advice. Built with
 * {@link #predicting}; read and written by {@link RecordJson}.
 *
 * @param detector      the reading's detector (VDS id); the record's key
 * @param ts            the reading's {@code ts}: the prediction is for the 5-minute interval after it
 * @param seq           the reading's per-detector sequence number
 * @param sentNs        the reading's send stamp (producer clock)
 * @param intendedNs    the reading's intended send time (producer clock)
 * @param warmup        the reading was a warm-up record
 * @param predictedFlow flow of the next 5-minute interval (veh/5 min over all lanes), 0..{@link RecordJson#MAX_FLOW}
 * @param model         which predictor produced it: bundle and engine, e.g. {@code lstm-flow/kernel-bf16}
 * @param parseNs       time the job took to parse and validate the reading ({@code System.nanoTime})
 * @param inferNs       time it took to predict
 * @param degraded      the job predicted with its cheap engine because the LSTM would have missed
 *                      the reading's deadline ({@code model} then names that engine); docs/deadlines.md
 */
public record PredictionRecord(
        long detector,
        Instant ts,
        long seq,
        long sentNs,
        long intendedNs,
        boolean warmup,
        double predictedFlow,
        String model,
        long parseNs,
        long inferNs,
        boolean degraded) {

    public PredictionRecord {
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(model, "model");
    }

    /** A prediction for {@code reading}, carrying its identity and stamps; the flow and model are set next. */
    public static Builder predicting(ReadingRecord reading) {
        return new Builder(reading);
    }

    /** Builds a prediction; {@link #build()} refuses one without its flow or model. */
    public static final class Builder {
        private final ReadingRecord reading;
        private double predictedFlow = Double.NaN;
        private String model;
        private long parseNs;
        private long inferNs;
        private boolean degraded;

        private Builder(ReadingRecord reading) {
            this.reading = Objects.requireNonNull(reading, "reading");
        }

        public Builder predictedFlow(double predictedFlow) {
            this.predictedFlow = predictedFlow;
            return this;
        }

        public Builder model(String model) {
            this.model = model;
            return this;
        }

        public Builder parseNs(long parseNs) {
            this.parseNs = parseNs;
            return this;
        }

        public Builder inferNs(long inferNs) {
            this.inferNs = inferNs;
            return this;
        }

        public Builder degraded(boolean degraded) {
            this.degraded = degraded;
            return this;
        }

        /** @throws IllegalStateException naming the flow or the model when it was not set */
        public PredictionRecord build() {
            if (Double.isNaN(predictedFlow)) {
                throw new IllegalStateException("prediction: predictedFlow not set");
            }
            if (model == null) {
                throw new IllegalStateException("prediction: model not set");
            }
            return new PredictionRecord(
                    reading.detector(),
                    reading.ts(),
                    reading.seq(),
                    reading.sentNs(),
                    reading.intendedNs(),
                    reading.warmup(),
                    predictedFlow,
                    model,
                    parseNs,
                    inferNs,
                    degraded);
        }
    }
}
