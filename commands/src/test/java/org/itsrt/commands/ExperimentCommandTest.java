package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The runner end to end on the bundled quick experiment: two cgroup budgets, one short run each. */
class ExperimentCommandTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));

    @Test
    void theQuickLinuxExperimentRunsEveryRowAndReportsIt(@TempDir Path dir) throws Exception {
        CgroupBandwidth.assumeAvailable();
        Path out = dir.resolve("results");
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        int exit;
        try {
            System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
            exit = new CommandLine(new ExperimentCommand())
                    .execute(
                            ROOT.resolve("experiments/linux-budgets-quick.yaml").toString(),
                            "--out",
                            out.toString(),
                            "--data",
                            ROOT.resolve("data/sample/synthetic-readings.csv").toString(),
                            "--model",
                            ROOT.resolve("models/lstm-flow").toString());
        } finally {
            System.setOut(oldOut);
        }
        String text = console.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(text).isZero();
        assertThat(out.resolve("experiment.yaml"))
                .hasSameTextualContentAs(ROOT.resolve("experiments/linux-budgets-quick.yaml"));
        List<String> csv = Files.readAllLines(out.resolve("runs.csv"));
        assertThat(csv).hasSize(3);
        assertThat(Files.readString(out.resolve("results.md")))
                .contains("| 100000/100000 | 100.00% | 1 |")
                .contains("| 6250/100000 | 6.25% | 1 |")
                .contains("## Environment")
                .contains("cgroup version");

        ObjectMapper json = new ObjectMapper();
        JsonNode full = json.readTree(
                out.resolve("runs/01-100000_100000/rep-1/applied.json").toFile());
        JsonNode tight = json.readTree(
                out.resolve("runs/02-6250_100000/rep-1/applied.json").toFile());
        // The group got vcpus x budget, the whole cluster process was in it, and the kernel enforced it.
        assertThat(full.at("/facts/quota_us").asLong()).isEqualTo(200_000);
        assertThat(tight.at("/facts/quota_us").asLong()).isEqualTo(12_500);
        assertThat(tight.at("/facts/nr_throttled").asLong()).isPositive();
        for (String run : List.of("runs/01-100000_100000/rep-1", "runs/02-6250_100000/rep-1")) {
            JsonNode probe =
                    json.readTree(out.resolve(run).resolve("probe/summary.json").toFile());
            assertThat(probe.at("/records/measured").asLong()).as(run).isEqualTo(600);
        }
        // Nothing left behind: the groups are gone.
        for (JsonNode applied : List.of(full, tight)) {
            for (JsonNode groupDir : applied.at("/facts/cgroup_dirs")) {
                assertThat(Path.of(groupDir.asText())).doesNotExist();
            }
        }
    }

    @Test
    void aKafkaConfigFileNeedsAClusterThatAlreadyRunsAndIsCheckedBeforeAnyRun(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("client.properties"), "security.protocol=SASL_SSL\n");
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        PrintStream oldErr = System.err;
        int withoutCluster;
        int missingFile;
        try {
            System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
            withoutCluster = new CommandLine(new ExperimentCommand())
                    .execute(
                            ROOT.resolve("experiments/linux-budgets-quick.yaml").toString(),
                            "--out",
                            dir.resolve("a").toString(),
                            "--kafka-config",
                            config.toString());
            missingFile = new CommandLine(new ExperimentCommand())
                    .execute(
                            ROOT.resolve("experiments/linux-budgets-quick.yaml").toString(),
                            "--out",
                            dir.resolve("b").toString(),
                            "--bootstrap-servers",
                            "127.0.0.1:1",
                            "--kafka-config",
                            dir.resolve("absent.properties").toString());
        } finally {
            System.setErr(oldErr);
        }
        String text = errors.toString(StandardCharsets.UTF_8);
        assertThat(withoutCluster).as(text).isEqualTo(2);
        assertThat(missingFile).as(text).isEqualTo(2);
        assertThat(text)
                .contains("--kafka-config (stack.broker.kafka_config) is for a Kafka cluster the run does not start")
                .contains("--kafka-config (stack.broker.kafka_config): " + dir.resolve("absent.properties")
                        + ": no such file");
        assertThat(dir.resolve("a").resolve("runs")).doesNotExist();
    }

    /** Runs the command with these arguments; the exit code, stdout and stderr. */
    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = new CommandLine(new ExperimentCommand()).execute(args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new String[] {
            Integer.toString(exit), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
        };
    }

    @Test
    void rowsAndRepetitionsChooseWhatRunsAndQuickShortensEachRun() {
        String[] plan = run(
                ROOT.resolve("experiments/study-rtds.yaml").toString(),
                "--print-plan",
                "--rows",
                "rtds-75000,rtds-100000",
                "--repetitions",
                "1",
                "--quick");

        assertThat(plan[0]).as(plan[2]).isEqualTo("0");
        // The file's order, not the option's; 30 s at the study's 60 records/s.
        assertThat(plan[1])
                .contains("study-rtds: backend xen-rtds, 2 row(s) x 1 repetition(s), 1,800 records each")
                .containsSubsequence("  rtds-100000: ", "  rtds-75000: ")
                .doesNotContain("rtds-76750");
    }

    @Test
    void theLoadIsSetFromTheCommandLineOverEveryRowAndCheckedBeforeAnyRun() {
        String file = ROOT.resolve("experiments/study-credit2.yaml").toString();
        String[] lighter = run(file, "--print-plan", "--rate", "1", "--records", "300", "--warmup", "60s");
        String[] noRate = run(file, "--print-plan", "--rate", "0");
        String[] twoWarmups = run(file, "--print-plan", "--warmup", "5s", "--warmup-records", "3");

        assertThat(lighter[0]).as(lighter[2]).isEqualTo("0");
        assertThat(lighter[1]).contains("1 row(s) x 3 repetition(s), 300 records each");
        assertThat(noRate[0]).isEqualTo("2");
        assertThat(noRate[2]).contains("--rate (load.rate_hz) must be in (0, 1000000] records/s per detector, got 0.0");
        assertThat(twoWarmups[0]).isEqualTo("2");
        assertThat(twoWarmups[2]).contains("--warmup-records are mutually exclusive");
    }

    @Test
    void anOutputFolderThatHoldsAnExperimentsRunsIsRefusedInOneLineBeforeAnythingStarts(@TempDir Path dir)
            throws Exception {
        Path out = dir.resolve("earlier");
        Files.createDirectories(out.resolve("runs"));
        String[] again = run(
                ROOT.resolve("experiments/onnx-engine.yaml").toString(),
                "--out",
                out.toString(),
                "--rows",
                "job onnx",
                "--repetitions",
                "1");

        assertThat(again[0]).as(again[2]).isEqualTo("2");
        assertThat(again[2].lines())
                .containsExactly("its-experiment: --out " + out + " already holds an experiment's runs; give another");
        assertThat(again[1]).as("nothing started").isEmpty();
        assertThat(out.resolve("experiment.yaml")).doesNotExist();
    }

    @Test
    void anUnknownRowOrNoRepetitionIsRefusedNamingTheFilesRows() {
        String[] unknown =
                run(ROOT.resolve("experiments/study-rtds.yaml").toString(), "--print-plan", "--rows", "rtds-1");
        String[] none =
                run(ROOT.resolve("experiments/study-rtds.yaml").toString(), "--print-plan", "--repetitions", "0");

        assertThat(unknown[0]).isEqualTo("2");
        assertThat(unknown[2])
                .contains("--rows: no row 'rtds-1' in ")
                .contains("(its rows: rtds-100000, rtds-80000, rtds-77500, rtds-76750, rtds-76000, rtds-75000)");
        assertThat(none[0]).isEqualTo("2");
        assertThat(none[2]).contains("--repetitions: must be >= 1, got 0");
    }

    @Test
    void theJobsBrokerAddressGoesWithABrokerThatAlreadyRuns(@TempDir Path dir) {
        String[] refused = run(
                ROOT.resolve("experiments/linux-budgets-quick.yaml").toString(),
                "--out",
                dir.resolve("a").toString(),
                "--job-bootstrap-servers",
                "kafka:19092");

        assertThat(refused[0]).as(refused[2]).isEqualTo("2");
        assertThat(refused[2])
                .contains("--job-bootstrap-servers (stack.broker.job_bootstrap_servers) is the job's address of a "
                        + "Kafka cluster that already runs: it goes with --bootstrap-servers");
        assertThat(dir.resolve("a")).doesNotExist();
    }
}
