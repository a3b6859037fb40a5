package org.itsrt.job.functions;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.MapFunction;
import org.itsrt.job.config.ModelSettings;
import org.itsrt.job.records.RoutedAdvice;
import org.itsrt.records.AdviceRecord;

/**
 * The advice as the D2 record of {@code its.advice}, labelled with the model that produced it.
 * The Kafka sink's serializer calls it just before writing, so the {@code List}-holding record
 * never travels between operators.
 */
public class ToAdviceRecord implements MapFunction<RoutedAdvice, AdviceRecord> {

    private static final long serialVersionUID = 1L;

    private final String model;
    private final String degradedModel;

    /** @param model what {@code model} says, e.g. {@code lstm-flow/kernel} */
    public ToAdviceRecord(String model) {
        this.model = model;
        this.degradedModel = ModelSettings.degradedLabel(model);
    }

    @Override
    public AdviceRecord map(RoutedAdvice a) {
        List<Long> route = new ArrayList<>(a.route.length);
        for (long node : a.route) {
            route.add(node);
        }
        return new AdviceRecord(
                a.detector,
                a.seq,
                a.sentNs,
                a.intendedNs,
                a.predictedFlow,
                a.degraded ? degradedModel : model,
                route,
                a.routeCostS,
                a.parseNs,
                a.inferNs,
                a.routeNs,
                a.warmup,
                a.degraded);
    }
}
