package org.itsrt.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.itsrt.kafka.KafkaClientConfig;
import org.itsrt.probe.arrival.ConsumeLoop;
import org.itsrt.probe.stats.RunStats;
import org.itsrt.records.Topics;
import org.itsrt.records.Workload;
import org.junit.jupiter.api.Test;

/** The probe's options: their defaults, a copy with a field changed, a missing field named. */
class ProbeRunOptionsTest {

    private static ProbeOptions.Builder minimal() {
        return ProbeOptions.builder()
                .topic("its.advice")
                .bootstrapServers("127.0.0.1:9092")
                .settings(new RunStats.Settings(1_000_000_000L, 20_000_000L, 0));
    }

    @Test
    void theDefaultsReadWhatIsSentFromNowOnWithoutLimits() {
        ProbeOptions options = minimal().build();
        assertThat(options.groupId()).startsWith("its-probe-");
        assertThat(options.fromBeginning()).isFalse();
        assertThat(options.consumerOverrides()).isEmpty();
        assertThat(options.limits()).isEqualTo(ConsumeLoop.Limits.none());
        assertThat(options.expected()).isZero();
        assertThat(options.progressEveryNs()).isZero();
        assertThat(options.stopDescription()).isEmpty();
        assertThat(options.faultsFile()).isNull();
        assertThat(options.kafkaConfig()).isEqualTo(KafkaClientConfig.none());
    }

    @Test
    void withoutAGroupTheConsumerOverridesOneIsTaken() {
        assertThat(minimal()
                        .consumerOverrides(Map.of("group.id", "mine"))
                        .build()
                        .groupId())
                .isEqualTo("mine");
        assertThat(minimal()
                        .consumerOverrides(Map.of("group.id", "mine"))
                        .groupId("given")
                        .build()
                        .groupId())
                .isEqualTo("given");
    }

    @Test
    void toBuilderKeepsEveryFieldItDoesNotChange() {
        ProbeOptions options = minimal()
                .fromBeginning(true)
                .expected(60)
                .stopDescription(Map.of(ConsumeLoop.StopReason.IDLE, "--idle-timeout 1s"))
                .build();
        assertThat(options.toBuilder().build()).isEqualTo(options);
        assertThat(options.toBuilder().expected(6).build().groupId()).isEqualTo(options.groupId());
    }

    @Test
    void aMissingFieldIsNamed() {
        assertThatThrownBy(() -> minimal().topic(null).build()).hasMessage("topic must be given");
        assertThatThrownBy(() -> minimal().settings(null).build()).hasMessage("settings must be given");
    }

    @Test
    void theStudyIsTheDefaultWorkload() {
        ProbeOptions options = minimal().build();
        assertThat(options.workload()).isEqualTo(Workload.STUDY);
        assertThat(options.districtTopics()).isNull();
        assertThat(options.expectedRequests()).isZero();
        assertThat(options.topics()).containsExactly("its.advice");
    }

    @Test
    void theDistrictWorkloadReadsItsTopicsByDefault() {
        ProbeOptions options = minimal()
                .topic(null)
                .workload(Workload.DISTRICT)
                .expected(500)
                .expectedRequests(40)
                .build();
        assertThat(options.districtTopics()).isEqualTo(MeasuredDistrictTopics.defaults());
        assertThat(options.topics()).containsExactly(Topics.PREDICTIONS, Topics.ROUTES, Topics.DEAD_LETTERS);
        assertThat(options.toBuilder().build()).isEqualTo(options);
        MeasuredDistrictTopics noDeadLetters =
                new MeasuredDistrictTopics(Topics.READINGS, "p", Topics.ROUTE_REQUESTS, "r", null);
        assertThat(options.toBuilder().districtTopics(noDeadLetters).build().topics())
                .containsExactly("p", "r");
    }

    @Test
    void optionsOfOneWorkloadAreRefusedForTheOther() {
        assertThatThrownBy(() -> minimal().workload(Workload.DISTRICT).build())
                .hasMessage("topic its.advice is the study's; the district workload reads districtTopics");
        assertThatThrownBy(() -> minimal().expectedRequests(3).build())
                .hasMessage("expectedRequests is for the district workload, not the study's");
        assertThatThrownBy(() -> minimal()
                        .districtTopics(MeasuredDistrictTopics.defaults())
                        .build())
                .hasMessage("districtTopics are for the district workload, not the study's");
        assertThatThrownBy(() -> new MeasuredDistrictTopics(Topics.READINGS, " ", Topics.ROUTE_REQUESTS, "r", null))
                .hasMessage("district topic predictions must be given");
    }
}
