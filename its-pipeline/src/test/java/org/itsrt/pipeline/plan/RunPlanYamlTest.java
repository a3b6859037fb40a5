package org.itsrt.pipeline.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.itsrt.pipeline.sweep.RateSweep;
import org.itsrt.records.Workload;
import org.junit.jupiter.api.Test;

/** A run plan as YAML: written and read back equal, defaults filled in, and every refusal placed. */
class RunPlanYamlTest {

    @Test
    void aPlanWithEveryFieldSetReadsBackEqual() {
        RunPlan plan = RunPlan.builder()
                .stack(StackPlan.builder()
                        .broker(StackPlan.Broker.builder()
                                .heap("1g")
                                .jvmArgs(List.of("-XX:+UseZGC"))
                                .build())
                        .flink(StackPlan.Flink.builder()
                                .mode(StackPlan.Flink.Mode.STANDALONE)
                                .taskmanagers(2)
                                .ha(true)
                                .jvmArgs(List.of("-XX:+UseSerialGC", "-Xss1m"))
                                .build())
                        .jobJar(Path.of("its-job/target/job.jar"))
                        .parallelism(2)
                        .pins(Map.of("flink", "1"))
                        .cpuLatencyUs(0))
                .load(LoadPlan.builder()
                        .data(Path.of("data/sample/synthetic-readings.csv"))
                        .detectors(List.of(1L, 2L, 3L))
                        .rateHz(12.5)
                        .records(3_000)
                        .warmup(Duration.ofSeconds(4))
                        .steadyAfter(Duration.ofMillis(1500))
                        .sloMs(15)
                        .producerProperties(Map.of("linger.ms", "5"))
                        .consumerProperties(Map.of("fetch.max.wait.ms", "1")))
                .job(JobPlan.builder()
                        .model(Path.of("models/lstm-flow"))
                        .optionsByName(Map.of("engine", "kernel", "max-batch", "64"))
                        .startTimeout(Duration.ofMinutes(15)))
                .phases(PhasePlan.builder()
                        .run(PhasePlan.Run.SWEEP)
                        .sweep(new RateSweep.Plan(
                                List.of(1000.0, 3000.0), Duration.ofSeconds(25), Duration.ofSeconds(15)))
                        .profile(true))
                .output(OutputPlan.builder().dir(Path.of("results/demo/mine")))
                .build();

        String yaml = RunPlanYaml.write(plan);
        RunPlan back = RunPlanYaml.parse(yaml, "plan.yaml");

        assertThat(back).isEqualTo(plan);
        assertThat(RunPlanYaml.write(back)).isEqualTo(yaml);
        // One unit for the warm-up: 4 s at 12.5 records/s is 50 records per detector.
        assertThat(back.load().warmupRecords()).isEqualTo(150);
        assertThat(yaml)
                .contains("warmup_records: 150")
                .contains("steady_after: 1.5s")
                .contains("step_duration: 25s")
                .contains("start_timeout: 15m")
                .contains("run: sweep")
                .contains("mode: standalone");
    }

    @Test
    void anExistingClusterAndBrokerReadBackEqual() {
        RunPlan plan = RunPlan.builder()
                .stack(StackPlan.builder()
                        .broker(StackPlan.Broker.builder()
                                .bootstrapServers("kafka-1:9092,kafka-2:9092")
                                .kafkaConfig(Path.of("client.properties"))
                                .build())
                        .flink(StackPlan.Flink.builder()
                                .rest(URI.create("http://rt-vm:8081"))
                                .taskmanagerPid(4242L)
                                .build()))
                .budget(BudgetPlan.builder()
                        .backend(BudgetPlan.Backend.LINUX_DEADLINE)
                        .vcpus(1)
                        .budgetUs(3_000L)
                        .periodUs(10_000L)
                        .threads("^(Source: |route)"))
                .phases(PhasePlan.builder().run(PhasePlan.Run.FLOOR_THEN_JOB))
                .build();
        assertThat(RunPlanYaml.parse(RunPlanYaml.write(plan), "plan.yaml")).isEqualTo(plan);
        RunPlan xen = RunPlan.builder()
                .budget(BudgetPlan.builder()
                        .backend(BudgetPlan.Backend.XEN_RTDS)
                        .xenRow("rtds-76750")
                        .rowCommand("docker/apply-row.sh"))
                .build();
        assertThat(RunPlanYaml.parse(RunPlanYaml.write(xen), "plan.yaml")).isEqualTo(xen);
    }

