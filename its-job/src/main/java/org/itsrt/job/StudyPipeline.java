package org.itsrt.job;

import java.util.Optional;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.itsrt.job.JobIO.End;
import org.itsrt.job.ReadingStages.Validated;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.config.RoutingSettings;
import org.itsrt.job.functions.IdentityAdvice;
import org.itsrt.job.functions.RouteWithNetworkState;
import org.itsrt.job.functions.ToConditionUpdate;
import org.itsrt.job.records.ConditionUpdate;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.NetworkStateChange;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.RoutedAdvice;
import org.itsrt.job.records.ValidReading;

/**
 * The study workload (docs/job.md, sections 1 and 2): every valid reading is predicted and
 * answered with the route of the fixed query over the network's newest conditions.
 *
 * <pre>
 * readings -> parse and validate -> sequence check -+-> predict flow -+-> route (A*, network state) -> advice
 *                   |                    |            |                 +-> conditions --broadcast--^
 *                   +--------------------+------------+-> dead letters
 * </pre>
 */
final class StudyPipeline {

    private StudyPipeline() {}

    /** Wires {@code io}'s readings to its advice and dead-letter sinks in {@code env}, configured already. */
    static JobStreams wire(StreamExecutionEnvironment env, JobSettings settings, JobIO io) {
        DataStream<RawReading> readings = ReadingStages.readings(env, io.readings(), io.describe(End.READINGS));
        Validated validated = ReadingStages.validate(readings, settings.routing());
        SingleOutputStreamOperator<ValidReading> valid = validated.valid();
        SingleOutputStreamOperator<RoutedAdvice> advice = settings.model().identity()
                ? valid.map(new IdentityAdvice()).name("identity advice").uid("identity-advice")
                : route(ReadingStages.predict(valid, settings.model(), settings.runtime()), settings.routing());
        DataStream<DeadLetter> deadLetters = validated.deadLetters();

        advice.sinkTo(io.advice()).name(io.describe(End.ADVICE)).uid("sink-advice");
        deadLetters.sinkTo(io.deadLetters()).name(io.describe(End.DEAD_LETTERS)).uid("sink-dead-letters");

        Optional<DataStream<NetworkStateChange>> networkState = settings.model().identity()
                ? Optional.empty()
                : Optional.of(advice.getSideOutput(RouteWithNetworkState.STATE_CHANGES));
        return new JobStreams(advice, deadLetters, networkState);
    }

    /** Routes each prediction over the network's newest conditions, which every route subtask learns of. */
    private static SingleOutputStreamOperator<RoutedAdvice> route(
            SingleOutputStreamOperator<PredictedFlow> predictions, RoutingSettings routing) {
        BroadcastStream<ConditionUpdate> conditions = predictions
                .map(new ToConditionUpdate())
                .name("conditions")
                .uid("conditions")
                .broadcast(RouteWithNetworkState.NETWORK_STATE);
        return predictions
                .connect(conditions)
                .process(new RouteWithNetworkState(routing))
                .name("route")
                .uid("route");
    }
}
