package org.itsrt.job.functions;

import org.apache.flink.api.common.functions.MapFunction;
import org.itsrt.job.config.ModelSettings;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.records.PredictionRecord;

/**
 * A reading's prediction as the record of {@code its.predictions}, labelled with the model that
 * produced it. The Kafka sink's serializer calls it just before writing, as {@link ToAdviceRecord}
 * for advice.
 */
public class ToPredictionRecord implements MapFunction<PredictedFlow, PredictionRecord> {

    private static final long serialVersionUID = 1L;

    private final String model;
    private final String degradedModel;

    /** @param model what {@code model} says, e.g. {@code lstm-flow/kernel-bf16} */
    public ToPredictionRecord(String model) {
        this.model = model;
        this.degradedModel = ModelSettings.degradedLabel(model);
    }

    @Override
    public PredictionRecord map(PredictedFlow p) {
        return new PredictionRecord(
                p.detector,
                p.ts,
                p.seq,
                p.sentNs,
                p.intendedNs,
                p.warmup,
                p.predictedFlow,
                p.degraded ? degradedModel : model,
                p.parseNs,
                p.inferNs,
                p.degraded);
    }
}