    @Test
    void whatAFileLeavesOutTakesTheDefaults() {
        RunPlan plan = RunPlanYaml.parse("load:\n  rate_hz: 5\n", "plan.yaml");
        assertThat(plan.stack()).isEqualTo(StackPlan.builder().build());
        assertThat(plan.load().records()).isEqualTo(20_000);
        // The default warm-up, 60 s, at the file's rate.
        assertThat(plan.load().warmupRecords()).isEqualTo(60 * 5 * 6);
        assertThat(plan.load().steadyAfter()).isZero();
        assertThat(plan.phases().run()).isEqualTo(PhasePlan.Run.ONE);
        assertThat(plan.job().startTimeout()).isEqualTo(JobPlan.DEFAULT_START_TIMEOUT);
        assertThat(RunPlanYaml.parse("", "empty.yaml")).isEqualTo(RunPlan.defaults());
        // No warm-up: the steady state starts after the cut runs without one always had.
        assertThat(RunPlanYaml.parse("load: {warmup_records: 0}", "plan.yaml")
                        .load()
                        .steadyAfter())
                .isEqualTo(Duration.ofSeconds(120));
    }

    @Test
    void aDistrictReadsBackEqualAndSizesItsLoadByItsDetectors() {
        RunPlan plan = RunPlan.builder()
                .load(LoadPlan.builder()
                        .workload(Workload.DISTRICT)
                        .district(DistrictPlan.builder()
                                .detectors(150)
                                .seed(7)
                                .days(2)
                                .dir(Path.of("results/districts/mine"))
                                .requestsPerSecond(30)
                                .build())
                        .records(3_000)
                        .warmup(Duration.ofSeconds(6)))
                .build();

        String yaml = RunPlanYaml.write(plan);
        RunPlan back = RunPlanYaml.parse(yaml, "plan.yaml");

        assertThat(back).isEqualTo(plan);
        assertThat(RunPlanYaml.write(back)).isEqualTo(yaml);
        assertThat(yaml)
                .contains("workload: district")
                .contains("requests_per_second: 30.0")
                .contains("dir: results/districts/mine");
        LoadPlan load = back.load();
        assertThat(load.detectors()).as("every detector of the district").isEmpty();
        // The default rate: the 5-minute cadence 100 times faster, a reading every 3 s per detector.
        assertThat(load.rateHz()).isEqualTo(1 / 3.0);
        // 6 s at 1/3 records/s is 2 records per detector, of 150.
        assertThat(load.warmupRecords()).isEqualTo(300);
        // 3,000 readings of 150 detectors at 1/3 each take 60 s: 1,800 requests at 30/s; the warm-up's 6 s, 180.
        assertThat(load.requestRecords()).isEqualTo(1_800);
        assertThat(load.requestWarmupRecords()).isEqualTo(180);
    }

