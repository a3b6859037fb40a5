package org.itsrt.experiments.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.itsrt.experiments.spec.SpecException;
import org.itsrt.pipeline.plan.BudgetPlan;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.pipeline.plan.Workload;
import org.junit.jupiter.api.Test;

class CapacityPlanTest {

    private static final CapacityPlan.Request DEFAULTS =
            new CapacityPlan.Request(null, null, null, null, null, null, null);

    static RunPlan district() {
        RunPlan.Builder plan = RunPlan.builder();
        plan.load().workload(Workload.DISTRICT).districtFields().detectors(120);
        plan.budget()
                .backend(BudgetPlan.Backend.LINUX_CGROUP)
                .vcpus(2)
                .budgetUs(100_000L)
                .periodUs(100_000L);
        return plan.build();
    }

    static CapacityPlan plan(CapacityPlan.Request request) {
        return CapacityPlan.of(district(), request);
    }

    @Test
    void theDefaultsSearchFrom250To8000RequestsWithThreeRunsAndA50MsTarget() {
        CapacityPlan plan = plan(DEFAULTS);

        CapacitySearch.Settings s = plan.settings();
        assertThat(s.minRate()).isEqualTo(250);
        assertThat(s.maxRate()).isEqualTo(8_000);
        assertThat(s.repetitions()).isEqualTo(3);
        assertThat(s.slo()).isEqualTo(new CapacitySlo(50, 5));
        assertThat(plan.describe()).contains("a district of 120 detectors").contains("p99 <= 50 ms");
    }

    @Test
    void aPointsPlanIsThePlanWithItsRateAndTheSameBudget() {
        CapacityPlan plan = plan(DEFAULTS);

        RunPlan at = plan.pointPlan(1_234);

        assertThat(at.load().district().requestsPerSecond()).isEqualTo(1_234);
        assertThat(at.load().district().detectors()).isEqualTo(120);
        assertThat(at.budget()).isEqualTo(plan.pointPlan().budget());
    }

    @Test
    void badRangesAndSlosAreRefusedEachInOneLineNamingTheOption() {
        assertThatThrownBy(() -> plan(new CapacityPlan.Request(500.0, 400.0, 0.0, 0, null, -1.0, -2.0)))
                .isInstanceOf(SpecException.class)
                .hasMessage(String.join(
                        "\n",
                        "--max-rate must be above --min-rate (500.0), got 400.0",
                        "--rate-resolution must be > 0 requests/s, got 0.0",
                        "--repetitions must be >= 1, got 0",
                        "--slo-p99 must be > 0 ms, got -1.0",
                        "--lag-tolerance must be >= 0 ms/s, got -2.0"));
        assertThatThrownBy(() -> plan(new CapacityPlan.Request(0.0, null, null, 3, 2, null, null)))
                .hasMessage("--min-rate must be > 0 requests/s, got 0.0\n"
                        + "--max-repetitions must be >= --repetitions (3), got 2");
    }

    @Test
    void theStudyWorkloadIsRefused() {
        assertThatThrownBy(() -> CapacityPlan.of(RunPlan.builder().build(), DEFAULTS))
                .hasMessage("load.workload: ./its capacity searches route requests per second, so it takes district, "
                        + "got STUDY");
    }
}
