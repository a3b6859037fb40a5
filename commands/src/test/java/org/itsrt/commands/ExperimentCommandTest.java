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
}
