package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.itsrt.fuzz.FuzzKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Bad usage is refused before anything starts, naming the option; nothing is left behind. */
class FuzzCommandTest {

    private record Result(int exit, String err) {}

    private static Result run(String... args) {
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new FuzzCommand())
                .setErr(new PrintWriter(err, true))
                .setOut(new PrintWriter(new StringWriter(), true))
                .execute(args);
        return new Result(exit, err.toString());
    }

    @Test
    void tooFewRecordsForEveryKind(@TempDir Path dir) {
        Result r = run("--records", "3", "--out", dir.resolve("out").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--records must be at least " + FuzzKind.values().length);
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void theDistrictCampaignNeedsOneRequestOfEachFault(@TempDir Path dir) {
        int faults = org.itsrt.fuzz.RequestFault.values().length;
        Result r = run(
                "--workload",
                "district",
                "--records",
                Integer.toString(faults - 1),
                "--out",
                dir.resolve("out").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--records must be at least " + faults);
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void theWarmupIsATimeOrAReadingCountNotBoth(@TempDir Path dir) {
        Result both = run(
                "--warmup",
                "2s",
                "--warmup-records",
                "6",
                "--out",
                dir.resolve("out").toString());
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("--warmup (load.warmup_records) and --warmup-records are mutually exclusive");
        assertThat(dir.resolve("out")).doesNotExist();

        FuzzCommand byDefault = new FuzzCommand();
        new CommandLine(byDefault).parseArgs();
        assertThat(byDefault.warmupReadings(6)).isEqualTo(120);
        FuzzCommand none = new FuzzCommand();
        new CommandLine(none).parseArgs("--warmup", "0");
        assertThat(none.warmupReadings(6)).isZero();
        FuzzCommand counted = new FuzzCommand();
        new CommandLine(counted).parseArgs("--warmup-records", "7");
        assertThat(counted.warmupReadings(6)).isEqualTo(7);
    }

    @Test
    void theStackFollowsTheRunPlansRules(@TempDir Path dir) throws Exception {
        // The same rules as ./its demo's stack: one set, in the run plan.
        Result pid = run("--cluster-pid", "1", "--out", dir.resolve("out").toString());
        assertThat(pid.exit()).isEqualTo(2);
        assertThat(pid.err()).contains("--cluster-pid (stack.flink.taskmanager_pid) goes with --flink-rest");
        Path file = dir.resolve("client.properties");
        Files.writeString(file, "security.protocol=SASL_SSL\n");
        Result config = run(
                "--kafka-config", file.toString(), "--out", dir.resolve("out").toString());
        assertThat(config.exit()).isEqualTo(2);
        assertThat(config.err()).contains("--kafka-config (stack.broker.kafka_config) is for a Kafka cluster the run");
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void aClusterFolderGoesAlone(@TempDir Path dir) {
        Result r = run(
                "--cluster",
                dir.toString(),
                "--bootstrap-servers",
                "localhost:9092",
                "--flink-rest",
                "http://localhost:8081");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--cluster (stack.cluster) brings its own brokers");
    }

    @Test
    void anUnknownFlinkKindIsNamed() {
        Result r = run("--flink", "yarn");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--flink (stack.flink.mode) must be standalone, child, in-process, got yarn");
    }

    @Test
    void aMissingKafkaConfigFileIsNamed(@TempDir Path dir) {
        Path missing = dir.resolve("client.properties");
        Result r = run("--kafka-config", missing.toString());
        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains(missing.toString());
    }

    @Test
    void printPlanShowsTheCampaignAndItsStackAndStartsNothing(@TempDir Path dir) {
        StringWriter out = new StringWriter();
        int exit = new CommandLine(new FuzzCommand())
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(new StringWriter(), true))
                .execute(
                        "--print-plan",
                        "--records",
                        "60",
                        "--seed",
                        "7",
                        "--flink",
                        "child",
                        "--out",
                        dir.resolve("out").toString());
        assertThat(exit).isZero();
        assertThat(out.toString())
                .contains("fuzz: 60 malformed or edge-case records and as many valid readings, seed 7, 120 warm-up")
                .contains("stack:")
                .contains("mode: child");
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void aPlanFileGivesTheCampaignItsStackAndOptionsGoOverIt(@TempDir Path dir) throws Exception {
        Path plan = Files.writeString(dir.resolve("plan.yaml"), "stack: {flink: {mode: in-process}, parallelism: 2}\n");
        StringWriter out = new StringWriter();
        int exit = new CommandLine(new FuzzCommand())
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(new StringWriter(), true))
                .execute("--plan", plan.toString(), "--print-plan", "--records", "60");
        assertThat(exit).isZero();
        // The plan's cluster, at the campaign's parallelism of 1.
        assertThat(out.toString()).contains("mode: in-process").contains("parallelism: 1");
        StringWriter over = new StringWriter();
        new CommandLine(new FuzzCommand())
                .setOut(new PrintWriter(over, true))
                .setErr(new PrintWriter(new StringWriter(), true))
                .execute("--plan", plan.toString(), "--flink", "child", "--print-plan", "--records", "60");
        assertThat(over.toString()).contains("mode: child");
    }
}
