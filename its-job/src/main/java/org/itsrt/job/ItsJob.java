package org.itsrt.job;

import java.util.Optional;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.functions.IdentityAdvice;
import org.itsrt.job.functions.ParseAndValidate;
import org.itsrt.job.functions.PredictFlow;
import org.itsrt.job.functions.PredictFlowBatched;
import org.itsrt.job.functions.RouteWithNetworkState;
import org.itsrt.job.functions.ToConditionUpdate;
import org.itsrt.job.kafka.JobKafka;
import org.itsrt.job.records.ConditionUpdate;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.FlowPrediction;
import org.itsrt.job.records.NetworkStateChange;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.RoutedAdvice;
import org.itsrt.job.records.ValidReading;

/**
 * The ITS job (docs/job.md):
 *
 * <pre>
 * Kafka its.readings -> parse and validate -+-> predict flow -+-> route (A*, network state) -> Kafka its.advice
 *                                           |                 +-> conditions --broadcast--^
 *                                           +-> Kafka its.dead-letters
 * </pre>
 *
 * {@link #main} reads the settings and runs what {@link #build} wires; tests and an in-process
 * runner call {@link #build} on their own environment.
 */
public final class ItsJob {

    /** The name the job is submitted under. */
    public static final String JOB_NAME = "its-rt";

    private ItsJob() {
    }

    public static void main(String[] args) throws Exception {
        if (JobSettings.isHelp(args)) {
            System.out.print(JobSettings.usage());
            return;
        }
        JobSettings settings = JobSettings.fromArgs(args);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        build(env, settings);
        env.execute(JOB_NAME);
    }

    /**
     * Configures {@code env} for the job (buffer timeout, parallelism, object reuse,
     * checkpointing) and adds its source, operators and sinks.
     *
     * @return the wired streams, sinks attached, for callers that add more
     */
    public static JobStreams build(StreamExecutionEnvironment env, JobSettings s) {
        configure(env, s);

        DataStream<RawReading> raw = env
                .fromSource(JobKafka.source(s), WatermarkStrategy.noWatermarks(), "kafka: " + s.inputTopic())
                .uid("source-readings");

        SingleOutputStreamOperator<ValidReading> valid = raw
                .process(new ParseAndValidate(s.detectorIds()))
                .name("parse and validate").uid("parse-and-validate");
        DataStream<DeadLetter> deadLetters = valid.getSideOutput(ParseAndValidate.DEAD_LETTERS);

        DataStream<RoutedAdvice> advice;
        Optional<DataStream<NetworkStateChange>> networkState;
        if (s.identity()) {
            advice = valid.map(new IdentityAdvice()).name("identity advice").uid("identity-advice");
            networkState = Optional.empty();
        } else {
            SingleOutputStreamOperator<FlowPrediction> predictions = s.maxBatch() == 1
                    ? valid.process(new PredictFlow(s))
                    : valid.transform("predict flow (batched)", TypeInformation.of(FlowPrediction.class),
                            new PredictFlowBatched(s));
            predictions.name("predict flow").uid("predict-flow");

            // Every subtask of the route step learns every detector's conditions.
            BroadcastStream<ConditionUpdate> conditions = predictions
                    .map(new ToConditionUpdate()).name("conditions").uid("conditions")
                    .broadcast(RouteWithNetworkState.NETWORK_STATE);
            SingleOutputStreamOperator<RoutedAdvice> routed = predictions
                    .connect(conditions)
                    .process(new RouteWithNetworkState(s))
                    .name("route").uid("route");
            advice = routed;
            networkState = Optional.of(routed.getSideOutput(RouteWithNetworkState.STATE_CHANGES));
        }

        advice.sinkTo(JobKafka.adviceSink(s)).name("kafka: " + s.outputTopic()).uid("sink-advice");
        deadLetters.sinkTo(JobKafka.deadLetterSink(s)).name("kafka: " + s.deadLetterTopic()).uid("sink-dead-letters");
        return new JobStreams(advice, deadLetters, networkState);
    }

    private static void configure(StreamExecutionEnvironment env, JobSettings s) {
        // 0: every record is flushed to the next task at once. Flink's default of 100 ms held
        // records at the broadcast exchange (REFERENCE section 6: p50 102 ms).
        env.setBufferTimeout(s.bufferTimeoutMs());
        if (s.parallelism() > 0) {
            env.setParallelism(s.parallelism());
        }
        // Chained operators hand records on without a defensive copy; no function keeps or
        // changes a record after emitting it.
        env.getConfig().enableObjectReuse();
        if (s.checkpointIntervalMs() > 0) {
            env.enableCheckpointing(s.checkpointIntervalMs(),
                    s.exactlyOnce() ? CheckpointingMode.EXACTLY_ONCE : CheckpointingMode.AT_LEAST_ONCE);
        }
    }
}
