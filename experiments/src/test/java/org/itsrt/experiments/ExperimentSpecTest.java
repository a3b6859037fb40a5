package org.itsrt.experiments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.experiments.spec.SpecException;
import org.itsrt.pipeline.budget.Budgets;
import org.itsrt.pipeline.plan.BudgetPlan;
import org.itsrt.pipeline.plan.PhasePlan;
import org.itsrt.pipeline.plan.StackPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentSpecTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));
    private static final Path BUNDLED = ROOT.resolve("experiments");

    @Test
    void theAccuracyReferenceIsOneOfTheRows(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("degrade.yaml");
        String rows = "rows:\n  - {label: plain}\n  - {label: degrade, job: {degrade: true}}\n";
        Files.writeString(file, "name: degrade\nplan: {load: {records: 10}}\naccuracy_reference: plain\n" + rows);
        assertThat(ExperimentSpec.read(file).accuracyReference()).isEqualTo("plain");
        assertThat(ExperimentSpec.read(file)
                        .withSlo(new ExperimentSpec.Slo(1, 2, 3))
                        .accuracyReference())
                .isEqualTo("plain");

        Files.writeString(file, "name: degrade\nplan: {load: {records: 10}}\naccuracy_reference: plane\n" + rows);
        assertThatThrownBy(() -> ExperimentSpec.read(file))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("accuracy_reference: the label of one of the rows")
                .hasMessageContaining("got plane");
    }

    @Test
    void everyBundledExperimentIsValid() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(BUNDLED)) {
            files = list.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(files)
                .extracting(p -> p.getFileName().toString())
                .contains(
                        "linux-budgets.yaml",
                        "linux-budgets-quick.yaml",
                        "study-rtds.yaml",
                        "study-credit.yaml",
                        "study-credit2.yaml");
        for (Path file : files) {
            ExperimentSpec spec = ExperimentSpec.read(file);
            assertThat(spec.name())
                    .as(file.toString())
                    .isEqualTo(file.getFileName().toString().replace(".yaml", ""));
            for (ExperimentSpec.Row row : spec.rows()) {
                assertThat(Budgets.describe(row.budget())).isNotBlank();
                // Every bundled file runs its rows as the runner always did: the cluster in one child JVM.
                assertThat(row.plan().stack().flink().mode())
                        .as(file.toString())
                        .isEqualTo(StackPlan.Flink.Mode.CHILD);
                assertThat(row.plan().phases().run()).isEqualTo(PhasePlan.Run.ONE);
            }
        }
    }

    @Test
    void theXenExperimentsNameRowsOfTheXenRowsFile() throws IOException {
        Set<String> xenRows;
        try (Stream<String> lines = Files.lines(ROOT.resolve("xen-configs/study-rows.tsv"))) {
            xenRows = lines.filter(l -> !l.startsWith("#") && !l.isBlank())
                    .map(l -> l.split("\t")[0])
                    .collect(Collectors.toSet());
        }
        for (String name : List.of("study-rtds", "study-credit", "study-credit2")) {
            ExperimentSpec spec = ExperimentSpec.read(BUNDLED.resolve(name + ".yaml"));
            assertThat(spec.backend().yamlName).startsWith("xen-");
            assertThat(spec.rows()).allSatisfy(row -> assertThat(xenRows).contains(row.xenRow()));
            // The same rows run on the Docker Compose stack: docker/apply-row.sh applies each from its
            // override file.
            assertThat(spec.rows()).allSatisfy(row -> assertThat(ROOT.resolve("docker/rows/" + row.xenRow() + ".yaml"))
                    .isRegularFile());
            assertThat(spec.rows()).allSatisfy(row -> assertThat(Budgets.describe(row.budget()))
                    .contains("xen-configs/apply-row.sh " + row.xenRow() + " (in dom0")
                    .contains("docker/apply-row.sh " + row.xenRow() + " on the Docker Compose stack"));
        }
        // Table 4's six budgets, in the study's order.
        assertThat(ExperimentSpec.read(BUNDLED.resolve("study-rtds.yaml")).rows())
                .extracting(ExperimentSpec.Row::label)
                .containsExactly("rtds-100000", "rtds-80000", "rtds-77500", "rtds-76750", "rtds-76000", "rtds-75000");
    }

    @Test
    void theCgroupTwinOfTheRtdsTableHasItsRowsLoadAndRepetitions() {
        ExperimentSpec xen = ExperimentSpec.read(BUNDLED.resolve("study-rtds.yaml"));
        ExperimentSpec cgroup = ExperimentSpec.read(BUNDLED.resolve("study-rtds-cgroup.yaml"));
        assertThat(cgroup.backend()).isEqualTo(BudgetPlan.Backend.LINUX_CGROUP);
        assertThat(cgroup.rows())
                .extracting(ExperimentSpec.Row::label)
                .isEqualTo(xen.rows().stream().map(ExperimentSpec.Row::label).toList());
        // Each row's budget is the one its Xen row names: rtds-76750 is 76750 us of every 100 ms.
        assertThat(cgroup.rows()).allSatisfy(row -> {
            assertThat(row.budgetUs()).isEqualTo(Long.parseLong(row.label().replace("rtds-", "")));
            assertThat(row.periodUs()).isEqualTo(100_000L);
        });
        assertThat(cgroup.vcpus()).isEqualTo(xen.vcpus());
        assertThat(cgroup.load()).isEqualTo(xen.load());
        assertThat(cgroup.repetitions()).isEqualTo(xen.repetitions());
        assertThat(cgroup.slo()).isEqualTo(xen.slo());
    }

    @Test
    void theCgroupTwinOfTheCreditTablesCapsAsXenDoes() {
        ExperimentSpec credit = ExperimentSpec.read(BUNDLED.resolve("study-credit.yaml"));
        ExperimentSpec credit2 = ExperimentSpec.read(BUNDLED.resolve("study-credit2.yaml"));
        ExperimentSpec cgroup = ExperimentSpec.read(BUNDLED.resolve("study-credit-cgroup.yaml"));
        assertThat(cgroup.backend()).isEqualTo(BudgetPlan.Backend.LINUX_CGROUP);
        List<String> xenRows = new java.util.ArrayList<>();
        credit.rows().forEach(row -> xenRows.add(row.label()));
        credit2.rows().forEach(row -> xenRows.add(row.label()));
        assertThat(cgroup.rows()).extracting(ExperimentSpec.Row::label).isEqualTo(xenRows);
        // A cap is a share of one CPU over the domain's vCPUs: 153 on two vCPUs is 76.5 % of each.
        assertThat(cgroup.rows().get(1).budgetUs()
                        * cgroup.vcpus()
                        * 100
                        / cgroup.rows().get(1).periodUs())
                .isEqualTo(153);
        assertThat(cgroup.rows().get(0).budgetUs())
                .isEqualTo(cgroup.rows().get(0).periodUs());
        assertThat(cgroup.rows().get(2).budgetUs())
                .isEqualTo(cgroup.rows().get(2).periodUs());
        assertThat(cgroup.vcpus()).isEqualTo(credit.vcpus());
        assertThat(cgroup.load()).isEqualTo(credit.load()).isEqualTo(credit2.load());
        assertThat(cgroup.repetitions()).isEqualTo(credit.repetitions());
        assertThat(cgroup.slo()).isEqualTo(credit.slo());
    }

    @Test
    void theLinuxBudgetsStartWithTheStudysRows() {
        ExperimentSpec spec = ExperimentSpec.read(BUNDLED.resolve("linux-budgets.yaml"));
        assertThat(spec.vcpus()).isEqualTo(2);
        assertThat(spec.rows().get(0).label()).isEqualTo("100000/100000");
        assertThat(spec.rows().get(1).label()).isEqualTo("76750/100000");
        assertThat(Budgets.describe(spec.rows().get(1).budget())).contains("cfs_quota_us 153500, cfs_period_us 100000");
    }

    @Test
    void theTailFileRunsTheFloorAndTheJobInTheSameRounds() {
        ExperimentSpec spec = ExperimentSpec.read(BUNDLED.resolve("tail.yaml"));
        assertThat(spec.rows())
                .extracting(ExperimentSpec.Row::label)
                .containsExactly("identity floor", "job", "job bf16");
        assertThat(spec.rows()).extracting(ExperimentSpec.Row::identity).containsExactly(true, false, false);
        assertThat(spec.rows().get(2).jobOptions()).containsEntry("engine", "kernel-bf16");
        assertThat(spec.rows().get(1).jobOptions()).containsEntry("engine", "kernel");
        // The warm-up in records: 60 s at the study's load.
        assertThat(spec.load().warmupRecords()).isEqualTo(3_600);
        assertThat(spec.warmupDescription()).isEqualTo("1m warm-up (3,600 records), steady state from 0s");
        assertThat(spec.repetitions()).isEqualTo(3);
    }

    @Test
    void theIdlePollFileRunsEachRowWithAndWithoutTheRequest() {
        ExperimentSpec spec = ExperimentSpec.read(BUNDLED.resolve("tail-idle-poll.yaml"));
        assertThat(spec.rows())
                .extracting(ExperimentSpec.Row::identity, ExperimentSpec.Row::cpuLatencyUs)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(true, null),
                        org.assertj.core.groups.Tuple.tuple(true, 0),
                        org.assertj.core.groups.Tuple.tuple(false, null),
                        org.assertj.core.groups.Tuple.tuple(false, 0));
        assertThat(spec.repetitions()).isEqualTo(3);
    }

    @Test
    void aRowsCpuLatencyRequestIsPlannedAndMustNotBeNegative(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("poll.yaml");
        Files.writeString(
                file,
                "name: poll\nplan: {load: {records: 10}}\nrows:\n"
                        + "  - {label: halting}\n"
                        + "  - {label: polling, stack: {cpu_latency_us: 0}}\n");
        ExperimentSpec spec = ExperimentSpec.read(file);
        assertThat(spec.rows().get(0).cpuLatencyUs()).isNull();
        assertThat(Budgets.describeWithJob(spec.rows().get(0).plan())).isEqualTo("nothing (baseline); the job");
        assertThat(Budgets.describeWithJob(spec.rows().get(1).plan()))
                .isEqualTo("nothing (baseline); this host's CPU latency request held at 0 us (idle CPUs poll); "
                        + "the job");
        Files.writeString(file, "name: poll\nplan: {load: {records: 10}}\nrows: [{stack: {cpu_latency_us: -1}}]\n");
        assertThatThrownBy(() -> ExperimentSpec.read(file))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining(file + ": line 3, column 17: rows[0]: --cpu-latency-us (stack.cpu_latency_us)")
                .hasMessageContaining(">= 0");
    }

    @Test
    void aRowsJobOptionsGoOverTheFilesAndOnlyForThatRow(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("levers.yaml");
        Files.writeString(
                file,
                "name: levers\nplan: {load: {records: 10}, job: {engine: kernel, max_batch: 8}}\nrows:\n"
                        + "  - {label: fp32}\n"
                        + "  - {label: bf16, job: {engine: kernel-bf16}}\n");
        ExperimentSpec spec = ExperimentSpec.read(file);
        assertThat(spec.rows().get(0).jobOptions())
                .containsExactly(Map.entry("engine", "kernel"), Map.entry("max-batch", "8"));
        assertThat(spec.rows().get(1).jobOptions())
                .containsExactly(Map.entry("engine", "kernel-bf16"), Map.entry("max-batch", "8"));
        assertThat(Budgets.describeWithJob(spec.rows().get(1).plan()))
                .isEqualTo("nothing (baseline); the job with {engine=kernel-bf16, max-batch=8}");
        Files.writeString(file, "name: levers\nplan: {load: {records: 10}}\nrows: [{job: fast}]\n");
        assertThatThrownBy(() -> ExperimentSpec.read(file))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("rows[0].job");
    }

    @Test
    void anIdentityRowIsABooleanWithItsOwnDefaultLabel(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("floor.yaml");
        Files.writeString(
                file,
                "name: floor\nplan: {load: {records: 10}, budget: {backend: linux-cgroup}}\nrows:\n"
                        + "  - {budget: {budget_us: 50000, period_us: 100000}, job: {identity: true}}\n"
                        + "  - {budget: {budget_us: 50000, period_us: 100000}}\n"
                        + "  - {job: {identity: true}, label: floor}\n");
        assertThatThrownBy(() -> ExperimentSpec.read(file))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("rows[2]: budget.period_us: 1000..1000000 us is required for linux-cgroup");
        Files.writeString(
                file,
                "name: floor\nplan: {load: {records: 10}, budget: {backend: linux-cgroup}}\nrows:\n"
                        + "  - {budget: {budget_us: 50000, period_us: 100000}, job: {identity: true}}\n"
                        + "  - {budget: {budget_us: 50000, period_us: 100000}}\n");
        assertThat(ExperimentSpec.read(file).rows())
                .extracting(ExperimentSpec.Row::label, ExperimentSpec.Row::identity)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("50000/100000 identity", true),
                        org.assertj.core.groups.Tuple.tuple("50000/100000", false));
        Files.writeString(file, "name: floor\nplan: {load: {records: 10}}\nrows: [{job: {identity: often}}]\n");
        assertThatThrownBy(() -> ExperimentSpec.read(file))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("identity");
    }

    @Test
    void aBadFileNamesTheFileAndEveryFieldThatIsWrong(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name: bad",
                        "repetitions: 0",
                        "plan:",
                        "  budget: {backend: linux-cgroup}",
                        "  load: {records: 0}",
                        "rows:",
                        "  - budget: {budget_us: 200000, period_us: 100000}",
                        "  - budget: {budget_us: 5000, period_us: 500}",
                        "  - budget: {budget_us: 5000, period_us: 100000, threads: 'x'}",
                        ""));
        assertThatThrownBy(() -> ExperimentSpec.read(file))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining(file + ": repetitions: must be >= 1")
                // Each row names its first problem, where the file has it: the row's key, else the base plan's.
                .hasMessageContaining(file + ": line 7, column 14: rows[0]: budget.budget_us: 1000 us..period_us")
                .hasMessageContaining(file + ": line 8, column 31: rows[1]: budget.period_us: 1000..1000000 us")
                .hasMessageContaining(file + ": line 9, column 50: rows[2]: budget.threads: only linux-deadline");
        Files.writeString(file, "name: bad\nplan:\n  load: {records: 0}\nrows: [{}]\n");
        assertThatThrownBy(() -> ExperimentSpec.read(file))
                .hasMessageContaining(file + ": line 3, column 10: plan: --records (load.records) must be >= 1, got 0");
    }

    private static ExperimentSpec readYaml(Path dir, String name, String plan) throws IOException {
        Path file = dir.resolve(name + ".yaml");
        Files.writeString(file, "name: " + name + "\nrows: [{}]\nplan:\n  load: {records: 10" + plan + "}\n");
        return ExperimentSpec.read(file);
    }

    @Test
    void theWarmupIsInRecordsAndTheSteadyStateCutIsApart(@TempDir Path dir) throws IOException {
        ExperimentSpec byDefault = readYaml(dir, "default", "");
        assertThat(byDefault.load().warmupRecords()).isEqualTo(3_600);
        assertThat(byDefault.load().steadyAfter()).isZero();
        ExperimentSpec cut = readYaml(dir, "cut", ", rate_hz: 5, warmup_records: 900, steady_after: 1m");
        assertThat(cut.load().warmupDuration()).isEqualTo(java.time.Duration.ofSeconds(30));
        assertThat(cut.warmupDescription()).isEqualTo("30s warm-up (900 records), steady state from 1m");
        ExperimentSpec none = readYaml(dir, "none", ", warmup_records: 0, steady_after: 0s");
        assertThat(none.load().warmupRecords()).isZero();
        assertThat(none.warmupDescription()).isEqualTo("no warm-up, steady state from 0s");
    }

    @Test
    void aWarmupAsATimeOrOutOfRangeIsNamed(@TempDir Path dir) throws IOException {
        // One unit in a plan: a warm-up time is no key of the file.
        assertThatThrownBy(() -> readYaml(dir, "time", ", warmup: 30s"))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("time.yaml: line 4, column 23: plan.load.warmup: unknown key");
        assertThatThrownBy(() -> readYaml(dir, "negative", ", warmup_records: -1"))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("--warmup-records (load.warmup_records) must be >= 0, got -1");
        assertThatThrownBy(() -> readYaml(dir, "later", ", steady_after: later"))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("plan.load.steady_after: 'later' is not a duration");
        assertThatThrownBy(() -> readYaml(dir, "typed", ", warmup_records: many"))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("plan.load.warmup_records: expected an integer");
    }

    @Test
    void anUnknownKeyOrAWrongTypeNamesTheLineAndColumn(@TempDir Path dir) throws IOException {
        Path unknownTop = dir.resolve("unknown-top.yaml");
        Files.writeString(unknownTop, "name: t\nrows: [{}]\nrepetition: 3\n");
        assertThatThrownBy(() -> ExperimentSpec.read(unknownTop))
                .isInstanceOf(SpecException.class)
                .hasMessageStartingWith(unknownTop + ": line 3, column 1: repetition: unknown key; known keys here: [")
                .hasMessageContaining("repetitions");

        Path unknownInRow = dir.resolve("unknown-row.yaml");
        Files.writeString(
                unknownInRow,
                "name: t\nplan: {budget: {backend: linux-cgroup}}\nrows:\n  - budget:\n      budget_us: 5000\n"
                        + "      period_us: 100000\n      budgetus: 4000\n");
        assertThatThrownBy(() -> ExperimentSpec.read(unknownInRow))
                .isInstanceOf(SpecException.class)
                .hasMessageStartingWith(unknownInRow + ": line 7, column 7: rows[0].budget.budgetus: unknown key");

        Path wrongType = dir.resolve("wrong-type.yaml");
        Files.writeString(wrongType, "name: t\nrows: [{}]\nrepetitions: many\n");
        assertThatThrownBy(() -> ExperimentSpec.read(wrongType))
                .isInstanceOf(SpecException.class)
                .hasMessageStartingWith(wrongType + ": line 3, column 1: repetitions: expected an integer; ");

        Path notAList = dir.resolve("not-a-list.yaml");
        Files.writeString(notAList, "name: t\nrows: 3\n");
        assertThatThrownBy(() -> ExperimentSpec.read(notAList))
                .isInstanceOf(SpecException.class)
                .hasMessageStartingWith(notAList + ": line 2, column 1: rows: expected a list; ");

        Path notYaml = dir.resolve("not-yaml.yaml");
        Files.writeString(notYaml, "name: t\nrows: [{}\n");
        assertThatThrownBy(() -> ExperimentSpec.read(notYaml))
                .isInstanceOf(SpecException.class)
                .hasMessageStartingWith(notYaml + ": line ")
                .hasMessageContaining("not valid YAML");
    }

    @Test
    void unknownFieldsAndBackendsAreRefused(@TempDir Path dir) throws IOException {
        Path typo = dir.resolve("typo.yaml");
        Files.writeString(typo, "name: t\nrows: [{}]\nrepetition: 3\n");
        assertThatThrownBy(() -> ExperimentSpec.read(typo))
                .hasMessageContaining(typo.toString())
                .hasMessageContaining("repetition");
        Path backend = dir.resolve("backend.yaml");
        Files.writeString(backend, "name: t\nplan: {budget: {backend: xen-rt}}\nrows: [{}]\n");
        assertThatThrownBy(() -> ExperimentSpec.read(backend)).hasMessageContaining("budget.backend: one of");
        Path mixed = dir.resolve("mixed.yaml");
        Files.writeString(
                mixed,
                "name: t\nrows:\n  - {}\n  - budget: {backend: linux-cgroup, budget_us: 5000, period_us: 100000}\n");
        assertThatThrownBy(() -> ExperimentSpec.read(mixed))
                .hasMessageContaining("rows[1].budget: every row of an experiment has one backend");
        Path sweep = dir.resolve("sweep.yaml");
        Files.writeString(sweep, "name: t\nrows: [{phases: {run: floor-then-job}}]\n");
        assertThatThrownBy(() -> ExperimentSpec.read(sweep)).hasMessageContaining("rows[0].phases: a row is one run");
        assertThatThrownBy(() -> ExperimentSpec.read(dir.resolve("missing.yaml")))
                .hasMessageContaining("missing.yaml: no such experiment file");
    }
}
