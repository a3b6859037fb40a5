package org.itsrt.job;

import java.util.Optional;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.itsrt.job.JobIO.End;
import org.itsrt.job.config.DeliverySettings;
import org.itsrt.job.config.InputPartitionCheck;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.config.ModelSettings;
import org.itsrt.job.config.RoutingSettings;
import org.itsrt.job.config.RuntimeSettings;
import org.itsrt.job.functions.IdentityAdvice;
import org.itsrt.job.functions.ParseAndValidate;
import org.itsrt.job.functions.PredictFlow;
import org.itsrt.job.functions.PredictFlowBatched;
import org.itsrt.job.functions.RouteWithNetworkState;
import org.itsrt.job.functions.SequenceCheck;
import org.itsrt.job.functions.ToConditionUpdate;
import org.itsrt.job.kafka.KafkaJobIO;
import org.itsrt.job.records.ConditionUpdate;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.NetworkStateChange;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.RoutedAdvice;
import org.itsrt.job.records.ValidReading;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ITS job (docs/job.md):
 *
 * <pre>
 * readings -> parse and validate -> sequence check -+-> predict flow -+-> route (A*, network state) -> advice
 *                   |                    |            |                 +-> conditions --broadcast--^
 *                   +--------------------+------------+-> dead letters
 * </pre>
 *
 * {@link #main} reads the settings and runs the job between Kafka topics; tests and the demo call
 * {@link #build} with their own environment and ends ({@link JobIO}).
 */
public final class ItsJob {

    private static final Logger LOG = LoggerFactory.getLogger(ItsJob.class);

    /** The name the job is submitted under. */
    public static final String JOB_NAME = "its-rt";

    private ItsJob() {}

    public static void main(String[] args) throws Exception {
        if (JobSettings.isHelp(args)) {
            System.out.print(JobSettings.usage());
            return;
        }
        JobSettings settings = JobSettings.fromArgs(args);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        int parallelism =
                settings.runtime().parallelism() > 0 ? settings.runtime().parallelism() : env.getParallelism();
        InputPartitionCheck.warnings(settings.kafka(), parallelism, InputPartitionCheck.TIMEOUT)
                .forEach(LOG::warn);
        build(env, settings, KafkaJobIO.of(settings));
        env.execute(JOB_NAME);
    }

    /**
     * Configures {@code env} for the job (buffer timeout, parallelism, object reuse,
     * checkpointing) and wires it from {@code io}'s readings to its advice and dead-letter sinks.
     *
     * @return the wired streams, sinks attached, for callers that add more
     */
    public static JobStreams build(StreamExecutionEnvironment env, JobSettings settings, JobIO io) {
        configure(env, settings.runtime(), settings.delivery());

        DataStream<RawReading> readings = env.fromSource(
                        io.readings(), WatermarkStrategy.noWatermarks(), io.describe(End.READINGS))
                .uid("source-readings");
        Validated validated = validate(readings, settings.routing());
        SingleOutputStreamOperator<ValidReading> valid = validated.valid();
        SingleOutputStreamOperator<RoutedAdvice> advice = settings.model().identity()
                ? valid.map(new IdentityAdvice()).name("identity advice").uid("identity-advice")
                : route(predict(valid, settings.model(), settings.runtime()), settings.routing());
        DataStream<DeadLetter> deadLetters = validated.deadLetters();

        advice.sinkTo(io.advice()).name(io.describe(End.ADVICE)).uid("sink-advice");
        deadLetters.sinkTo(io.deadLetters()).name(io.describe(End.DEAD_LETTERS)).uid("sink-dead-letters");

        Optional<DataStream<NetworkStateChange>> networkState = settings.model().identity()
                ? Optional.empty()
                : Optional.of(advice.getSideOutput(RouteWithNetworkState.STATE_CHANGES));
        return new JobStreams(advice, deadLetters, networkState);
    }

    /** The readings that passed both checks, and the dead letters of both. */
    private record Validated(SingleOutputStreamOperator<ValidReading> valid, DataStream<DeadLetter> deadLetters) {}

    /**
     * Valid readings of the graph's detectors, each detector's {@code seq} increasing; everything
     * else as dead letters. The sequence check is keyed by detector, so its state follows a
     * detector's readings at any parallelism.
     */
    private static Validated validate(DataStream<RawReading> readings, RoutingSettings routing) {
        SingleOutputStreamOperator<ValidReading> parsed = readings.process(new ParseAndValidate(routing.detectorIds()))
                .name("parse and validate")
                .uid("parse-and-validate");
        SingleOutputStreamOperator<ValidReading> inSequence = parsed.keyBy(
                        (KeySelector<ValidReading, Long>) reading -> reading.detector, Types.LONG)
                .process(new SequenceCheck())
                .name("sequence check")
                .uid("sequence-check");
        return new Validated(
                inSequence,
                parsed.getSideOutput(ParseAndValidate.DEAD_LETTERS)
                        .union(inSequence.getSideOutput(ParseAndValidate.DEAD_LETTERS)));
    }

    /** One model call per reading, or per micro-batch with {@code --max-batch} > 1. */
    private static SingleOutputStreamOperator<PredictedFlow> predict(
            DataStream<ValidReading> valid, ModelSettings model, RuntimeSettings runtime) {
        SingleOutputStreamOperator<PredictedFlow> predictions = runtime.maxBatch() == 1
                ? valid.process(new PredictFlow(model))
                : valid.transform(
                        "predict flow (batched)",
                        TypeInformation.of(PredictedFlow.class),
                        new PredictFlowBatched(model, runtime.maxBatch(), runtime.maxBatchWaitUs()));
        return predictions.name("predict flow").uid("predict-flow");
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

    private static void configure(StreamExecutionEnvironment env, RuntimeSettings runtime, DeliverySettings delivery) {
        // 0: every record is flushed to the next task at once. Flink's default of 100 ms held
        // records at the broadcast exchange (docs/design.md, "Floors and targets": p50 102 ms).
        env.setBufferTimeout(runtime.bufferTimeoutMs());
        if (runtime.parallelism() > 0) {
            env.setParallelism(runtime.parallelism());
        }
        // Chained operators hand records on without a defensive copy; no function keeps or
        // changes a record after emitting it.
        env.getConfig().enableObjectReuse();
        if (delivery.checkpointIntervalMs() > 0) {
            env.enableCheckpointing(
                    delivery.checkpointIntervalMs(),
                    delivery.exactlyOnce() ? CheckpointingMode.EXACTLY_ONCE : CheckpointingMode.AT_LEAST_ONCE);
        }
    }
}
