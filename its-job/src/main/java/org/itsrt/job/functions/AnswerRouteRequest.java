package org.itsrt.job.functions;

import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;
import org.itsrt.job.config.RoutingSettings;
import org.itsrt.job.deadline.Deadlines;
import org.itsrt.job.records.ConditionUpdate;
import org.itsrt.job.records.NetworkStateChange;
import org.itsrt.job.records.RouteAnswer;
import org.itsrt.job.records.ValidRouteRequest;
import org.itsrt.routing.Router;

/**
 * Answers each route request with the fastest route under the newest network state this subtask
 * holds: the district workload's routing step (docs/job.md, section 8).
 *
 * <p>The network state is what {@link RouteWithNetworkState} keeps for the study: every
 * prediction, as a {@link ConditionUpdate}, is broadcast to every subtask of this operator, which
 * keeps the newest per detector in broadcast state ({@link RouteWithNetworkState#NETWORK_STATE};
 * newest by the reading's time, then its seq, never by arrival). Unlike the study's step, a request
 * carries no conditions of its own, so only the broadcast input changes the costs.
 *
 * <p><b>Network version.</b> The number of updates this subtask's state has taken (an update
 * older than the one held for its detector is not taken and does not count), from the job's first
 * start. It is kept in broadcast state too ({@link #NETWORK_VERSION}), so a checkpoint holds it
 * with the state it counts, and a job restored from one goes on counting from there. Each answer
 * carries the version it was computed on: per subtask, versions only grow, and the route of an
 * answer is the route a {@link Router} gives after that subtask's first {@code version} updates.
 * Versions of different subtasks are not comparable moment by moment (each takes the broadcast at
 * its own pace), but they meet: once the same updates have reached every subtask, every subtask
 * has taken the same ones and has the same version.
 *
 * <p><b>Shedding.</b> A request whose deadline ({@code --deadline-ms} after its Kafka timestamp)
 * has passed when it reaches this step is answered at once with the outcome {@code expired} and
 * no route, not searched: never dropped, and counted by the probe apart from the routed answers
 * (docs/deadlines.md). The {@code expired} counter of the operator's metrics counts them too.
 *
 * <p>Keyed by traveller: a traveller's requests are answered in order by one subtask, so a later
 * request never gets an answer on an older version than an earlier one. The function keeps no
 * keyed state.
 *
 * <p>The {@link Router} (not thread-safe, not state) is rebuilt from the broadcast state on the
 * first element after {@link #open}, that is after a restore too. Every change of the state is
 * also emitted on {@link RouteWithNetworkState#STATE_CHANGES}. Measures {@code route_ns}: the
 * search, with the customization of the router's hierarchy that the updates taken since the last
 * request left to do ({@link Router#travelSeconds}).
 */
public class AnswerRouteRequest
        extends KeyedBroadcastProcessFunction<Long, ValidRouteRequest, ConditionUpdate, RouteAnswer> {

    private static final long serialVersionUID = 1L;

    /** The one key of {@link #NETWORK_VERSION}. */
    public static final String UPDATES_TAKEN = "updates-taken";

    /** {@value #UPDATES_TAKEN} -> the network version (absent = 0). */
    public static final MapStateDescriptor<String, Long> NETWORK_VERSION =
            new MapStateDescriptor<>("network-version", Types.STRING, Types.LONG);

    private final RoutingSettings routing;
    /** A request's deadline after its Kafka timestamp; 0 = none, nothing is shed. */
    private final long deadlineMs;

    private transient Router router;
    /** False until the router has taken in the (possibly restored) broadcast state. */
    private transient boolean synced;
    /** The version in {@link #NETWORK_VERSION}, read once when synced. */
    private transient long version;

    private transient int subtask;

    private transient Counter expired;

    /**
     * @param deadlineMs a request's deadline after its Kafka timestamp ({@code --deadline-ms}); a
     *                   request already past it is answered as expired, unrouted; 0 = no deadlines
     */
    public AnswerRouteRequest(RoutingSettings routing, long deadlineMs) {
        this.routing = routing;
        this.deadlineMs = deadlineMs;
    }

    @Override
    public void open(OpenContext openContext) {
        router = Router.withDefaults(routing.graph());
        synced = false;
        subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        expired = getRuntimeContext().getMetricGroup().counter("expired");
    }

    @Override
    public void processElement(ValidRouteRequest request, ReadOnlyContext ctx, Collector<RouteAnswer> out)
            throws Exception {
        sync(ctx.getBroadcastState(RouteWithNetworkState.NETWORK_STATE), ctx.getBroadcastState(NETWORK_VERSION));
        long deadline = Deadlines.deadlineMicros(request.createdMs, deadlineMs);
        if (deadline != Deadlines.NONE && Deadlines.expired(deadline, Deadlines.nowMicros())) {
            // Late already: a search would only make the next requests late too.
            expired.inc();
            out.collect(RouteAnswer.expired(request, version, subtask));
            return;
        }
        long start = System.nanoTime();
        double seconds = router.travelSeconds(request.origin, request.destination);
        long routeNs = System.nanoTime() - start;

        RouteAnswer answer = new RouteAnswer();
        answer.request = request;
        answer.reachable = seconds != Double.POSITIVE_INFINITY;
        // Read straight from the router into the answer's array: a Route would box every station.
        answer.route = new long[router.lastRouteLength()];
        for (int i = 0; i < answer.route.length; i++) {
            answer.route[i] = router.lastRouteVdsId(i);
        }
        answer.travelTimeS = answer.reachable ? seconds : Double.NaN;
        answer.networkVersion = version;
        answer.subtask = subtask;
        answer.routeNs = routeNs;
        out.collect(answer);
    }

    @Override
    public void processBroadcastElement(ConditionUpdate update, Context ctx, Collector<RouteAnswer> out)
            throws Exception {
        BroadcastState<Long, ConditionUpdate> state = ctx.getBroadcastState(RouteWithNetworkState.NETWORK_STATE);
        BroadcastState<String, Long> versionState = ctx.getBroadcastState(NETWORK_VERSION);
        sync(state, versionState);
        if (update.isNewerThan(state.get(update.detector))) {
            state.put(update.detector, update);
            version++;
            versionState.put(UPDATES_TAKEN, version);
            router.update(update.detector, update.conditions());
            ctx.output(RouteWithNetworkState.STATE_CHANGES, new NetworkStateChange(subtask, update));
        }
    }

    private void sync(
            ReadOnlyBroadcastState<Long, ConditionUpdate> state, ReadOnlyBroadcastState<String, Long> versionState)
            throws Exception {
        if (synced) {
            return;
        }
        for (Map.Entry<Long, ConditionUpdate> entry : state.immutableEntries()) {
            router.update(entry.getKey(), entry.getValue().conditions());
        }
        Long restored = versionState.get(UPDATES_TAKEN);
        version = restored == null ? 0 : restored;
        synced = true;
    }
}
