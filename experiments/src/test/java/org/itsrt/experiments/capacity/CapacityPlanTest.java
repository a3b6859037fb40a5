package org.itsrt.experiments.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.itsrt.experiments.spec.SpecException;
import org.itsrt.pipeline.plan.BudgetPlan;
import org.itsrt.pipeline.plan.LoadPlan;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.records.Workload;
import org.junit.jupiter.api.Test;

class CapacityPlanTest {

    private static final CapacityPlan.Request DEFAULTS =
            new CapacityPlan.Request(null, null, null, null, null, null, null, null);

    private static final CapacityPlan.Request DETECTORS =
            new CapacityPlan.Request("detectors", null, null, null, null, null, null, null);

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
    void theDefaultsSearchFrom250To8000RequestsWithThreeRunsAndA50MsTargetOnBothStreams() {
        CapacityPlan plan = plan(DEFAULTS);

        CapacitySearch.Settings s = plan.settings();
        assertThat(s.axis()).isEqualTo(CapacityAxis.REQUESTS);
        assertThat(s.minLoad()).isEqualTo(250);
        assertThat(s.maxLoad()).isEqualTo(8_000);
        assertThat(s.repetitions()).isEqualTo(3);
        assertThat(s.slo()).isEqualTo(new CapacitySlo(50, 5));
        assertThat(plan.describe())
                .contains("capacity along the requests axis")
                .contains("a district of 120 detectors")
                .contains("for its readings -> predictions and its requests -> answers, the p99 <= 50 ms")
                .contains("rates 250..8000 requests/s");
        assertThat(plan.judged()).containsExactly(Workload.Stream.PREDICTIONS, Workload.Stream.ROUTES);
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
        assertThatThrownBy(() -> plan(new CapacityPlan.Request(null, 500.0, 400.0, 0.0, 0, null, -1.0, -2.0)))
                .isInstanceOf(SpecException.class)
                .hasMessage(String.join(
                        "\n",
                        "--max must be above --min (500.0), got 400.0",
                        "--resolution must be > 0 requests/s, got 0.0",
                        "--repetitions must be >= 1, got 0",
                        "--slo-p99 must be > 0 ms, got -1.0",
                        "--lag-tolerance must be >= 0 ms/s, got -2.0"));
        assertThatThrownBy(() -> plan(new CapacityPlan.Request("requests", 0.0, null, null, 3, 2, null, null)))
                .hasMessage("--min must be > 0 requests/s, got 0.0\n"
                        + "--max-repetitions must be >= --repetitions (3), got 2");
        assertThatThrownBy(() -> plan(new CapacityPlan.Request("readings", null, null, null, null, null, null, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--axis must be requests or detectors, got readings");
    }

    @Test
    void theDetectorsAxisSearchesFrom1200To19200DetectorsJudgingThePredictionsAndTheAnswers() {
        CapacityPlan plan = plan(DETECTORS);

        CapacitySearch.Settings s = plan.settings();
        assertThat(s.axis()).isEqualTo(CapacityAxis.DETECTORS);
        assertThat(s.minLoad()).isEqualTo(1_200);
        assertThat(s.maxLoad()).isEqualTo(19_200);
        assertThat(s.resolution()).isEqualTo(200);
        assertThat(plan.judged()).containsExactly(Workload.Stream.PREDICTIONS, Workload.Stream.ROUTES);
        assertThat(plan.describe())
                .contains("capacity along the detectors axis")
                .contains("a speed-up of 100")
                .contains("1000 route requests/s")
                .contains("each point as long as the plan at 120 detectors")
                .contains("for its readings -> predictions and its requests -> answers, the p99 <= 50 ms")
                .contains("districts of 1200..19200 detectors");
    }

    @Test
    void aPointOnTheDetectorsAxisLastsAsLongAsThePlanWithItsRecordsScaled() {
        RunPlan.Builder base = district().toBuilder();
        base.load().records(1_200).warmupRecords(2_400);
        CapacityPlan plan = CapacityPlan.of(base.build(), DETECTORS);

        RunPlan at = plan.pointPlan(1_000);

        LoadPlan load = at.load();
        assertThat(load.district().detectors()).isEqualTo(1_000);
        assertThat(load.records()).isEqualTo(10_000);
        assertThat(load.warmupRecords()).isEqualTo(20_000);
        assertThat(load.rateHz()).isEqualTo(plan.pointPlan().load().rateHz());
        assertThat(load.warmupDuration()).isEqualTo(plan.pointPlan().load().warmupDuration());
        assertThat(load.requestRecords()).isEqualTo(plan.pointPlan().load().requestRecords());
        assertThat(load.district().requestsPerSecond())
                .isEqualTo(plan.pointPlan().load().district().requestsPerSecond());
        assertThat(at.budget()).isEqualTo(plan.pointPlan().budget());
    }

    @Test
    void aPlanWithoutRequestsIsJudgedByItsPredictionsAlone() {
        RunPlan.Builder base = district().toBuilder();
        base.load().districtFields().requestsPerSecond(0);
        CapacityPlan plan = CapacityPlan.of(base.build(), DETECTORS);

        assertThat(plan.judged()).containsExactly(Workload.Stream.PREDICTIONS);
        assertThat(plan.pointPlan(2_000).load().requestRecords()).isZero();
        assertThat(plan.describe()).contains("no route requests").contains("for its readings -> predictions, the p99");
    }

    @Test
    void theDetectorsAxisRefusesTooSmallOrFractionalDistrictsAndOnesReadFromFiles() {
        assertThatThrownBy(
                        () -> plan(new CapacityPlan.Request("detectors", 50.0, 4_000.5, 0.5, null, null, null, null)))
                .isInstanceOf(SpecException.class)
                .hasMessage(String.join(
                        "\n",
                        "--min must be a whole number of detectors >= 100 (the smallest district ./its generate makes), "
                                + "got 50.0",
                        "--max must be a whole number of detectors above --min (50.0), got 4000.5",
                        "--resolution must be >= 1 detector, got 0.5"));
        RunPlan.Builder fromFiles = district().toBuilder();
        fromFiles.load().districtFields().dir(Path.of("data/district-7"));
        assertThatThrownBy(() -> CapacityPlan.of(fromFiles.build(), DETECTORS))
                .hasMessage("load.district.dir: --axis detectors sizes a generated district, so it takes a plan "
                        + "without a district folder, got data/district-7");
        RunPlan.Builder fromTable = district().toBuilder();
        fromTable.load().data(Path.of("readings.csv.gz"));
        assertThatThrownBy(() -> CapacityPlan.of(fromTable.build(), DETECTORS))
                .hasMessage("load.data: --axis detectors replays the generated district's readings, so it takes a "
                        + "plan without a readings table, got readings.csv.gz");
    }

    @Test
    void theStudyWorkloadIsRefused() {
        assertThatThrownBy(() -> CapacityPlan.of(RunPlan.builder().build(), DEFAULTS))
                .hasMessage("load.workload: ./its capacity searches route requests per second, so it takes district, "
                        + "got STUDY");
    }
}
