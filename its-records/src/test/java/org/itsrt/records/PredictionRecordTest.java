package org.itsrt.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PredictionRecordTest {

    private static ReadingRecord reading(boolean warmup) {
        double[] flow = new double[ReadingRecord.WINDOW];
        double[] speed = new double[ReadingRecord.WINDOW];
        Arrays.fill(flow, 300);
        Arrays.fill(speed, 61);
        return new ReadingRecord(
                764598,
                Instant.parse("2018-03-05T09:00:00Z"),
                flow,
                speed,
                17,
                5_834_612_307_719L,
                5_834_612_207_000L,
                warmup);
    }

    private static PredictionRecord prediction(boolean warmup) {
        return PredictionRecord.predicting(reading(warmup))
                .predictedFlow(362.4)
                .model("lstm-flow/kernel-bf16")
                .parseNs(21_000)
                .inferNs(331_000)
                .build();
    }

    @Test
    void aPredictionRoundTripsWithEveryFieldAndCarriesTheReadingsIdentity() throws Exception {
        PredictionRecord original = prediction(true);
        byte[] json = RecordJson.write(original);

        assertThat(new String(json, StandardCharsets.UTF_8))
                .isEqualTo(
                        "{\"v\":1,\"detector\":764598,\"ts\":\"2018-03-05T09:00:00Z\",\"seq\":17,"
                                + "\"sent_ns\":5834612307719,\"intended_ns\":5834612207000,\"predicted_flow\":362.4,"
                                + "\"model\":\"lstm-flow/kernel-bf16\",\"parse_ns\":21000,\"infer_ns\":331000,\"warmup\":true}");
        assertThat(RecordJson.readPrediction(json)).isEqualTo(original);
        assertThat(RecordJson.readPrediction(RecordJson.write(prediction(false))))
                .isEqualTo(prediction(false));
        assertThat(new String(RecordJson.write(prediction(false)), StandardCharsets.UTF_8))
                .doesNotContain("warmup");
    }

    @Test
    void theProbesReaderMeasuresAPredictionAsItMeasuresAdvice() throws Exception {
        RecordStamps s = RecordStampsReader.read(RecordJson.write(prediction(true)));

        assertThat(s)
                .isEqualTo(new RecordStamps(
                        764598,
                        17,
                        5_834_612_307_719L,
                        5_834_612_207_000L,
                        21_000,
                        331_000,
                        RecordStamps.ABSENT,
                        true,
                        false,
                        362.4));
    }

    @Test
    void theBuilderNamesWhatWasNotSet() {
        assertThatThrownBy(() ->
                        PredictionRecord.predicting(reading(false)).model("m").build())
                .hasMessage("prediction: predictedFlow not set");
        assertThatThrownBy(() -> PredictionRecord.predicting(reading(false))
                        .predictedFlow(1)
                        .build())
                .hasMessage("prediction: model not set");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "negative flow | \"predicted_flow\":362.4 -> \"predicted_flow\":-0.5 | field predicted_flow: out of range 0..2000: -0.5",
                "huge flow | \"predicted_flow\":362.4 -> \"predicted_flow\":1e999 | field predicted_flow: out of range 0..2000",
                "text flow | \"predicted_flow\":362.4 -> \"predicted_flow\":\"362\" | field predicted_flow: not a number: \"362\"",
                "no flow | \"predicted_flow\":362.4, -> | field predicted_flow: missing",
                "empty model | \"model\":\"lstm-flow/kernel-bf16\" -> \"model\":\"\" | field model: empty",
                "no ts | \"ts\":\"2018-03-05T09:00:00Z\", -> | field ts: missing",
                "negative infer_ns | \"infer_ns\":331000 -> \"infer_ns\":-1 | field infer_ns: negative: -1",
                "zero detector | \"detector\":764598 -> \"detector\":0 | field detector: must be positive: 0",
                "text warmup | \"warmup\":true -> \"warmup\":\"true\" | field warmup: not a boolean: \"true\"",
                "duplicate | \"seq\":17 -> \"seq\":17,\"seq\":18 | duplicate field: 'seq'",
            })
    void badPredictionsNameTheirProblem(String name, String edit, String reason) {
        String json = new String(RecordJson.write(prediction(true)), StandardCharsets.UTF_8);
        int arrow = edit.indexOf(" ->");
        String old = edit.substring(0, arrow);
        assertThat(json).contains(old);
        String bad = json.replace(old, edit.substring(arrow + 3).strip());
        assertThatThrownBy(() -> RecordJson.readPrediction(bad.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(RecordFormatException.class)
                .hasMessageStartingWith(reason);
    }
}
