package org.itsrt.probe.arrival;

import org.itsrt.probe.TestRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordParserTest {

    private final RecordParser parser = new RecordParser();

    @Test
    void readsTheMeasuredFieldsOfAnAdviceRecord() throws Exception {
        Arrival a = parser.parse(TestRecords.advice(764598, 17, 1_000_000, 999_000, 12_000, 450_000, 80_000), 3_500_000);

        assertThat(a.detector()).isEqualTo(764598);
        assertThat(a.seq()).isEqualTo(17);
        assertThat(a.sentNs()).isEqualTo(1_000_000);
        assertThat(a.intendedNs()).isEqualTo(999_000);
        assertThat(a.parseNs()).isEqualTo(12_000);
        assertThat(a.inferNs()).isEqualTo(450_000);
        assertThat(a.routeNs()).isEqualTo(80_000);
        assertThat(a.arrivalNs()).isEqualTo(3_500_000);
        assertThat(a.latencyFromSentNs()).isEqualTo(2_500_000);
        assertThat(a.latencyFromIntendedNs()).isEqualTo(2_501_000);
        assertThat(a.hasStages()).isTrue();
    }

    @Test
    void aReadingRecordHasNoStages() throws Exception {
        Arrival a = parser.parse(TestRecords.reading(717731, 0, 100, 90), 200);

        assertThat(a.hasStages()).isFalse();
        assertThat(a.parseNs()).isEqualTo(Arrival.ABSENT);
        assertThat(a.latencyFromIntendedNs()).isEqualTo(110);
    }

    @Test
    void intendedTimeAndStagesMayBeNullOrAbsent() throws Exception {
        Arrival a = parse("{\"v\":1,\"detector\":1,\"seq\":0,\"sent_ns\":5,\"intended_ns\":null,\"parse_ns\":null}");

        assertThat(a.hasIntended()).isFalse();
        assertThat(a.latencyFromIntendedNs()).isEqualTo(Arrival.ABSENT);
        assertThat(a.hasStages()).isFalse();
        assertThat(parse("{\"detector\":1,\"seq\":0,\"sent_ns\":5}").hasIntended()).isFalse();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "not json at all                                              | not JSON",
            "{\"detector\":1,\"seq\":0,\"sent_ns\":5                      | not JSON",
            "{\"detector\":1,\"seq\":0,\"sent_ns\":5} {}                  | not JSON",
            "[1,2,3]                                                      | not a JSON object",
            "{\"v\":2,\"detector\":1,\"seq\":0,\"sent_ns\":5}             | unsupported version",
            "{\"seq\":0,\"sent_ns\":5}                                    | missing detector",
            "{\"detector\":1,\"sent_ns\":5}                               | missing seq",
            "{\"detector\":1,\"seq\":0}                                   | missing sent_ns",
            "{\"detector\":\"764598\",\"seq\":0,\"sent_ns\":5}            | invalid detector",
            "{\"detector\":1,\"seq\":-1,\"sent_ns\":5}                    | invalid seq",
            "{\"detector\":1,\"seq\":1.5,\"sent_ns\":5}                   | invalid seq",
            "{\"detector\":1,\"seq\":0,\"sent_ns\":[5]}                   | invalid sent_ns",
            "{\"detector\":1,\"seq\":0,\"sent_ns\":99999999999999999999}  | invalid sent_ns",
            "{\"detector\":1,\"seq\":0,\"sent_ns\":5,\"intended_ns\":\"x\"} | invalid intended_ns",
            "{\"detector\":1,\"seq\":0,\"sent_ns\":5,\"infer_ns\":-3}     | invalid infer_ns",
    })
    void malformedRecordsAreNamedNotThrownAsCrashes(String json, String reason) {
        assertThatThrownBy(() -> parse(json.strip()))
                .isInstanceOf(RecordParser.MalformedException.class)
                .satisfies(e -> assertThat(((RecordParser.MalformedException) e).reason()).isEqualTo(reason));
    }

    @Test
    void anEmptyValueIsMalformed() {
        assertThatThrownBy(() -> parser.parse(null, 0)).hasMessageContaining("no value");
        assertThatThrownBy(() -> parser.parse(new byte[0], 0)).isInstanceOf(RecordParser.MalformedException.class);
    }

    @Test
    void invalidUtf8IsMalformed() {
        byte[] bad = {'{', '"', 'd', (byte) 0xC3, (byte) 0x28, '"', ':', '1', '}'};
        assertThatThrownBy(() -> parser.parse(bad, 0)).isInstanceOf(RecordParser.MalformedException.class);
    }

    private Arrival parse(String json) throws RecordParser.MalformedException {
        return parser.parse(json.getBytes(StandardCharsets.UTF_8), 0);
    }
}
