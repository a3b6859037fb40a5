package org.itsrt.job;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.itsrt.job.config.ModelSettings;
import org.itsrt.job.config.RoutingSettings;
import org.itsrt.job.config.RuntimeSettings;
import org.itsrt.job.functions.ParseAndValidate;
import org.itsrt.job.functions.PredictFlow;
import org.itsrt.job.functions.PredictFlowBatched;
import org.itsrt.job.functions.SequenceCheck;
import org.itsrt.job.records.DeadLetter;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.ValidReading;

/**
 * The steps both workloads take with the readings: the source, parse and validate, the sequence
 * check keyed by detector, and predict. The operators' names and uids are the ones the study's
 * job had before there were two workloads, so its savepoints still restore.
 */
final class ReadingStages {

    private ReadingStages() {}

    /** The readings that passed both checks, and the dead letters of both. */
    record Validated(SingleOutputStreamOperator<ValidReading> valid, DataStream<DeadLetter> deadLetters) {}

    static DataStream<RawReading> readings(
            StreamExecutionEnvironment env, Source<RawReading, ?, ?> source, String name) {
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), name).uid("source-readings");
    }

    /**
     * Valid readings of the graph's detectors, each detector's {@code seq} increasing; everything
     * else as dead letters. The sequence check is keyed by detector, so its state follows a
     * detector's readings at any parallelism.
     */
    static Validated validate(DataStream<RawReading> readings, RoutingSettings routing) {
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
    static SingleOutputStreamOperator<PredictedFlow> predict(
            DataStream<ValidReading> valid, ModelSettings model, RuntimeSettings runtime) {
        model.shipWith(valid.getExecutionEnvironment());
        SingleOutputStreamOperator<PredictedFlow> predictions = runtime.maxBatch() == 1
                ? valid.process(new PredictFlow(model, runtime))
                : valid.transform(
                        "predict flow (batched)",
                        TypeInformation.of(PredictedFlow.class),
                        new PredictFlowBatched(model, runtime));
        return predictions.name("predict flow").uid("predict-flow");
    }
}
