package org.itsrt.job.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.itsrt.job.records.PredictedFlow;
import org.itsrt.job.records.RouteAnswer;
import org.itsrt.job.records.ValidRouteRequest;
import org.itsrt.records.PredictionRecord;
import org.itsrt.records.RecordJson;
import org.itsrt.records.RecordStamps;
import org.itsrt.records.RecordStampsReader;
import org.itsrt.records.RouteOutcome;
import org.itsrt.records.RouteRecord;
import org.itsrt.records.RouteRecordJson;
import org.itsrt.records.RouteStamps;
import org.itsrt.records.RouteStampsReader;
import org.itsrt.records.Topics;
import org.junit.jupiter.api.Test;

/**
 * What the district workload writes to its.predictions and its.routes, read back as the probe and
 * the records' own readers read it (as {@link AdviceOnTheWireTest} for advice).
 */
class DistrictOnTheWireTest {

    private static final Instant TS = Instant.parse("2018-03-05T17:00:00Z");

    @Test
    void aPredictionIsKeyedByItsDetectorAndMeasuredAsAdviceIs() throws Exception {
        PredictedFlow p = new PredictedFlow();
        p.detector = 900_017;
        p.ts = TS;
        p.seq = 1_234_567;
        p.sentNs = 5_834_612_307_719L;
        p.intendedNs = 5_834_612_207_000L;
        p.predictedFlow = 362.4;
        p.parseNs = 21_000;
        p.inferNs = 331_000;

        ProducerRecord<byte[], byte[]> written =
                new PredictionSerializer(Topics.PREDICTIONS, "lstm-flow/kernel-bf16").serialize(p, null, null);

        assertThat(written.topic()).isEqualTo(Topics.PREDICTIONS);
        assertThat(new String(written.key(), StandardCharsets.UTF_8)).isEqualTo("900017");
        assertThat(RecordStampsReader.read(written.value()))
                .isEqualTo(new RecordStamps(
                        p.detector,
                        p.seq,
                        p.sentNs,
                        p.intendedNs,
                        p.parseNs,
                        p.inferNs,
                        RecordStamps.ABSENT,
                        false,
                        false,
                        p.predictedFlow));
        PredictionRecord record = RecordJson.readPrediction(written.value());
        assertThat(record.ts()).isEqualTo(TS);
        assertThat(record.predictedFlow()).isEqualTo(362.4);
        assertThat(record.model()).isEqualTo("lstm-flow/kernel-bf16");
    }

    @Test
    void anAnswerIsKeyedByItsTravellerAndCarriesTheRequestsStampsAndItsVersion() throws Exception {
        ValidRouteRequest request = new ValidRouteRequest();
        request.traveller = 77;
        request.origin = 900_001;
        request.destination = 900_009;
        request.departure = TS;
        request.requestedAt = TS;
        request.stream = 2;
        request.seq = 41;
        request.sentNs = 5_834_612_307_719L;
        request.intendedNs = 5_834_612_207_000L;
        request.warmup = true;
        request.parseNs = 9_000;
        RouteAnswer answer = new RouteAnswer();
        answer.request = request;
        answer.reachable = true;
        answer.route = new long[] {900_001, 900_004, 900_009};
        answer.travelTimeS = 312.5;
        answer.networkVersion = 1_905;
        answer.routeNs = 48_000;

        ProducerRecord<byte[], byte[]> written = new RouteSerializer(Topics.ROUTES).serialize(answer, null, null);

        assertThat(written.topic()).isEqualTo(Topics.ROUTES);
        assertThat(new String(written.key(), StandardCharsets.UTF_8)).isEqualTo("77");
        assertThat(RouteStampsReader.read(written.value()))
                .isEqualTo(new RouteStamps(
                        2, 41, 77, request.sentNs, request.intendedNs, 9_000, 48_000, true, RouteOutcome.ROUTED));
        RouteRecord record = RouteRecordJson.readRoute(written.value());
        assertThat(record.route()).containsExactly(900_001L, 900_004L, 900_009L);
        assertThat(record.travelTimeS()).isEqualTo(312.5);
        assertThat(record.networkVersion()).isEqualTo(1_905);

        answer.reachable = false;
        answer.route = new long[0];
        answer.travelTimeS = Double.NaN;
        RouteRecord unreachable = RouteRecordJson.readRoute(
                new RouteSerializer(Topics.ROUTES).serialize(answer, null, null).value());
        assertThat(unreachable.outcome()).isEqualTo(RouteOutcome.UNREACHABLE);
        assertThat(unreachable.route()).isEmpty();
        assertThat(unreachable.networkVersion()).isEqualTo(1_905);
    }
}
