package org.itsrt.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The encoder against the trainer's own feature_tensor (encoder-cases.json, written by
 * make_encoder_cases.py next to it), and the daylight-saving changes worked out by hand.
 */
class FeatureEncoderTest {
    private static final ZoneId PACIFIC = ZoneId.of("America/Los_Angeles");
    private static final Scaler SCALER =
            new Scaler(new FeatureRange(83.0, 409.0, Double.NaN), new FeatureRange(49.7, 72.4, 67.7));
    private static final List<Feature> ALL = List.of(Feature.FLOW, Feature.SPEED, Feature.TOD_SIN, Feature.TOD_COS);

    static List<JsonNode> cases() {
        JsonNode root = TestBundles.json(TestBundles.resource("/predict/encoder-cases.json"));
        List<JsonNode> cases = new ArrayList<>();
        root.get("cases").forEach(cases::add);
        return cases;
    }

    @ParameterizedTest(name = "{index}: {0}")
    @MethodSource("cases")
    void encodesAsTheTrainerDoes(JsonNode testCase) {
        List<Feature> features = StreamSupport.stream(testCase.get("features").spliterator(), false)
                .map(name -> Feature.fromBundleName(name.asText(), null))
                .toList();
        FeatureEncoder encoder = new FeatureEncoder(model(features), SCALER);
        ReadingWindow window = new ReadingWindow(
                TestBundles.doubles(testCase.get("flows")),
                TestBundles.doubles(testCase.get("speeds")),
                Instant.parse(testCase.get("newest_ts_utc").asText()));

        float[] encoded = encoder.encode(window);

        JsonNode expected = testCase.get("expected");
        assertThat(encoded).hasSize(12 * features.size());
        for (int reading = 0; reading < 12; reading++) {
            for (int f = 0; f < features.size(); f++) {
                float want = (float) expected.get(reading).get(f).doubleValue();
                assertThat(encoded[reading * features.size() + f])
                        .as("%s, reading %d, %s", testCase.get("name").asText(), reading, features.get(f))
                        .isCloseTo(want, within(2e-7f));
            }
        }
    }

    @Test
    void theHourLostInSpringIsSkipped() {
        FeatureEncoder encoder = new FeatureEncoder(model(List.of(Feature.TOD_SIN, Feature.TOD_COS)), SCALER);
        double[] flows = new double[12];

        float[] before = encoder.encode(ReadingWindow.flowOnly(flows, Instant.parse("2018-03-11T09:55:00Z")));
        float[] after = encoder.encode(ReadingWindow.flowOnly(flows, Instant.parse("2018-03-11T10:00:00Z")));

        // 09:55Z is 01:55 PST; five minutes later it is 03:00 PDT, not 02:00.
        assertThat(before[22]).isCloseTo(tod(Math::sin, 1, 55), within(1e-7f));
        assertThat(after[22]).isCloseTo(tod(Math::sin, 3, 0), within(1e-7f));
        assertThat(after[23]).isCloseTo(tod(Math::cos, 3, 0), within(1e-7f));
        // The reading before the newest one is still 01:55 PST.
        assertThat(after[20]).isEqualTo(before[22]);
        // The oldest reading of the later window is 01:05 PST.
        assertThat(after[0]).isCloseTo(tod(Math::sin, 1, 5), within(1e-7f));
    }

    @Test
    void theHourRepeatedInAutumnRepeats() {
        FeatureEncoder encoder = new FeatureEncoder(model(List.of(Feature.TOD_SIN, Feature.TOD_COS)), SCALER);

        float[] encoded = encoder.encode(ReadingWindow.flowOnly(new double[12], Instant.parse("2018-11-04T09:00:00Z")));

        // 08:55Z is 01:55 PDT, 09:00Z is 01:00 PST again.
        assertThat(encoded[20]).isCloseTo(tod(Math::sin, 1, 55), within(1e-7f));
        assertThat(encoded[22]).isCloseTo(tod(Math::sin, 1, 0), within(1e-7f));
    }

    @Test
    void oneEncoderGoingBackAndForthAcrossTheChangesAgreesWithFreshOnes() {
        ModelSpec model = model(List.of(Feature.TOD_SIN, Feature.TOD_COS));
        FeatureEncoder reused = new FeatureEncoder(model, SCALER);
        List<Instant> newest = new ArrayList<>();
        for (String around : List.of("2018-03-11T10:00:00Z", "2018-11-04T09:00:00Z")) {
            for (int minutes = -70; minutes <= 70; minutes += 5) {
                newest.add(Instant.parse(around).plusSeconds(60L * minutes));
            }
        }
        List<Instant> backAndForth = new ArrayList<>(newest);
        java.util.Collections.reverse(backAndForth);
        backAndForth.addAll(0, newest);

        for (Instant start : backAndForth) {
            ReadingWindow window = ReadingWindow.flowOnly(new double[12], start);
            assertThat(reused.encode(window))
                    .as("newest reading at %s", start)
                    .containsExactly(new FeatureEncoder(model, SCALER).encode(window));
        }
    }

    @Test
    void anUnknownSpeedTakesTheScalersFill() {
        FeatureEncoder encoder = new FeatureEncoder(model(ALL), SCALER);
        double[] flows = {83, 409, 246, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        double[] speeds = new double[12];
        java.util.Arrays.fill(speeds, Double.NaN);
        speeds[1] = 72.4;

        float[] encoded = encoder.encode(new ReadingWindow(flows, speeds, Instant.parse("2018-03-21T12:00:00Z")));

        assertThat(encoded[0]).isEqualTo(0f);
        assertThat(encoded[4]).isEqualTo(1f);
        assertThat(encoded[8]).isEqualTo((float) ((246 - 83) / 326.0));
        assertThat(encoded[1]).isEqualTo((float) ((67.7 - 49.7) / (72.4 - 49.7)));
        assertThat(encoded[5]).isEqualTo(1f);
    }

    @Test
    void aWindowOfTheWrongLengthIsRefused() {
        FeatureEncoder encoder = new FeatureEncoder(model(List.of(Feature.FLOW)), SCALER);

        assertThatThrownBy(() -> encoder.encode(ReadingWindow.flowOnly(new double[11], Instant.EPOCH)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the window holds 11 readings; the model wants 12");
    }

    @Test
    void aWindowKeepsItsValues() {
        double[] flows = new double[12];
        ReadingWindow window = ReadingWindow.flowOnly(flows, Instant.EPOCH);
        flows[0] = 99;
        window.flows()[1] = 99;

        assertThat(window.flow(0)).isZero();
        assertThat(window.flow(1)).isZero();
        assertThat(window.speed(3)).isNaN();
        assertThat(window).isEqualTo(ReadingWindow.flowOnly(new double[12], Instant.EPOCH));
        assertThatThrownBy(() -> new ReadingWindow(new double[12], new double[11], Instant.EPOCH))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static float tod(java.util.function.DoubleUnaryOperator function, int hour, int minute) {
        return (float) function.applyAsDouble(2 * Math.PI * (hour * 3600 + minute * 60) / 86400);
    }

    private static ModelSpec model(List<Feature> features) {
        return new ModelSpec(
                "test",
                12,
                300,
                features,
                PACIFIC,
                List.of(),
                new ModelSpec.Signature("serve", "flows", "flow_next"),
                null);
    }
}
