package org.itsrt.records;

import java.util.List;
import java.util.Objects;

/**
 * A record on {@code its.advice} (docs/design.md, D2; docs/records.md): the input's identity and stamps,
 * the predicted flow, the advised route and the time each in-job stage took.
 *
 * @param predictedFlow next 5-minute flow of the detector (veh/5 min)
 * @param model         which predictor produced it, e.g. {@code lstm-flow/kernel}
 * @param route         detector ids from origin to destination
 * @param routeCostS    expected travel time of the route (s)
 * @param parseNs       time to parse and validate the input record, in the job
 * @param inferNs       time to predict
 * @param routeNs       time to route
 * @param warmup        the reading it answers was a warm-up record (docs/records.md)
 * @param degraded      predicted with the cheap engine to meet the reading's deadline
 *                      (docs/deadlines.md); {@code model} then names that engine
 */
public record AdviceRecord(
        long detector,
        long seq,
        long sentNs,
        long intendedNs,
        double predictedFlow,
        String model,
        List<Long> route,
        double routeCostS,
        long parseNs,
        long inferNs,
        long routeNs,
        boolean warmup,
        boolean degraded) {

    public AdviceRecord {
        Objects.requireNonNull(model, "model");
        route = List.copyOf(route);
    }

    /** The advice of a measured reading: not part of a warm-up. */
    public AdviceRecord(
            long detector,
            long seq,
            long sentNs,
            long intendedNs,
            double predictedFlow,
            String model,
            List<Long> route,
            double routeCostS,
            long parseNs,
            long inferNs,
            long routeNs) {
        this(
                detector,
                seq,
                sentNs,
                intendedNs,
                predictedFlow,
                model,
                route,
                routeCostS,
                parseNs,
                inferNs,
                routeNs,
                false,
                false);
    }
}
