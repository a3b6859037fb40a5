package org.itsrt.job.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.itsrt.job.records.RoutedAdvice;
import org.itsrt.records.RecordJson;
import org.itsrt.records.RecordStamps;
import org.itsrt.records.RecordStampsReader;
import org.itsrt.records.Topics;
import org.junit.jupiter.api.Test;

/**
 * What the job writes to its.advice, read back the way the latency probe reads it: every stamp the
 * probe measures with arrives unchanged.
 *
 * <p>The test lives here rather than in latency-probe because the probe's reader,
 * {@link RecordStampsReader}, is in its-records, which the job already depends on: no new module
 * edge is needed. The other way round, latency-probe would need the job (with TensorFlow and the
 * Kafka connector) and Flink on its test class path to run one serializer.
 */
class AdviceOnTheWireTest {

    @Test
    void theProbeReadsEveryMeasuredFieldOfTheJobsAdvice() throws Exception {
        RoutedAdvice advice = advice(new long[] {764598, 717731, 774445});

        ProducerRecord<byte[], byte[]> written =
                new AdviceSerializer(Topics.ADVICE, "lstm-flow/kernel").serialize(advice, null, null);
        RecordStamps stamps = RecordStampsReader.read(written.value());

        assertThat(written.topic()).isEqualTo(Topics.ADVICE);
        assertThat(new String(written.key(), StandardCharsets.UTF_8)).isEqualTo("764598");
        assertThat(stamps)
                .isEqualTo(new RecordStamps(
                        advice.detector,
                        advice.seq,
                        advice.sentNs,
                        advice.intendedNs,
                        advice.parseNs,
                        advice.inferNs,
                        advice.routeNs,
                        false,
                        false,
                        advice.predictedFlow));
        assertThat(stamps.hasIntended()).isTrue();
        assertThat(stamps.hasStages()).isTrue();
        // The whole-record codec agrees with the measurement view on the same bytes.
        assertThat(RecordJson.readAdvice(written.value()).route()).containsExactly(764598L, 717731L, 774445L);
    }

    @Test
    void identityAdviceWithoutARouteIsMeasuredToo() throws Exception {
        RoutedAdvice advice = advice(new long[0]);
        advice.inferNs = 0;
        advice.routeNs = 0;

        RecordStamps stamps = RecordStampsReader.read(new AdviceSerializer(Topics.ADVICE, "identity")
                .serialize(advice, null, null)
                .value());

        assertThat(stamps.seq()).isEqualTo(advice.seq);
        assertThat(stamps.sentNs()).isEqualTo(advice.sentNs);
        assertThat(stamps.inferNs()).isZero();
        assertThat(stamps.routeNs()).isZero();
    }

    /** Stamps of the size the TSC clock gives (about 10^12 ns after boot), all different. */
    private static RoutedAdvice advice(long[] route) {
        RoutedAdvice a = new RoutedAdvice();
        a.detector = 764598;
        a.seq = 1_234_567;
        a.sentNs = 5_834_612_307_719L;
        a.intendedNs = 5_834_612_207_000L;
        a.predictedFlow = 362.4;
        a.route = route;
        a.routeCostS = 699.5;
        a.parseNs = 21_000;
        a.inferNs = 331_000;
        a.routeNs = 4_800;
        return a;
    }
}
