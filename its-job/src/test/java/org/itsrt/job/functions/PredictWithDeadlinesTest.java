package org.itsrt.job.functions;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.itsrt.job.config.JobSettings;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.RawReading;
import org.itsrt.job.records.ValidReading;
import org.itsrt.model.FlowPredictor;
import org.itsrt.model.FlowPredictors;
import org.itsrt.records.AdviceRecord;
import org.itsrt.records.PredictionRecord;
import org.itsrt.records.RecordJson;
import org.junit.jupiter.api.Test;

/**
 * Degrading before missing (docs/deadlines.md): a reading already past its deadline is predicted by
 * the linear engine and marked, a reading with time to spare by the LSTM, and without {@code
 * --degrade} nothing is degraded; in a batch, earliest deadline first. The late readings are a
 * minute old, the fresh ones have a ten-minute deadline, so no timing of this machine decides.
 */
class PredictWithDeadlinesTest {

    private static final Path REPO = Path.of(System.getProperty("itsrt.repo.root", ".."));
    private static final String MODEL = REPO.resolve("models/lstm-flow").toString();
    private static final long TEN_MINUTES_MS = 600_000;

    private static JobSettings settings(String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "--bootstrap-servers", "127.0.0.1:9092", "--model", MODEL, "--deadline-ms", "" + TEN_MINUTES_MS));
        args.addAll(Arrays.asList(extra));
        return JobSettings.fromArgs(args.toArray(String[]::new));
    }

    /** A reading of detector {@code detector} created {@code ageMs} ago (no timestamp when negative). */
    private static ValidReading reading(long detector, long ageMs) {
        ValidReading r = new ValidReading();
        r.detector = detector;
        r.ts = Instant.parse("2018-03-05T17:00:00Z");
        r.flow = new double[12];
        r.speed = new double[12];
        for (int i = 0; i < 12; i++) {
            r.flow[i] = 300 + 10 * i + detector % 7;
            r.speed[i] = 60 - i;
        }
        r.seq = detector;
        r.createdMs = ageMs < 0 ? RawReading.NO_TIMESTAMP : System.currentTimeMillis() - ageMs;
        return r;
    }

    private static float predictWith(String engine, ValidReading reading) {
        JobSettings s = settings("--engine", engine);
        try (FlowPredictor predictor =
                FlowPredictors.open(s.model().path(), s.model().predictorOptions())) {
            return predictor.predict(reading.window());
        }
    }

    private static List<PredictedFlow> predictOneByOne(JobSettings s, ValidReading... readings) throws Exception {
        try (OneInputStreamOperatorTestHarness<ValidReading, PredictedFlow> h =
                ProcessFunctionTestHarnesses.forProcessFunction(new PredictFlow(s.model(), s.runtime()))) {
            for (ValidReading r : readings) {
                h.processElement(r, 0);
            }
            return h.extractOutputValues();
        }
    }

    @Test
    void aLateReadingIsPredictedByTheLinearEngineAndMarkedAFreshOneByTheLstm() throws Exception {
        ValidReading late = reading(1, TEN_MINUTES_MS + 60_000);
        ValidReading fresh = reading(2, 0);

        List<PredictedFlow> out = predictOneByOne(settings("--degrade"), late, fresh);

        assertThat(out).extracting(p -> p.degraded).containsExactly(true, false);
        assertThat(out.get(0).predictedFlow).isEqualTo(predictWith("linear", late));
        assertThat(out.get(1).predictedFlow).isEqualTo(predictWith("kernel-bf16", fresh));
    }

    @Test
    void withoutDegradeOrWithoutATimestampNothingIsDegraded() throws Exception {
        ValidReading late = reading(1, TEN_MINUTES_MS + 60_000);
        assertThat(predictOneByOne(settings(), late))
                .extracting(p -> p.degraded)
                .containsExactly(false);
        assertThat(predictOneByOne(settings("--degrade", "--deadline-ms", "0"), late))
                .extracting(p -> p.degraded)
                .containsExactly(false);
        assertThat(predictOneByOne(settings("--degrade"), reading(3, -1)))
                .extracting(p -> p.degraded)
                .containsExactly(false);
    }

    @Test
    void aBatchIsServedEarliestDeadlineFirstWithTheLateReadingsDegraded() throws Exception {
        JobSettings s = settings("--degrade", "--max-batch", "4", "--max-batch-wait-us", "10000000");
        ValidReading freshNewest = reading(10, 0);
        ValidReading late = reading(11, TEN_MINUTES_MS + 60_000);
        ValidReading freshOlder = reading(12, 30_000);
        ValidReading lateOldest = reading(13, TEN_MINUTES_MS + 120_000);

        List<PredictedFlow> out;
        try (OneInputStreamOperatorTestHarness<ValidReading, PredictedFlow> h =
                new OneInputStreamOperatorTestHarness<>(new PredictFlowBatched(s.model(), s.runtime()))) {
            h.open();
            for (ValidReading r : List.of(freshNewest, late, freshOlder, lateOldest)) {
                h.processElement(new StreamRecord<>(r));
            }
            out = h.extractOutputValues();
        }

        assertThat(out).extracting(p -> p.detector).containsExactly(13L, 11L, 12L, 10L);
        assertThat(out).extracting(p -> p.degraded).containsExactly(true, true, false, false);
        assertThat(out.get(0).predictedFlow).isEqualTo(predictWith("linear", lateOldest));
        assertThat(out.get(2).predictedFlow).isEqualTo(predictWith("kernel-bf16", freshOlder));
    }

    /** A degraded prediction is still a valid record: it names the engine that made it and says so. */
    @Test
    void aDegradedPredictionIsAValidRecordNamingTheLinearEngine() throws Exception {
        PredictedFlow p = PredictedFlow.of(reading(4, 0), 321.5, 900, true);
        PredictionRecord record =
                RecordJson.readPrediction(RecordJson.write(new ToPredictionRecord("lstm-flow/kernel-bf16").map(p)));
        assertThat(record.degraded()).isTrue();
        assertThat(record.model()).isEqualTo("lstm-flow/linear");
        assertThat(record.predictedFlow()).isEqualTo(321.5);

        PredictedFlow kept = PredictedFlow.of(reading(4, 0), 321.5, 900, false);
        byte[] json = RecordJson.write(new ToPredictionRecord("lstm-flow/kernel-bf16").map(kept));
        assertThat(new String(json, java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("degraded");
        assertThat(RecordJson.readPrediction(json).model()).isEqualTo("lstm-flow/kernel-bf16");
    }

    @Test
    void degradedAdviceKeepsItsRouteAndIsMarked() throws Exception {
        PredictedFlow p = PredictedFlow.of(reading(764598, 0), 321.5, 900, true);
        org.itsrt.job.records.RoutedAdvice advice =
                org.itsrt.job.records.RoutedAdvice.of(p, new long[] {764598, 717731, 774445}, 678.5, 40);
        AdviceRecord record =
                RecordJson.readAdvice(RecordJson.write(new ToAdviceRecord("lstm-flow/kernel").map(advice)));
        assertThat(record.degraded()).isTrue();
        assertThat(record.model()).isEqualTo("lstm-flow/linear");
        assertThat(record.route()).containsExactly(764598L, 717731L, 774445L);
        assertThat(record.routeCostS()).isEqualTo(678.5);
    }
}
