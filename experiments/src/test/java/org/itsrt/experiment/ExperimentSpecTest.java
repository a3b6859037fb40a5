package org.itsrt.experiment;

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
import org.itsrt.experiment.backend.RowBackend;
import org.itsrt.experiment.spec.ExperimentSpec;
import org.itsrt.experiment.spec.SpecException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentSpecTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));
    private static final Path BUNDLED = ROOT.resolve("experiments");

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
                assertThat(RowBackend.plan(spec, row)).isNotBlank();
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
            assertThat(spec.rows()).allSatisfy(row -> assertThat(RowBackend.plan(spec, row))
                    .contains("xen-configs/apply-row.sh " + row.xenRow() + " (in dom0")
                    .contains("docker/apply-row.sh " + row.xenRow() + " on the Docker Compose stack"));
        }
        // Table 4's six budgets, in the study's order.
        assertThat(ExperimentSpec.read(BUNDLED.resolve("study-rtds.yaml")).rows())
                .extracting(ExperimentSpec.Row::label)
                .containsExactly("rtds-100000", "rtds-80000", "rtds-77500", "rtds-76750", "rtds-76000", "rtds-75000");
    }

    @Test
    void theLinuxBudgetsStartWithTheStudysRows() {
        ExperimentSpec spec = ExperimentSpec.read(BUNDLED.resolve("linux-budgets.yaml"));
        assertThat(spec.vcpus()).isEqualTo(2);
        assertThat(spec.rows().get(0).label()).isEqualTo("100000/100000");
        assertThat(spec.rows().get(1).label()).isEqualTo("76750/100000");
        assertThat(RowBackend.plan(spec, spec.rows().get(1))).contains("cfs_quota_us 153500, cfs_period_us 100000");
    }

    @Test
    void theTailFileRunsTheFloorAndTheJobInTheSameRounds() {
        ExperimentSpec spec = ExperimentSpec.read(BUNDLED.resolve("tail.yaml"));
        assertThat(spec.rows())
                .extracting(ExperimentSpec.Row::label)
                .containsExactly("identity floor", "job", "job bf16");
        assertThat(spec.rows()).extracting(ExperimentSpec.Row::identity).containsExactly(true, false, false);
        assertThat(spec.rows().get(2).jobOptions(spec.job())).containsEntry("engine", "kernel-bf16");
        assertThat(spec.rows().get(1).jobOptions(spec.job())).containsEntry("engine", "kernel");
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
                "name: poll\nbackend: none\nrecords: 10\nrows:\n"
                        + "  - {label: halting}\n"
                        + "  - {label: polling, cpu_latency_us: 0}\n");
        ExperimentSpec spec = ExperimentSpec.read(file);
        assertThat(spec.rows().get(0).cpuLatencyUs()).isNull();
        assertThat(RowBackend.planAndJob(spec, spec.rows().get(0))).isEqualTo("nothing (baseline); the job");
        assertThat(RowBackend.planAndJob(spec, spec.rows().get(1)))
                .isEqualTo("nothing (baseline); this host's CPU latency request held at 0 us (idle CPUs poll); "
                        + "the job");
        Files.writeString(file, "name: poll\nbackend: none\nrecords: 10\nrows: [{cpu_latency_us: -1}]\n");
        assertThatThrownBy(() -> ExperimentSpec.read(file))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("rows[0].cpu_latency_us")
                .hasMessageContaining(">= 0");
    }

    @Test
    void aRowsJobOptionsGoOverTheFilesAndOnlyForThatRow(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("levers.yaml");
        Files.writeString(
                file,
                "name: levers\nbackend: none\nrecords: 10\njob: {engine: kernel, max-batch: 8}\nrows:\n"
                        + "  - {label: fp32}\n"
                        + "  - {label: bf16, job: {engine: kernel-bf16}}\n");
        ExperimentSpec spec = ExperimentSpec.read(file);
        assertThat(spec.rows().get(0).jobOptions(spec.job()))
                .containsExactly(Map.entry("engine", "kernel"), Map.entry("max-batch", "8"));
        assertThat(spec.rows().get(1).jobOptions(spec.job()))
                .containsExactly(Map.entry("engine", "kernel-bf16"), Map.entry("max-batch", "8"));
        assertThat(RowBackend.planAndJob(spec, spec.rows().get(1)))
                .isEqualTo("nothing (baseline); the job with {engine=kernel-bf16, max-batch=8}");
        Files.writeString(file, "name: levers\nbackend: none\nrecords: 10\nrows: [{job: fast}]\n");
        assertThatThrownBy(() -> ExperimentSpec.read(file))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("rows[0].job");
    }

    @Test
    void anIdentityRowIsABooleanWithItsOwnDefaultLabel(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("floor.yaml");
        Files.writeString(
                file,
                "name: floor\nbackend: linux-cgroup\nrecords: 10\nrows:\n"
                        + "  - {budget_us: 50000, period_us: 100000, identity: true}\n"
                        + "  - {budget_us: 50000, period_us: 100000}\n"
                        + "  - {identity: true, label: floor}\n");
        assertThatThrownBy(() -> ExperimentSpec.read(file))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("rows[2].period_us");
        Files.writeString(
                file,
                "name: floor\nbackend: linux-cgroup\nrecords: 10\nrows:\n"
                        + "  - {budget_us: 50000, period_us: 100000, identity: true}\n"
                        + "  - {budget_us: 50000, period_us: 100000}\n");
        assertThat(ExperimentSpec.read(file).rows())
                .extracting(ExperimentSpec.Row::label, ExperimentSpec.Row::identity)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("50000/100000 identity", true),
                        org.assertj.core.groups.Tuple.tuple("50000/100000", false));
        Files.writeString(file, "name: floor\nbackend: none\nrecords: 10\nrows: [{identity: often}]\n");
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
                        "backend: linux-cgroup",
                        "rows:",
                        "  - {budget_us: 200000, period_us: 100000}",
                        "  - {budget_us: 5000, period_us: 500}",
                        "  - {budget_us: 5000, period_us: 100000, threads: 'x'}",
                        "records: 0",
                        "warmup: soon",
                        ""));
        assertThatThrownBy(() -> ExperimentSpec.read(file))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining(file + ": records: must be > 0")
                .hasMessageContaining(file + ": warmup: 'soon' is not a duration; write e.g. 500ms, 30s")
                .hasMessageContaining("rows[0].budget_us")
                .hasMessageContaining("rows[1].period_us")
                .hasMessageContaining("rows[2].threads: only linux-deadline");
    }

    private static ExperimentSpec readYaml(Path dir, String name, String extra) throws IOException {
        Path file = dir.resolve(name + ".yaml");
        Files.writeString(file, "name: " + name + "\nbackend: none\nrows: [{}]\nrecords: 10\n" + extra);
        return ExperimentSpec.read(file);
    }

    @Test
    void theWarmupIsATimeOrARecordCountAndTheSteadyStateCutIsApart(@TempDir Path dir) throws IOException {
        ExperimentSpec.Warmup byDefault = readYaml(dir, "default", "").warmup();
        assertThat(byDefault.recordsAt(10, 6)).isEqualTo(3_600);
        assertThat(byDefault.steadyAfterDuration()).isZero();
        ExperimentSpec.Warmup time =
                readYaml(dir, "time", "warmup: 30s\nsteady_after: 1m\n").warmup();
        assertThat(time.recordsAt(5, 6)).isEqualTo(900);
        assertThat(time.steadyAfterDuration()).isEqualTo(java.time.Duration.ofMinutes(1));
        assertThat(time.describe(5, 6)).isEqualTo("30s warm-up (900 records), steady state from 1m");
        ExperimentSpec.Warmup records =
                readYaml(dir, "records", "warmup_records: 120\n").warmup();
        assertThat(records.recordsAt(10, 6)).isEqualTo(120);
        ExperimentSpec.Warmup none = readYaml(dir, "none", "warmup: 0s\n").warmup();
        assertThat(none.recordsAt(10, 6)).isZero();
        assertThat(none.describe(10, 6)).isEqualTo("no warm-up, steady state from 0s");
    }

    @Test
    void aWarmupGivenBothWaysOrOutOfRangeIsNamed(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> readYaml(dir, "both", "warmup: 30s\nwarmup_records: 10\n"))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("both.yaml: warmup: give warmup (a time) or warmup_records (a count), not both");
        assertThatThrownBy(() -> readYaml(dir, "negative", "warmup_records: -1\nsteady_after: later\n"))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("negative.yaml: warmup_records: must be >= 0, got -1")
                .hasMessageContaining("negative.yaml: steady_after: 'later' is not a duration");
        assertThatThrownBy(() -> readYaml(dir, "typed", "warmup_records: many\n"))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("warmup_records");
    }

    @Test
    void anUnknownKeyOrAWrongTypeNamesTheLineAndColumn(@TempDir Path dir) throws IOException {
        Path unknownTop = dir.resolve("unknown-top.yaml");
        Files.writeString(unknownTop, "name: t\nbackend: none\nrows: [{}]\nrecords: 10\nrepetition: 3\n");
        assertThatThrownBy(() -> ExperimentSpec.read(unknownTop))
                .isInstanceOf(SpecException.class)
                .hasMessageStartingWith(unknownTop + ": line 5, column 1: repetition: unknown key; known keys here: [")
                .hasMessageContaining("repetitions");

        Path unknownInRow = dir.resolve("unknown-row.yaml");
        Files.writeString(
                unknownInRow,
                "name: t\nbackend: linux-cgroup\nrows:\n  - budget_us: 5000\n    period_us: 100000\n"
                        + "    budgetus: 4000\nrecords: 10\n");
        assertThatThrownBy(() -> ExperimentSpec.read(unknownInRow))
                .isInstanceOf(SpecException.class)
                .hasMessageStartingWith(unknownInRow + ": line 6, column 5: rows[0].budgetus: unknown key");

        Path wrongType = dir.resolve("wrong-type.yaml");
        Files.writeString(wrongType, "name: t\nbackend: none\nrows: [{}]\nrecords: many\n");
        assertThatThrownBy(() -> ExperimentSpec.read(wrongType))
                .isInstanceOf(SpecException.class)
                .hasMessageStartingWith(wrongType + ": line 4, column 10: records: expected an integer; ");

        Path notAList = dir.resolve("not-a-list.yaml");
        Files.writeString(notAList, "name: t\nbackend: none\nrows: 3\nrecords: 10\n");
        assertThatThrownBy(() -> ExperimentSpec.read(notAList))
                .isInstanceOf(SpecException.class)
                .hasMessageStartingWith(notAList + ": line 3, column 7: rows: expected a list; ");

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
        Files.writeString(typo, "name: t\nbackend: none\nrows: [{}]\nrecords: 10\nrepetition: 3\n");
        assertThatThrownBy(() -> ExperimentSpec.read(typo))
                .hasMessageContaining(typo.toString())
                .hasMessageContaining("repetition");
        Path backend = dir.resolve("backend.yaml");
        Files.writeString(backend, "name: t\nbackend: xen-rt\nrows: [{}]\nrecords: 10\n");
        assertThatThrownBy(() -> ExperimentSpec.read(backend)).hasMessageContaining("backend: one of");
        assertThatThrownBy(() -> ExperimentSpec.read(dir.resolve("missing.yaml")))
                .hasMessageContaining("missing.yaml: no such experiment file");
    }
}
