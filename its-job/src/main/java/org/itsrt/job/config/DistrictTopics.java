package org.itsrt.job.config;

import java.io.Serializable;
import org.itsrt.records.Topics;

/**
 * The topics only the district workload uses (docs/job.md, section 8): its predictions out, the
 * route requests in and their answers out. The readings and dead letters are the study's topics.
 *
 * @param predictions one {@code PredictionRecord} per valid reading
 * @param requests    the travellers' {@code RouteRequestRecord}s
 * @param routes      one {@code RouteRecord} per valid request
 */
public record DistrictTopics(String predictions, String requests, String routes) implements Serializable {

    /** The topics of {@link Topics}, as every command of the pipeline defaults to them. */
    public static final DistrictTopics DEFAULTS =
            new DistrictTopics(Topics.PREDICTIONS, Topics.ROUTE_REQUESTS, Topics.ROUTES);
}
