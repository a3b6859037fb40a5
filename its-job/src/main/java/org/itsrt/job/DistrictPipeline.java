package org.itsrt.job;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.itsrt.job.JobIO.End;
import org.itsrt.job.ReadingStages.Validated;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.functions.AnswerRouteRequest;
import org.itsrt.job.functions.ParseAndValidate;
import org.itsrt.job.functions.ParseRouteRequest;
import org.itsrt.job.functions.RouteWithNetworkState;
import org.itsrt.job.functions.ToConditionUpdate;
import org.itsrt.job.records.ConditionUpdate;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.RouteAnswer;
import org.itsrt.job.records.ValidRouteRequest;

/**
 * The district workload (docs/job.md, section 8): every valid reading is predicted, its prediction
 * written and broadcast as a cost update to every routing subtask; route requests are answered
 * over the newest network state. A reading no longer triggers a route.
 *
 * <pre>
 * readings -> parse and validate -> (by detector) sequence check -> predict flow -+-> predictions
 *                   |                    |                                       +-> conditions --broadcast--+
 * requests -> parse route request -> (by traveller) -------------------------> answer (router, network state) -> routes
 *                   +--- all three checks' rejects ----------------------------> dead letters
 * </pre>
 */
final class DistrictPipeline {

    private DistrictPipeline() {}

    /** Wires {@code io}'s readings and requests to its sinks in {@code env}, configured already. */
    static DistrictStreams wire(StreamExecutionEnvironment env, JobSettings settings, DistrictJobIO io) {
        DataStream<RawReading> readings = ReadingStages.readings(env, io.readings(), io.describe(End.READINGS));
        Validated validated = ReadingStages.validate(readings, settings.routing());
        SingleOutputStreamOperator<PredictedFlow> predictions =
                ReadingStages.predict(validated.valid(), settings.model(), settings.runtime());
        BroadcastStream<ConditionUpdate> conditions = predictions
                .map(new ToConditionUpdate())
                .name("conditions")
                .uid("conditions")
                .broadcast(RouteWithNetworkState.NETWORK_STATE, AnswerRouteRequest.NETWORK_VERSION);

        SingleOutputStreamOperator<ValidRouteRequest> requests = env.fromSource(
                        io.routeRequests(), WatermarkStrategy.noWatermarks(), io.describe(End.ROUTE_REQUESTS))
                .uid("source-route-requests")
                .process(new ParseRouteRequest(settings.routing().detectorIds()))
                .name("parse route request")
                .uid("parse-route-request");
        // By traveller rather than rebalanced: a traveller's requests are answered in order, by one
        // subtask whose version only grows (docs/job.md, section 8).
        SingleOutputStreamOperator<RouteAnswer> routes = requests.keyBy(
                        (KeySelector<ValidRouteRequest, Long>) request -> request.traveller, Types.LONG)
                .connect(conditions)
                .process(new AnswerRouteRequest(
                        settings.routing(), settings.runtime().deadlineMs()))
                .name("answer route request")
                .uid("answer-route-request");

        DataStream<DeadLetter> deadLetters =
                validated.deadLetters().union(requests.getSideOutput(ParseAndValidate.DEAD_LETTERS));

        predictions.sinkTo(io.predictions()).name(io.describe(End.PREDICTIONS)).uid("sink-predictions");
        routes.sinkTo(io.routes()).name(io.describe(End.ROUTES)).uid("sink-routes");
        deadLetters.sinkTo(io.deadLetters()).name(io.describe(End.DEAD_LETTERS)).uid("sink-dead-letters");
        return new DistrictStreams(
                predictions, routes, deadLetters, routes.getSideOutput(RouteWithNetworkState.STATE_CHANGES));
    }
}
