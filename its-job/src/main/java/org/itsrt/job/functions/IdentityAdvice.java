package org.itsrt.job.functions;

import org.apache.flink.api.common.functions.MapFunction;
import org.itsrt.job.records.RoutedAdvice;
import org.itsrt.job.records.ValidReading;

/**
 * Stands in for prediction and routing with {@code --identity}: the advice carries the reading's
 * last flow as its prediction, an empty route of cost 0 and zero stage times. It is still a valid
 * advice record, so the same probe measures the pipeline's floor (Kafka, Flink, parsing and
 * serialization) in the same set-up as the full job.
 */
public class IdentityAdvice implements MapFunction<ValidReading, RoutedAdvice> {

    private static final long serialVersionUID = 1L;
    private static final long[] NO_ROUTE = new long[0];

    @Override
    public RoutedAdvice map(ValidReading reading) {
        RoutedAdvice a = new RoutedAdvice();
        a.detector = reading.detector;
        a.seq = reading.seq;
        a.sentNs = reading.sentNs;
        a.intendedNs = reading.intendedNs;
        a.warmup = reading.warmup;
        a.predictedFlow = reading.lastFlow();
        a.route = NO_ROUTE;
        a.routeCostS = 0;
        a.parseNs = reading.parseNs;
        return a;
    }
}
