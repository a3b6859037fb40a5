package org.itsrt.experiments.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.itsrt.pipeline.plan.StackPlan;
import org.junit.jupiter.api.Test;

/** The report says whether each run had a stack of its own or a new job on one that ran already. */
class WhereRunsRanTest {

    @Test
    void aRunThatStartsItsStackSaysSo() {
        assertThat(ExperimentReport.whereRunsRan(StackPlan.builder().build()))
                .isEqualTo("on a fresh broker and Flink cluster");
    }

    @Test
    void aRunOnBrokersAndAClusterThatRunAlreadyNamesThem() {
        StackPlan lab = StackPlan.builder()
                .broker(StackPlan.Broker.builder()
                        .bootstrapServers("10.0.0.1:9092")
                        .build())
                .flink(StackPlan.Flink.builder()
                        .rest(URI.create("http://10.0.0.2:8081"))
                        .build())
                .build();

        assertThat(ExperimentReport.whereRunsRan(lab))
                .isEqualTo("a new job on the Kafka at 10.0.0.1:9092 and the Flink cluster at http://10.0.0.2:8081");
    }
}
