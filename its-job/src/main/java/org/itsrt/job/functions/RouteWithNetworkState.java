package org.itsrt.job.functions;

import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.co.BroadcastProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.itsrt.job.config.RoutingSettings;
import org.itsrt.job.records.ConditionUpdate;
import org.itsrt.job.records.NetworkStateChange;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.RoutedAdvice;
import org.itsrt.routing.Route;
import org.itsrt.routing.RouteAdvisor;

/**
 * Routes every record over the whole network's latest conditions.
 *
 * <p>The route needs every detector's latest speed and prediction, while a subtask sees the
 * predictions of only its own share of the detectors. So every prediction is also broadcast, as a
 * {@link ConditionUpdate}, to all subtasks of this operator, which keep them in Flink broadcast
 * state ({@link #NETWORK_STATE}: detector -> latest update). Broadcast state is checkpointed and
 * restored with the job, at any parallelism, where a plain field would be lost on restart and
 * would be a different map in each subtask. "Latest" is decided by the reading's time, then its
 * sequence number ({@link ConditionUpdate#isNewerThan}), never by arrival, so every subtask ends
 * with the same state whatever order the updates came in.
 *
 * <p>A record is routed with that state plus its own fresh conditions: its broadcast update may
 * reach this subtask after the record itself, and the route must not ignore the reading it
 * answers. Each subtask keeps a {@link RouteAdvisor} (not thread-safe, not state: rebuilt from the
 * broadcast state after {@link #open} and on restore), which holds per detector the newest of
 * what it has seen on either input, by the same rule as the broadcast state.
 *
 * <p>Every change of the broadcast state is also emitted on {@link #STATE_CHANGES}, so that a run
 * can observe the network state per subtask (the tests compare it across parallelism).
 * Measures {@code route_ns}: the router update and the A* search.
 */
public class RouteWithNetworkState extends BroadcastProcessFunction<PredictedFlow, ConditionUpdate, RoutedAdvice> {

    private static final long serialVersionUID = 1L;

    /** Detector VDS id -> the latest conditions update of that detector. */
    public static final MapStateDescriptor<Long, ConditionUpdate> NETWORK_STATE =
            new MapStateDescriptor<>("network-state", Types.LONG, TypeInformation.of(ConditionUpdate.class));

    /** A subtask took a newer update into its broadcast state. */
    public static final OutputTag<NetworkStateChange> STATE_CHANGES =
            new OutputTag<>("network-state-changes", TypeInformation.of(NetworkStateChange.class));

    private final RoutingSettings routing;

    /** The router's view: per detector, the newest update seen on either input. */
    private transient RouteAdvisor advisor;
    /** False until the advisor has taken in the (possibly restored) broadcast state. */
    private transient boolean synced;

    private transient int subtask;

    public RouteWithNetworkState(RoutingSettings routing) {
        this.routing = routing;
    }

    @Override
    public void open(OpenContext openContext) {
        advisor = new RouteAdvisor(routing.graph(), routing.origin(), routing.destination());
        synced = false;
        subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    }

    @Override
    public void processElement(PredictedFlow prediction, ReadOnlyContext ctx, Collector<RoutedAdvice> out)
            throws Exception {
        syncRouter(ctx.getBroadcastState(NETWORK_STATE));
        long start = System.nanoTime();
        take(ConditionUpdate.of(prediction));
        Route route = advisor.route();
        long routeNs = System.nanoTime() - start;
        out.collect(RoutedAdvice.of(prediction, toArray(route), route.costSeconds(), routeNs));
    }

    @Override
    public void processBroadcastElement(ConditionUpdate update, Context ctx, Collector<RoutedAdvice> out)
            throws Exception {
        BroadcastState<Long, ConditionUpdate> state = ctx.getBroadcastState(NETWORK_STATE);
        syncRouter(state);
        if (update.isNewerThan(state.get(update.detector))) {
            state.put(update.detector, update);
            ctx.output(STATE_CHANGES, new NetworkStateChange(subtask, update));
            take(update);
        }
    }

    private void syncRouter(ReadOnlyBroadcastState<Long, ConditionUpdate> state) throws Exception {
        if (synced) {
            return;
        }
        for (Map.Entry<Long, ConditionUpdate> entry : state.immutableEntries()) {
            take(entry.getValue());
        }
        synced = true;
    }

    /** Gives the advisor an update; it keeps it only if it is newer than what it holds. */
    private void take(ConditionUpdate update) {
        advisor.update(update.detector, update.ts, update.seq, update.conditions());
    }

    private static long[] toArray(Route route) {
        long[] ids = new long[route.vdsIds().size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = route.vdsIds().get(i);
        }
        return ids;
    }
}
