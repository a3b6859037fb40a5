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
import org.itsrt.stack.flink.LocalFlink;
import org.itsrt.stack.kafka.LocalKafka;
import org.itsrt.stack.kafka.LocalKafkaOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The study's layout without a hypervisor: a broker and a Flink cluster that already run (as
 * the messaging VM's and the real-time VM's would), and a Xen row applied by
 * xen-configs/apply-row.sh against the fake xl of xen-configs/test, as it would be over ssh in
 * dom0. The runner must submit to that cluster, apply the row while the job is live, restore it
 * after the run, and leave the broker and the cluster running.
 */
class ExperimentOnExistingStackTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."))
            .toAbsolutePath()
            .normalize();
    private static final String RUN = "runs/01-rtds-76750/rep-1";

    @Test
    void aXenRowIsAppliedByTheRowCommandToARunOnAnExistingBrokerAndCluster(@TempDir Path dir) throws Exception {
        Path spec = dir.resolve("xen-one-row.yaml");
        Files.writeString(
                spec,
                """
                name: xen-one-row
                repetitions: 1
                plan:
                  load: {records: 300, warmup_records: 0}
                  budget: {backend: xen-rtds, vcpus: 2}
                rows:
                  - budget: {xen_row: rtds-76750}
                """);
        Path xlState = Files.createDirectories(dir.resolve("xl-host"));
        String rowCommand = "env PATH=" + ROOT.resolve("xen-configs/test/bin") + ":$PATH FAKE_XL_STATE=" + xlState + " "
                + ROOT.resolve("xen-configs/apply-row.sh");
        Path out = dir.resolve("results");

        try (LocalKafka kafka = LocalKafka.start(LocalKafkaOptions.defaults().withParentDir(dir));
                LocalFlink flink =
                        LocalFlink.start(LocalFlink.Options.defaults().withParentDir(dir))) {
            ByteArrayOutputStream console = new ByteArrayOutputStream();
            PrintStream oldOut = System.out;
            int exit;
            try {
                System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
                exit = new CommandLine(new ExperimentCommand())
                        .execute(
                                spec.toString(),
                                "--out",
                                out.toString(),
                                "--bootstrap-servers",
                                kafka.bootstrapServers(),
                                "--flink-rest",
                                flink.restAddress().toString(),
                                "--row-command",
                                rowCommand,
                                "--data",
                                ROOT.resolve("data/sample/synthetic-readings.csv")
                                        .toString(),
                                "--model",
                                ROOT.resolve("models/lstm-flow").toString());
            } finally {
                System.setOut(oldOut);
            }
            assertThat(exit).as(console.toString(StandardCharsets.UTF_8)).isZero();
            // Not the runner's to stop.
            assertThat(flink.isAlive()).as("the existing cluster").isTrue();
            assertThat(kafka.admin().listTopics().names().get()).containsAll(LocalKafka.PIPELINE_TOPICS);
        }

        JsonNode probe = new ObjectMapper()
                .readTree(out.resolve(RUN).resolve("probe/summary.json").toFile());
        assertThat(probe.at("/records/measured").asLong()).isEqualTo(300);
        assertThat(Files.readString(out.resolve(RUN).resolve("summary.md"))).contains("existing cluster at");

        // The row was set and read back, then Xen's RTDS defaults were restored, in that order.
        List<String> calls = Files.readAllLines(xlState.resolve("calls"));
        int set = calls.indexOf("sched-rtds -d rt-vm -v all -p 100000 -b 76750 -e 0");
        int restore = calls.indexOf("sched-rtds -d rt-vm -v all -p 10000 -b 4000 -e 1");
        assertThat(set).as("xl calls: %s", calls).isNotNegative();
        assertThat(restore).as("xl calls: %s", calls).isGreaterThan(set);
        JsonNode applied = new ObjectMapper()
                .readTree(out.resolve(RUN).resolve("applied.json").toFile());
        assertThat(applied.at("/facts/xen_row").asText()).isEqualTo("rtds-76750");
        assertThat(applied.at("/facts/applied_output").toString()).contains("rtds-76750 applied to rt-vm");
        assertThat(applied.at("/facts/restore_output").toString()).contains("restored to rtds defaults");
        assertThat(Files.readString(out.resolve("results.md"))).contains("rtds-76750");
    }

    @Test
    void xenRowsWithoutARowCommandAndLinuxRowsWithoutAProcessAreRefusedBeforeAnythingStarts(@TempDir Path dir)
            throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldErr = System.err;
        int xen;
        int linux;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            xen = new CommandLine(new ExperimentCommand())
                    .execute(
                            ROOT.resolve("experiments/study-rtds.yaml").toString(),
                            "--out",
                            dir.resolve("a").toString());
            linux = new CommandLine(new ExperimentCommand())
                    .execute(
                            ROOT.resolve("experiments/linux-budgets-quick.yaml").toString(),
                            "--out",
                            dir.resolve("b").toString(),
                            "--flink-rest",
                            "http://127.0.0.1:1");
        } finally {
            System.setErr(oldErr);
        }
        String text = err.toString(StandardCharsets.UTF_8);
        assertThat(xen).isEqualTo(2);
        assertThat(linux).isEqualTo(2);
        assertThat(text)
                .contains("give --row-command")
                .contains("xen-configs/apply-row.sh in dom0")
                .contains("on the Docker Compose stack, docker/apply-row.sh")
                .contains("with --flink-rest give --cluster-pid");
        assertThat(dir.resolve("a")).doesNotExist();
        assertThat(dir.resolve("b")).doesNotExist();
    }
}
