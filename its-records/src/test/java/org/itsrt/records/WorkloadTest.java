package org.itsrt.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The workloads as their streams: the topics a broker creates for each follow from them. */
class WorkloadTest {

    @Test
    void eachWorkloadsTopicsAreItsStreamsInputsAndOutputsThenTheDeadLetters() {
        assertThat(Workload.STUDY.streams()).containsExactly(Workload.Stream.ADVICE);
        assertThat(Workload.STUDY.topics()).containsExactly(Topics.READINGS, Topics.ADVICE, Topics.DEAD_LETTERS);
        assertThat(Workload.DISTRICT.streams()).containsExactly(Workload.Stream.PREDICTIONS, Workload.Stream.ROUTES);
        assertThat(Workload.DISTRICT.topics())
                .containsExactly(
                        Topics.READINGS, Topics.PREDICTIONS, Topics.ROUTE_REQUESTS, Topics.ROUTES, Topics.DEAD_LETTERS);
        assertThat(List.of(Workload.Stream.values()))
                .extracting(Workload.Stream::label)
                .containsExactly("advice", "predictions", "routes");
    }

    @Test
    void aWorkloadIsReadByItsNameAndAnUnknownNameIsRefusedNamingTheKnownOnes() {
        assertThat(Workload.of("district")).isEqualTo(Workload.DISTRICT);
        assertThat(Workload.of(Workload.STUDY.option())).isEqualTo(Workload.STUDY);
        assertThatThrownBy(() -> Workload.of("DISTRICT"))
                .hasMessage("unknown workload 'DISTRICT', expected one of study, district");
    }
}
