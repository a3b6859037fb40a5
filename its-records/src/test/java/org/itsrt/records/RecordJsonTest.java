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

class RecordJsonTest {

    private static ReadingRecord sample() {
        double[] flow = new double[12];
        double[] speed = new double[12];
        for (int i = 0; i < 12; i++) {
            flow[i] = 300 + i;
            speed[i] = i == 3 ? Double.NaN : 61.5 + i;
        }
        return new ReadingRecord(
                764598, Instant.parse("2018-03-01T08:55:00Z"), flow, speed, 17, 123_456_789L, 123_000_000L);
    }

    @Test
    void readingRoundTripsWithUnknownSpeedAsNull() throws Exception {
        ReadingRecord original = sample();
        byte[] json = RecordJson.write(original);

        assertThat(new String(json, StandardCharsets.UTF_8))
                .startsWith("{\"v\":1,\"detector\":764598,")
                .contains("\"speed\":[61.5,62.5,63.5,null,");
        ReadingRecord read = RecordJson.readReading(json);
        assertThat(read.detector()).isEqualTo(764598);
        assertThat(read.ts()).isEqualTo(original.ts());
        assertThat(read.flow()).containsExactly(original.flow());
        assertThat(Arrays.toString(read.speed())).isEqualTo(Arrays.toString(original.speed()));
        assertThat(read.seq()).isEqualTo(17);
        assertThat(read.sentNs()).isEqualTo(123_456_789L);
        assertThat(read.intendedNs()).isEqualTo(123_000_000L);
    }

    @Test
    void adviceRoundTrips() throws Exception {
        AdviceRecord advice = new AdviceRecord(
                764598,
                3,
                10,
                9,
                312.25,
                "lstm-flow/kernel",
                List.of(764598L, 717731L, 774445L),
                699.5,
                1_000,
                150_000,
                5_000);
        assertThat(RecordJson.readAdvice(RecordJson.write(advice))).isEqualTo(advice);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not json | {\"v\":1, | not valid JSON",
                "array | [1,2] | not a JSON object",
                "no version | {\"detector\":1} | missing field v",
                "wrong version | {\"v\":2} | unsupported version v=2",
                "no detector | {\"v\":1,\"ts\":\"2018-03-01T08:55:00Z\"} | missing integer field detector",
                "bad ts | {\"v\":1,\"detector\":5,\"ts\":\"yesterday\"} | field ts is not an ISO-8601",
                "short flow | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2]} | field flow has 2 values, expected 12",
                "null flow | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2,3,4,5,6,7,8,9,10,11,null]} | flow[11] is not a number",
                "negative flow | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2,3,4,5,6,7,8,9,10,11,-1]} | flow[11] out of range",
                "absurd speed | {\"v\":1,\"detector\":5,\"ts\":\"2018-03-01T08:55:00Z\",\"flow\":[1,2,3,4,5,6,7,8,9,10,11,12],\"speed\":[1,2,3,4,5,6,7,8,9,10,11,500]} | speed[11] out of range 0..120",
            })
    void badRecordsNameTheirProblem(String name, String json, String reason) {
        assertThatThrownBy(() -> RecordJson.readReading(json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(RecordFormatException.class)
                .hasMessageContaining(reason);
    }
}
