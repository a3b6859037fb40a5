package org.itsrt.probe.district;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.itsrt.probe.MeasuredDistrictTopics;
import org.itsrt.probe.TestRecords;
import org.itsrt.probe.arrival.Arrival;
import org.itsrt.probe.arrival.ArrivalSink;
import org.itsrt.probe.arrival.MalformedRecord;
import org.itsrt.probe.arrival.RecordIntake;
import org.itsrt.records.DeadLetterHeaders;
import org.itsrt.records.RouteOutcome;
import org.itsrt.records.Topics;
import org.itsrt.records.Workload;
import org.junit.jupiter.api.Test;

/** Each record of the district workload goes to its stream, read the way its topic is written. */
class DistrictIntakeTest {

    private static final class Collected implements ArrivalSink {
        final List<Arrival> arrivals = new ArrayList<>();
        final List<MalformedRecord> malformed = new ArrayList<>();

        @Override
        public void arrived(Arrival arrival) {
            arrivals.add(arrival);
        }

        @Override
        public void malformed(MalformedRecord record) {
            malformed.add(record);
        }
    }

    private final Collected predictions = new Collected();
    private final Collected routes = new Collected();
    private final AnswerOutcomes outcomes = new AnswerOutcomes();
    private final DeadLetterCounts deadLetters = new DeadLetterCounts();
    private final DistrictIntake intake =
            new DistrictIntake(MeasuredDistrictTopics.defaults(), predictions, routes, outcomes, deadLetters);

    @Test
    void anAnswerIsMeasuredPerRequestStreamAndCountedByOutcome() {
        assertThat(intake.take(TestRecords.record(Topics.ROUTES, 1, 0, TestRecords.answer(4, 9, 100, 90, false)), 150))
                .isEqualTo(RecordIntake.Taken.MEASURED);

        assertThat(routes.arrivals).singleElement().satisfies(a -> {
            assertThat(a.detector()).isEqualTo(4);
            assertThat(a.seq()).isEqualTo(9);
            assertThat(a.latencyFromIntendedNs()).isEqualTo(60);
            assertThat(a.inferNs()).isEqualTo(Arrival.ABSENT);
        });
        assertThat(predictions.arrivals).isEmpty();
        assertThat(outcomes.of(RouteOutcome.UNREACHABLE).answers()).isEqualTo(1);
        assertThat(outcomes.of(RouteOutcome.ROUTED).answers()).isZero();
    }

    @Test
    void aPredictionIsMeasuredPerDetector() {
        assertThat(intake.take(
                        TestRecords.record(Topics.PREDICTIONS, 0, 0, TestRecords.prediction(5, 2, 100, 90)), 130))
                .isEqualTo(RecordIntake.Taken.MEASURED);
        assertThat(predictions.arrivals).singleElement().satisfies(a -> {
            assertThat(a.detector()).isEqualTo(5);
            assertThat(a.latencyFromSentNs()).isEqualTo(30);
        });
        assertThat(routes.arrivals).isEmpty();
    }

    @Test
    void aRecordThatIsNoAnswerIsMalformedInTheRoutesStream() {
        assertThat(intake.take(TestRecords.record(Topics.ROUTES, 0, 3, TestRecords.routeRequest(1, 2, 10, 9)), 20))
                .isEqualTo(RecordIntake.Taken.MALFORMED);
        assertThat(intake.take(TestRecords.record(Topics.ROUTES, 0, 4, TestRecords.prediction(5, 2, 10, 9)), 20))
                .isEqualTo(RecordIntake.Taken.MALFORMED);
        assertThat(routes.malformed)
                .extracting(MalformedRecord::reason)
                .containsExactly("missing outcome", "missing stream");
        assertThat(outcomes.answers()).isZero();
    }

    @Test
    void aDeadLetterWithoutHeadersIsCountedApart() {
        assertThat(intake.take(TestRecords.record(Topics.DEAD_LETTERS, 0, 0, new byte[] {1}), 5))
                .isEqualTo(RecordIntake.Taken.COUNTED);
        ConsumerRecord<byte[], byte[]> noReason =
                TestRecords.record(Topics.DEAD_LETTERS, 0, 1, TestRecords.routeRequest(2, 3, 1, 1));
        noReason.headers().add(DeadLetterHeaders.SOURCE_TOPIC, Topics.ROUTE_REQUESTS.getBytes(StandardCharsets.UTF_8));
        intake.take(noReason, 6);

        assertThat(deadLetters.otherSources()).containsEntry("(no source topic)", 1L);
        assertThat(deadLetters.byReason(Workload.Stream.ROUTES)).containsEntry("(no reason)", 1L);
        assertThat(predictions.arrivals).isEmpty();
        assertThat(routes.arrivals).isEmpty();
    }

    @Test
    void aTopicItDoesNotReadIsAnError() {
        assertThatThrownBy(() -> intake.take(TestRecords.record(Topics.ADVICE, 0, 0, new byte[0]), 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(Topics.ADVICE);
    }
}
