package org.itsrt.producers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.records.Topics;
import org.junit.jupiter.api.Test;

/** The plan's defaults and its one set of rules, each refusal naming the field. */
class ProducerRunPlanTest {

    private static ProducerPlan.Builder minimal() {
        return ProducerPlan.builder()
                .bootstrapServers("127.0.0.1:9092")
                .data(Path.of("readings.csv"))
                .records(60);
    }

    @Test
    void theDefaultsAreTheStudysLoad() {
        ProducerPlan plan = minimal().build();
        assertThat(plan.topic()).isEqualTo(Topics.READINGS);
        assertThat(plan.detectors()).isEqualTo(ProducerRun.STUDY_DETECTORS);
        assertThat(plan.ratePerDetector()).isEqualTo(10);
        assertThat(plan.acks()).isEqualTo("all");
        assertThat(plan.producerProperties()).isEmpty();
        assertThat(plan.progressEvery()).isEqualTo(Duration.ofSeconds(2));
        assertThat(plan.kafkaConfig()).isEqualTo(KafkaClientConfig.none());
        assertThat(plan.warmupRecords()).isZero();
        assertThat(plan.senderThreads()).as("the default rule").isZero();
    }

    @Test
    void toBuilderKeepsEveryFieldItDoesNotChange() {
        ProducerPlan plan = minimal()
                .detectors(List.of(1L, 2L))
                .ratePerDetector(20.5)
                .acks("1")
                .producerProperties(Map.of("linger.ms", "1"))
                .progressEvery(Duration.ZERO)
                .warmupRecords(12)
                .senderThreads(2)
                .loadStep(new org.itsrt.producers.send.LoadStep(Duration.ofSeconds(5), Duration.ofSeconds(10), 2))
                .build();
        assertThat(plan.toBuilder().build()).isEqualTo(plan);
        assertThat(plan.toBuilder().records(6).build())
                .isEqualTo(new ProducerPlan(
                        plan.bootstrapServers(),
                        plan.topic(),
                        plan.data(),
                        plan.detectors(),
                        plan.ratePerDetector(),
                        6,
                        plan.acks(),
                        plan.producerProperties(),
                        plan.progressEvery(),
                        plan.kafkaConfig(),
                        plan.warmupRecords(),
                        plan.senderThreads(),
                        plan.requests(),
                        plan.loadStep()));
    }

    @Test
    void aValueNoReplayTakesIsRefusedNamingItsField() {
        assertRefused(
                minimal().ratePerDetector(0), "ratePerDetector", "must be in (0, 1000000] records/s per detector");
        assertRefused(minimal().ratePerDetector(Double.NaN), "ratePerDetector", "got NaN");
        assertRefused(
                minimal().ratePerDetector(ProducerRun.MAX_RATE_PER_DETECTOR + 1.0), "ratePerDetector", "got 1000001.0");
        assertThat(minimal()
                        .ratePerDetector(ProducerRun.MAX_RATE_PER_DETECTOR)
                        .build()
                        .ratePerDetector())
                .isEqualTo(1_000_000);
        assertRefused(minimal().records(0), "records", "must be >= 1, got 0");
        assertRefused(minimal().warmupRecords(-1), "warmupRecords", "must be >= 0, got -1");
        assertRefused(minimal().acks("2"), "acks", "must be all, 1 or 0, got 2");
        assertThat(minimal().detectors(ProducerRun.EVERY_DETECTOR).build().detectors())
                .as("no ids: every detector of the table")
                .isEmpty();
        Path meta = Path.of("meta.txt");
        assertRequestsRefused(
                () -> ProducerRun.Requests.of(meta, 0, 1),
                "requests.perSecond",
                "must be in (0, 4000000] requests/s, got 0.0");
        assertRequestsRefused(
                () -> new ProducerRun.Requests("its.route-requests", meta, 10, 1, 0),
                "requests.streams",
                "must be >= 1, got 0");
        // Requests span the readings' time: 3,000 readings of 150 detectors at 1/s take 20 s.
        assertThat(ProducerRun.Requests.measured(25, 3_000, 1, 150)).isEqualTo(500);
        assertThat(ProducerRun.Requests.warmup(25, 750, 1, 150)).isEqualTo(125);
        assertThat(ProducerRun.Requests.measured(0.01, 3_000, 1, 150))
                .as("at least one measured request")
                .isEqualTo(1);
        assertThat(ProducerRun.Requests.warmup(25, 0, 1, 150)).isZero();
        assertRequestsRefused(
                () -> ProducerRun.Requests.of(null, 10, 1),
                "requests.stationMeta",
                "the district's station metadata file");
        assertRefused(minimal().bootstrapServers(null), "bootstrapServers", "must be given");
        assertRefused(minimal().progressEvery(Duration.ofSeconds(-1)), "progressEvery", "must not be negative");
        assertRefused(minimal().senderThreads(-1), "senderThreads", "must be >= 1, or 0 for the default, got -1");
    }

    @Test
    void aLoadIsCheckedByTheSameRules() {
        ProducerPlan.checkLoad(10, 1, 0);
        assertThatThrownBy(() -> ProducerPlan.checkLoad(2e6, 1, 0))
                .isInstanceOfSatisfying(ProducerRun.InvalidPlan.class, e -> assertThat(e.field())
                        .isEqualTo("ratePerDetector"));
        assertThatThrownBy(() -> ProducerPlan.checkLoad(10, 0, 0))
                .isInstanceOfSatisfying(ProducerRun.InvalidPlan.class, e -> assertThat(e.field())
                        .isEqualTo("records"));
    }

    private static void assertRequestsRefused(
            org.assertj.core.api.ThrowableAssert.ThrowingCallable requests, String field, String problem) {
        assertThatThrownBy(requests).isInstanceOfSatisfying(ProducerRun.InvalidPlan.class, e -> {
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.problem()).contains(problem);
        });
    }

    private static void assertRefused(ProducerPlan.Builder builder, String field, String problem) {
        assertThatThrownBy(builder::build)
                .isInstanceOfSatisfying(ProducerRun.InvalidPlan.class, e -> {
                    assertThat(e.field()).isEqualTo(field);
                    assertThat(e.problem()).contains(problem);
                })
                .hasMessageStartingWith(field + " ");
    }
}
