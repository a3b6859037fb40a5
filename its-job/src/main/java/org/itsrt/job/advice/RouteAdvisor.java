package org.itsrt.job.advice;

import java.time.Instant;

import org.itsrt.graph.DetectorGraph;
import org.itsrt.routing.DetectorConditions;
import org.itsrt.routing.Route;
import org.itsrt.routing.Router;

/**
 * Keeps every station's latest observed speed and predicted flow, and answers the advised
 * origin-destination query by A* on the resulting travel times.
 *
 * <p>Not thread-safe: it owns one {@link Router}, whose state is the whole network's. In a stream
 * job this is the one operator instance that sees every station's predictions.
 */
public final class RouteAdvisor {

    private final Router router;
    private final long originVdsId;
    private final long destinationVdsId;

    /**
     * @throws IllegalArgumentException if origin or destination is not a detector of the graph
     */
    public RouteAdvisor(DetectorGraph graph, long originVdsId, long destinationVdsId) {
        graph.requireDetector(originVdsId);
        graph.requireDetector(destinationVdsId);
        this.router = Router.withDefaults(graph);
        this.originVdsId = originVdsId;
        this.destinationVdsId = destinationVdsId;
    }

    /**
     * Takes one station's fresh reading and prediction, then routes under the updated conditions.
     *
     * @param observedSpeedMph NaN when the station does not measure speed
     */
    public Advice advise(long stationId, Instant readingTsUtc, double observedFlow, double observedSpeedMph,
                         double predictedFlow) {
        DetectorConditions conditions = Double.isNaN(observedSpeedMph)
                ? DetectorConditions.flowOnly(predictedFlow)
                : DetectorConditions.of(observedSpeedMph, predictedFlow);
        router.update(stationId, conditions);
        Route route = router.route(originVdsId, destinationVdsId);
        return new Advice(stationId, readingTsUtc, observedFlow, predictedFlow, route);
    }

    public long originVdsId() {
        return originVdsId;
    }

    public long destinationVdsId() {
        return destinationVdsId;
    }
}