    @Test
    void theStudyStaysTheDefaultAndADistrictTakesItsDefaults() {
        assertThat(RunPlan.defaults().load().workload()).isEqualTo(Workload.STUDY);
        assertThat(RunPlan.defaults().load().district()).isNull();
        assertThat(RunPlan.defaults().load().requestRecords()).isZero();
        LoadPlan district =
                RunPlanYaml.parse("load: {workload: district}\n", "plan.yaml").load();
        assertThat(district.district()).isEqualTo(DistrictPlan.builder().build());
        assertThat(district.district().detectors()).isEqualTo(4_800);
        assertThat(district.district().requestsPerSecond()).isEqualTo(1_000);
        assertThat(district.district().dir()).as("generated into the cache").isNull();
        // 4,800 detectors at a reading every 3 s: 1,600 readings/s.
        assertThat(district.rateHz() * district.detectorCount())
                .isCloseTo(1_600, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aDistrictWithoutRequestsSendsItsReadingsAlone() {
        LoadPlan readingsAlone = RunPlanYaml.parse(
                        "load:\n  workload: district\n  district: {detectors: 150, requests_per_second: 0}\n"
                                + "  records: 3000\n",
                        "plan.yaml")
                .load();

        assertThat(readingsAlone.sendsRequests()).isFalse();
        assertThat(readingsAlone.requestRecords()).isZero();
        assertThat(readingsAlone.requestWarmupRecords()).isZero();
    }

    @Test
    void aDistrictsRefusalsNameTheirKeys() {
        assertThatThrownBy(() -> RunPlanYaml.parse("load:\n  workload: city\n", "plan.yaml"))
                .hasMessage("plan.yaml: line 2, column 3: --workload (load.workload) must be study or district, "
                        + "got 'city'");
        assertThatThrownBy(() ->
                        RunPlanYaml.parse("load:\n  workload: district\n  district:\n    detectors: 12\n", "plan.yaml"))
                .hasMessage("plan.yaml: line 4, column 5: --detectors (load.district.detectors) must be >= 100 "
                        + "for a generated district, got 12");
        assertThatThrownBy(() -> RunPlanYaml.parse(
                        "load:\n  workload: district\n  district:\n    requests_per_second: -1\n", "plan.yaml"))
                .hasMessageContaining("line 4, column 5: --requests (load.district.requests_per_second) must be >= 0");
        assertThatThrownBy(
                        () -> RunPlanYaml.parse("load:\n  workload: district\n  district:\n    days: 0\n", "plan.yaml"))
                .hasMessageContaining("load.district.days must be >= 1, got 0");
        assertThatThrownBy(() ->
                        RunPlanYaml.parse("load:\n  workload: district\n  district:\n    seeds: 3\n", "plan.yaml"))
                .hasMessageStartingWith("plan.yaml: line 4, column 5: load.district.seeds: unknown key");
        assertThatThrownBy(() -> RunPlanYaml.parse("load:\n  district:\n    detectors: 200\n", "plan.yaml"))
                .hasMessageContaining("load.district is for the district workload: set load.workload: district");
        assertThatThrownBy(() -> RunPlanYaml.parse("load:\n  workload: district\n  detectors: [1, 2]\n", "plan.yaml"))
                .hasMessageContaining("--detectors (load.detectors) names the study's detectors");
    }

    @Test
    void anUnknownKeyIsNamedWithItsLineAndColumn() {
        String yaml = "stack:\n  parallelism: 1\n  brokers: 3\n";
        assertThatThrownBy(() -> RunPlanYaml.parse(yaml, "plan.yaml"))
                .isInstanceOf(RunPlanYaml.BadPlanFile.class)
                .hasMessageStartingWith("plan.yaml: line 3, column 3: stack.brokers: unknown key; known keys here: [")
                .hasMessageContaining("parallelism");
        // The warm-up is in records only: a builder's time is no key of the file.
        assertThatThrownBy(() -> RunPlanYaml.parse("load:\n  warmup: 60s\n", "plan.yaml"))
                .hasMessageStartingWith("plan.yaml: line 2, column 3: load.warmup: unknown key; known keys here: [")
                .hasMessageContaining("warmup_records");
    }

    @Test
    void aWrongTypeIsNamedWithItsLineAndColumn() {
        assertThatThrownBy(() -> RunPlanYaml.parse("load:\n  records: many\n", "plan.yaml"))
                .hasMessage("plan.yaml: line 2, column 3: load.records: expected an integer, got 'many'");
        assertThatThrownBy(() -> RunPlanYaml.parse("load:\n  steady_after: soon\n", "plan.yaml"))
                .hasMessageStartingWith("plan.yaml: line 2, column 3: load.steady_after: 'soon' is not a duration");
        assertThatThrownBy(() -> RunPlanYaml.parse("phases:\n  sweep:\n    rates: [1000, x]\n", "plan.yaml"))
                .hasMessageStartingWith("plan.yaml: line 3, column ")
                .hasMessageContaining("phases.sweep.rates[1]: expected a number");
    }

    @Test
    void aBadValueIsNamedWithTheKeyAndItsPlace() {
        assertThatThrownBy(() -> RunPlanYaml.parse("load:\n  rate_hz: 10\n  warmup_records: -1\n", "plan.yaml"))
                .hasMessage("plan.yaml: line 3, column 3: --warmup-records (load.warmup_records) must be >= 0, got -1");
        assertThatThrownBy(() -> RunPlanYaml.parse("stack:\n  flink:\n    mode: docker\n", "plan.yaml"))
                .hasMessage("plan.yaml: line 3, column 5: --flink (stack.flink.mode) must be standalone, child, "
                        + "in-process, got docker");
        assertThatThrownBy(() -> RunPlanYaml.parse(
                        "stack:\n  broker:\n    bootstrap_servers: k:9092\n    secure: true\n", "plan.yaml"))
                .hasMessageStartingWith(
                        "plan.yaml: line 4, column 5: --secure (stack.broker.secure) is for the broker");
        assertThatThrownBy(() -> RunPlanYaml.parse("job:\n  start_timeout: 0s\n", "plan.yaml"))
                .hasMessage("plan.yaml: line 2, column 3: --job-start-timeout (job.start_timeout) must be positive, "
                        + "e.g. 120s or 10m");
        assertThatThrownBy(() -> RunPlanYaml.parse("phases:\n  run: sweep\n", "plan.yaml"))
                .hasMessageContaining("--sweep (phases.sweep.rates) is required for a sweep");
    }

    @Test
    void notYamlIsRefusedWithItsPlace() {
        assertThatThrownBy(() -> RunPlanYaml.parse("load: [\n", "plan.yaml"))
                .isInstanceOf(RunPlanYaml.BadPlanFile.class)
                .hasMessageStartingWith("plan.yaml: line ");
        assertThatThrownBy(() -> RunPlanYaml.read(Path.of("no-such-plan.yaml")))
                .hasMessage("no-such-plan.yaml: no such plan file");
    }

    @Test
    void aBudgetIsCheckedAgainstItsBackendAndTheKernelsLimits() {
        assertThatThrownBy(() -> RunPlanYaml.parse(
                        "budget:\n  backend: linux-cgroup\n  budget_us: 500\n  period_us: 100000\n", "plan.yaml"))
                .hasMessage("plan.yaml: line 3, column 3: budget.budget_us: 1000 us..period_us is required (per CPU), "
                        + "got 500");
        assertThatThrownBy(() -> RunPlanYaml.parse("budget: {backend: none, budget_us: 5000}\n", "plan.yaml"))
                .hasMessageContaining("budget.backend: none takes no budget_us, period_us or xen_row");
        assertThatThrownBy(() -> RunPlanYaml.parse("budget: {backend: xen-rtds}\n", "plan.yaml"))
                .hasMessageContaining("budget.xen_row: a row name of xen-configs/study-rows.tsv");
        assertThatThrownBy(() -> RunPlanYaml.parse(
                        "budget: {backend: linux-deadline, budget_us: 5, period_us: 10000, cpus: '1'}\n", "plan.yaml"))
                .hasMessageContaining("budget.cpus: only linux-cgroup budgets pin to cpus");
        assertThatThrownBy(() -> RunPlanYaml.parse(
                        "budget: {backend: linux-cgroup, budget_us: 5000, period_us: 100000}\n"
                                + "phases: {run: sweep, sweep: {rates: [100]}}\n",
                        "plan.yaml"))
                .hasMessageContaining("a sweep runs without a budget");
        assertThat(RunPlanYaml.parse("budget: {backend: linux-cgroup, budget_us: 76750, period_us: 100000}", "p")
                        .budget()
                        .utilization())
                .isEqualTo(0.7675);
    }

    @Test
    void partsRefuseWhatCannotRunWhenBuilt() {
        assertThatThrownBy(() -> StackPlan.builder()
                        .broker(StackPlan.Broker.builder()
                                .bootstrapServers("k:9092")
                                .build())
                        .pins(Map.of("broker", "0"))
                        .build())
                .isInstanceOf(PlanException.class)
                .hasMessageContaining("--pin (stack.pins): broker: the broker at --bootstrap-servers is not the run's");
        assertThatThrownBy(() -> StackPlan.Flink.builder()
                        .mode(StackPlan.Flink.Mode.CHILD)
                        .taskmanagers(2)
                        .build())
                .hasMessage("--taskmanagers (stack.flink.taskmanagers) and --ha are for --flink standalone");
        assertThatThrownBy(() -> RunPlan.builder()
                        .job(JobPlan.builder().identity(true))
                        .phases(PhasePlan.builder().run(PhasePlan.Run.FLOOR_THEN_JOB))
                        .build())
                .hasMessageContaining("goes without --identity");
        assertThatThrownBy(() -> LoadPlan.builder().rateHz(0).build())
                .hasMessage("--rate (load.rate_hz) must be in (0, 1000000] records/s per detector, got 0.0");
    }
}
