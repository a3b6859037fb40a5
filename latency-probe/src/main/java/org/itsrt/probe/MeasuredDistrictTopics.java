package org.itsrt.probe;

import java.util.ArrayList;
import java.util.List;
import org.itsrt.records.Topics;

/**
 * The topics of the district workload as the probe reads them. It consumes {@code predictions},
 * {@code routes} and, unless null, {@code deadLetters}; {@code readings} and {@code routeRequests}
 * are not read: a dead letter's {@code error.source.topic} header names one of them, which tells
 * the stream it counts in.
 *
 * @param readings      the detectors' readings, source of the predictions
 * @param predictions   one prediction per reading: the stream "readings -> predictions"
 * @param routeRequests the travellers' requests, source of the answers
 * @param routes        one answer per request: the stream "requests -> answers"
 * @param deadLetters   the rejected records of both inputs; null: not read, no dead letters counted
 */
public record MeasuredDistrictTopics(
        String readings, String predictions, String routeRequests, String routes, String deadLetters) {

    public MeasuredDistrictTopics {
        for (String[] topic : new String[][] {
            {readings, "readings"}, {predictions, "predictions"}, {routeRequests, "routeRequests"}, {routes, "routes"}
        }) {
            if (topic[0] == null || topic[0].isBlank()) {
                throw new IllegalArgumentException("district topic " + topic[1] + " must be given");
            }
        }
    }

    /** The default names of {@link Topics}, the ones every command of the district workload uses. */
    public static MeasuredDistrictTopics defaults() {
        return new MeasuredDistrictTopics(
                Topics.READINGS, Topics.PREDICTIONS, Topics.ROUTE_REQUESTS, Topics.ROUTES, Topics.DEAD_LETTERS);
    }

    /** The topics the probe consumes, in this order: predictions, routes, dead letters. */
    public List<String> consumed() {
        List<String> topics = new ArrayList<>(List.of(predictions, routes));
        if (deadLetters != null) {
            topics.add(deadLetters);
        }
        return List.copyOf(topics);
    }
}
