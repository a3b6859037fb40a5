package org.itsrt.job.config;

/**
 * What the job computes from the readings (docs/job.md): the study's advice for one fixed query per
 * reading, or a district's predictions per reading and routes per traveller's request.
 */
public enum Workload {
    /** Each reading is predicted and then answered with the route of {@code --origin} to {@code --destination}. */
    STUDY,
    /**
     * Each reading is predicted ({@code its.predictions}) and its prediction updates the routing
     * state; routes answer the requests of {@code its.route-requests} ({@code its.routes}).
     */
    DISTRICT
}
