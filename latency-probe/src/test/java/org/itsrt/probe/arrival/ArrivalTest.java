package org.itsrt.probe.arrival;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.itsrt.probe.TestRecords;
import org.itsrt.records.MalformedRecordException;
import org.itsrt.records.RecordStampsReader;
import org.junit.jupiter.api.Test;

/**
 * The probe's arrival as built from the shared reader (its-records' RecordStampsReader, whose own
 * tests cover every malformed-record reason): the stamps arrive intact and the latencies follow.
 */
class ArrivalTest {

    @Test
    void readsTheMeasuredFieldsOfAnAdviceRecord() throws Exception {
        Arrival a = arrive(TestRecords.advice(764598, 17, 1_000_000, 999_000, 12_000, 450_000, 80_000), 3_500_000);

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
        Arrival a = arrive(TestRecords.reading(717731, 0, 100, 90), 200);

        assertThat(a.hasStages()).isFalse();
        assertThat(a.parseNs()).isEqualTo(Arrival.ABSENT);
        assertThat(a.latencyFromIntendedNs()).isEqualTo(110);
    }

    @Test
    void withoutAnIntendedTimeThereIsNoLatencyFromIt() throws Exception {
        Arrival a = arrive(
                "{\"v\":1,\"detector\":1,\"seq\":0,\"sent_ns\":5,\"intended_ns\":null,\"parse_ns\":null}"
                        .getBytes(StandardCharsets.UTF_8),
                8);

        assertThat(a.hasIntended()).isFalse();
        assertThat(a.latencyFromIntendedNs()).isEqualTo(Arrival.ABSENT);
        assertThat(a.latencyFromSentNs()).isEqualTo(3);
        assertThat(a.hasStages()).isFalse();
    }

    private static Arrival arrive(byte[] value, long arrivalNs) throws MalformedRecordException {
        return Arrival.of(RecordStampsReader.read(value), arrivalNs);
    }
}
