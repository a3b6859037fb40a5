package org.itsrt.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RecordStampsReaderTest {

    @Test
    void readsTheMeasuredFieldsOfAnAdviceRecordAsTheCodecWritesIt() throws Exception {
        AdviceRecord advice = new AdviceRecord(
                764598,
                17,
                1_000_000,
                999_000,
                412.5,
                "lstm-flow/kernel",
                List.of(764598L, 774614L, 718155L, 716847L, 774445L),
                903.2,
                12_000,
                450_000,
                80_000);

        RecordStamps s = RecordStampsReader.read(RecordJson.write(advice));

        assertThat(s)
                .isEqualTo(
                        new RecordStamps(764598, 17, 1_000_000, 999_000, 12_000, 450_000, 80_000, false, false, 412.5));
        assertThat(s.hasPrediction()).isTrue();
        assertThat(s.hasIntended()).isTrue();
        assertThat(s.hasStages()).isTrue();
    }

    @Test
    void aReadingRecordHasNoStages() throws Exception {
        double[] flow = new double[ReadingRecord.WINDOW];
        double[] speed = new double[ReadingRecord.WINDOW];
        Arrays.fill(flow, 300);
        Arrays.fill(speed, Double.NaN);
        ReadingRecord reading =
                new ReadingRecord(717731, Instant.parse("2018-03-01T08:55:00Z"), flow, speed, 0, 100, 90);

        RecordStamps s = RecordStampsReader.read(RecordJson.write(reading));

        assertThat(s)
                .isEqualTo(new RecordStamps(
                        717731, 0, 100, 90, RecordStamps.ABSENT, RecordStamps.ABSENT, RecordStamps.ABSENT));
        assertThat(s.hasStages()).isFalse();
        assertThat(s.hasPrediction()).isFalse();
    }

    @Test
    void readsTheWarmupFlagOfBothKindsAndAbsentIsMeasured() throws Exception {
        double[] flow = new double[ReadingRecord.WINDOW];
        double[] speed = new double[ReadingRecord.WINDOW];
        Arrays.fill(flow, 300);
        Arrays.fill(speed, 60);
        ReadingRecord reading =
                new ReadingRecord(717731, Instant.parse("2018-03-01T08:55:00Z"), flow, speed, 0, 100, 90, true);
        AdviceRecord advice =
                new AdviceRecord(717731, 0, 100, 90, 1.0, "m", List.of(717731L), 0.0, 1, 2, 3, true, false);

        assertThat(RecordStampsReader.read(RecordJson.write(reading)).warmup()).isTrue();
        assertThat(RecordStampsReader.read(RecordJson.write(advice)).warmup()).isTrue();
        assertThat(RecordStampsReader.read(RecordJson.write(reading.withWarmup(false)))
                        .warmup())
                .isFalse();
        assertThat(read("{\"detector\":1,\"seq\":0,\"sent_ns\":5,\"warmup\":false}")
                        .warmup())
                .isFalse();
    }

    @Test
    void readsTheDegradedFlagOfPredictionsAndAdviceAndAbsentIsNotDegraded() throws Exception {
        AdviceRecord degraded =
                new AdviceRecord(717731, 0, 100, 90, 1.0, "m/linear", List.of(717731L), 0.0, 1, 2, 3, false, true);
        PredictionRecord prediction = new PredictionRecord(
                717731, Instant.parse("2018-03-01T08:55:00Z"), 4, 100, 90, true, 1.0, "m/linear", 1, 2, true);

        assertThat(RecordStampsReader.read(RecordJson.write(degraded)).degraded())
                .isTrue();
        RecordStamps stamps = RecordStampsReader.read(RecordJson.write(prediction));
        assertThat(stamps.degraded()).isTrue();
        assertThat(stamps.warmup()).isTrue();
        assertThat(read("{\"detector\":1,\"seq\":0,\"sent_ns\":5}").degraded()).isFalse();
        assertThatThrownBy(() -> read("{\"detector\":1,\"seq\":0,\"sent_ns\":5,\"degraded\":1}"))
                .isInstanceOf(MalformedRecordException.class)
                .hasMessageContaining("\"degraded\" is 1, expected true or false");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "\"true\" | \"warmup\" is the string \"true\", expected true or false",
                "1 | \"warmup\" is 1, expected true or false",
                "null | \"warmup\" is null, expected true or false",
                "{} | \"warmup\" is an object, expected true or false",
            })
    void aWarmupFlagThatIsNotABooleanIsMalformed(String value, String detail) {
        assertThatThrownBy(() -> read("{\"detector\":1,\"seq\":0,\"sent_ns\":5,\"warmup\":" + value + "}"))
                .isInstanceOfSatisfying(MalformedRecordException.class, e -> {
                    assertThat(e.reason()).isEqualTo("invalid warmup");
                    assertThat(e.getMessage()).contains(detail);
                });
    }

    @Test
    void intendedTimeAndStagesMayBeNullOrAbsent() throws Exception {
        RecordStamps s =
                read("{\"v\":1,\"detector\":1,\"seq\":0,\"sent_ns\":5,\"intended_ns\":null,\"parse_ns\":null}");

        assertThat(s.hasIntended()).isFalse();
        assertThat(s.intendedNs()).isEqualTo(RecordStamps.ABSENT);
        assertThat(s.hasStages()).isFalse();
        assertThat(read("{\"detector\":1,\"seq\":0,\"sent_ns\":5}").hasIntended())
                .isFalse();
    }

    @Test
    void fieldsItDoesNotMeasureAreSkippedWhateverTheirShape() throws Exception {
        RecordStamps s = read("{\"route\":[[1,2],{\"a\":[3]}],\"detector\":7,\"model\":{\"x\":null},\"seq\":3,"
                + "\"sent_ns\":9,\"extra\":\"detector\"}");

        assertThat(s.detector()).isEqualTo(7);
        assertThat(s.seq()).isEqualTo(3);
        assertThat(s.sentNs()).isEqualTo(9);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "362.4        | 362.4",
                "0            | 0.0",
                "1e400        | NaN",
                "null         | NaN",
                "\"362.4\"    | NaN",
                "[362.4]      | NaN",
            })
    void aPredictionIsKeptWhenItIsAFiniteNumberAndIsAbsentOtherwiseNeverMalformed(String value, double expected)
            throws Exception {
        RecordStamps s = read("{\"detector\":1,\"seq\":0,\"sent_ns\":5,\"predicted_flow\":" + value + "}");

        assertThat((Double) s.predictedFlow()).isEqualTo((Double) expected);
        assertThat(s.hasPrediction()).isEqualTo(!Double.isNaN(expected));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not json at all                                              | not JSON",
                "{\"detector\":1,\"seq\":0,\"sent_ns\":5                      | not JSON",
                "{\"detector\":1,\"seq\":0,\"sent_ns\":5} {}                  | not JSON",
                "{\"detector\":1,\"seq\":0,\"seq\":1,\"sent_ns\":5}          | not JSON",
                "{\"detector\":1,\"seq\":0,\"sent_ns\":NaN}                   | not JSON",
                "{\"detector\":1,\"seq\":0,\"sent_ns\":1e308}                 | invalid sent_ns",
                "[1,2,3]                                                      | not a JSON object",
                "{\"v\":2,\"detector\":1,\"seq\":0,\"sent_ns\":5}             | unsupported version",
                "{\"seq\":0,\"sent_ns\":5}                                    | missing detector",
                "{\"detector\":1,\"sent_ns\":5}                               | missing seq",
                "{\"detector\":1,\"seq\":0}                                   | missing sent_ns",
                "{\"detector\":\"764598\",\"seq\":0,\"sent_ns\":5}            | invalid detector",
                "{\"detector\":1,\"seq\":-1,\"sent_ns\":5}                    | invalid seq",
                "{\"detector\":1,\"seq\":1.5,\"sent_ns\":5}                   | invalid seq",
                "{\"detector\":1,\"seq\":2147483647,\"sent_ns\":5}            | invalid seq",
                "{\"detector\":1,\"seq\":0,\"sent_ns\":[5]}                   | invalid sent_ns",
                "{\"detector\":1,\"seq\":0,\"sent_ns\":99999999999999999999}  | invalid sent_ns",
                "{\"detector\":1,\"seq\":0,\"sent_ns\":5,\"intended_ns\":\"x\"} | invalid intended_ns",
                "{\"detector\":1,\"seq\":0,\"sent_ns\":5,\"infer_ns\":-3}     | invalid infer_ns",
                "{\"detector\":1,\"seq\":0,\"sent_ns\":5,\"route_ns\":-9223372036854775808} | invalid route_ns",
            })
    void malformedRecordsAreNamedNotThrownAsCrashes(String json, String reason) {
        assertThatThrownBy(() -> read(json.strip()))
                .isInstanceOf(MalformedRecordException.class)
                .satisfies(
                        e -> assertThat(((MalformedRecordException) e).reason()).isEqualTo(reason));
    }

    @Test
    void theDetailNamesTheFieldAndWhatWasExpected() {
        assertThatThrownBy(() -> read("{\"detector\":1,\"seq\":0,\"sent_ns\":\"soon\"}"))
                .hasMessage("\"sent_ns\" is the string \"soon\", expected an integer");
        assertThatThrownBy(() -> read("{\"v\":2,\"detector\":1,\"seq\":0,\"sent_ns\":5}"))
                .hasMessage("\"v\" is 2, expected 1");
    }

    @Test
    void anEmptyValueIsMalformed() {
        assertThatThrownBy(() -> RecordStampsReader.read(null)).hasMessageContaining("no value");
        assertThatThrownBy(() -> RecordStampsReader.read(new byte[0])).isInstanceOf(MalformedRecordException.class);
    }

    @Test
    void invalidUtf8IsMalformed() {
        byte[] bad = {'{', '"', 'd', (byte) 0xC3, (byte) 0x28, '"', ':', '1', '}'};
        assertThatThrownBy(() -> RecordStampsReader.read(bad)).isInstanceOf(MalformedRecordException.class);
    }

    @Test
    void deepNestingAndHugeArraysAreMalformedOrSkippedNeverACrash() throws Exception {
        String deep =
                "{\"detector\":1,\"seq\":0,\"sent_ns\":5,\"x\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";
        assertThatThrownBy(() -> read(deep))
                .isInstanceOf(MalformedRecordException.class)
                .satisfies(
                        e -> assertThat(((MalformedRecordException) e).reason()).isEqualTo("not JSON"));
        String wide = "{\"detector\":1,\"seq\":0,\"sent_ns\":5,\"route\":[" + "1,".repeat(99_999) + "1]}";
        assertThat(read(wide).seq()).isZero();
    }

    @Test
    void randomBytesAreMalformedNeverACrash() {
        java.util.Random random = new java.util.Random(11);
        for (int i = 0; i < 2_000; i++) {
            byte[] garbage = new byte[1 + random.nextInt(200)];
            random.nextBytes(garbage);
            if (i % 2 == 0) {
                garbage[0] = '{';
            }
            assertThatThrownBy(() -> RecordStampsReader.read(garbage)).isInstanceOf(MalformedRecordException.class);
        }
    }

    private static RecordStamps read(String json) throws MalformedRecordException {
        return RecordStampsReader.read(json.getBytes(StandardCharsets.UTF_8));
    }
}
