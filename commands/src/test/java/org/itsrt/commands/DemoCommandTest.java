package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.itsrt.pipeline.plan.LoadPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The whole embedded pipeline, small: broker, job on a MiniCluster (child process, or in process), producers, probe. */
class DemoCommandTest {

    private static final Path ROOT = Path.of(System.getProperty("itsrt.repo.root", ".."));

    @Test
    void everyRecordSentComesBackAsAdviceAndTheRunIsReported(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("run");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            // The default cluster (standalone: a JobManager and a TaskManager process), and the
            // broker and cluster levers: another collector for the broker, the broker and the
            // TaskManager pinned (CPU 0 exists on every machine).
            exit = new CommandLine(new DemoCommand())
                    .execute(
                            "--records",
                            "120",
                            "--rate",
                            "10",
                            "--warmup-records",
                            "12",
                            "--data",
                            ROOT.resolve("data/sample/synthetic-readings.csv").toString(),
                            "--model",
                            ROOT.resolve("models/lstm-flow").toString(),
                            "--out",
                            run.toString(),
                            "--broker-jvm-arg=-XX:+UseSerialGC",
                            "--pin",
                            "flink=0",
                            "--pin",
                            "broker=0");
        } finally {
            System.setOut(oldOut);
        }
        String console = out.toString(StandardCharsets.UTF_8);

        assertThat(exit).as(console).isZero();
        // 12 warm-up records first: reported apart, not among the 120 measured.
        assertThat(console)
                .contains("120 of 120 records measured end to end")
                .contains("| warm-up (not measured) | 12 |")
                .contains("lost 0, duplicated 0, reordered 0, never arrived 0, dead-lettered 0")
                .contains("warm-up: latency settled ");
        JsonNode probe =
                new ObjectMapper().readTree(run.resolve("probe/summary.json").toFile());
        assertThat(probe.at("/run/topic").asText()).isEqualTo("its.advice");
        assertThat(probe.at("/records/measured").asLong()).isEqualTo(120);
        // Advice carries the job's stage durations: the probe saw inference for every record.
        assertThat(probe.at("/stages/infer/count").asLong()).isEqualTo(120);
        assertThat(probe.at("/warmup/records").asLong()).isEqualTo(12);
        assertThat(probe.at("/sequence/total/distinct").asLong()).isEqualTo(132);
        assertThat(probe.at("/settings/steady_after_s").asDouble()).isZero();
        assertThat(probe.at("/warmup/settled_after_s").isNumber()).isTrue();
        assertThat(Files.readString(run.resolve("summary.md")))
                .contains("## End-to-end latency")
                .contains("warm-up: 12 records (200ms) sent first, flagged")
                .contains("predict (LSTM) and route (A*)")
                .contains("standalone cluster (JobManager pid")
                .contains("-XX:+UseSerialGC")
                .contains("pinned (taskset): {flink=0, broker=0}");
        assertThat(run.resolve("producer.md")).isRegularFile();
        assertThat(run.resolve("flink-tmp")).doesNotExist();
    }

    @Test
    void withFloorRunsTheIdentityFloorThenTheJobAndComparesThem(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("run");
        // The run as a plan file, --with-floor and --out given over it.
        Path plan = dir.resolve("plan.yaml");
        Files.writeString(
                plan,
                String.join(
                        "\n",
                        "stack:",
                        "  flink: {mode: in-process}",
                        "load:",
                        "  data: " + ROOT.resolve("data/sample/synthetic-readings.csv"),
                        "  rate_hz: 10",
                        "  records: 60",
                        "  warmup_records: 6",
                        "job:",
                        "  model: " + ROOT.resolve("models/lstm-flow"),
                        ""));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            exit = new CommandLine(new DemoCommand())
                    .execute("--plan", plan.toString(), "--with-floor", "--out", run.toString());
        } finally {
            System.setOut(oldOut);
        }
        String console = out.toString(StandardCharsets.UTF_8);

        assertThat(exit).as(console).isZero();
        JsonNode floor = new ObjectMapper()
                .readTree(run.resolve("floor/probe/summary.json").toFile());
        JsonNode job = new ObjectMapper()
                .readTree(run.resolve("job/probe/summary.json").toFile());
        assertThat(floor.at("/records/measured").asLong()).isEqualTo(60);
        assertThat(job.at("/records/measured").asLong()).isEqualTo(60);
        // Each phase has its own warm-up.
        assertThat(floor.at("/warmup/records").asLong()).isEqualTo(6);
        assertThat(job.at("/warmup/records").asLong()).isEqualTo(6);
        // The floor does no inference; the job infers every record.
        assertThat(floor.at("/stages/infer/max_us").asDouble()).isZero();
        assertThat(job.at("/stages/infer/count").asLong()).isEqualTo(60);
        assertThat(job.at("/stages/infer/min_us").asDouble()).isPositive();
        assertThat(Files.readString(run.resolve("compare.md")))
                .contains("| identity floor | 60 |")
                .contains("| job (predict + route) | 60 |");
        assertThat(console).contains("job - floor: p50");
        assertThat(Files.readString(run.resolve("job/summary.md")))
                .contains("dead-lettered 0")
                .contains("MiniCluster in this process");
    }

    private static LoadPlan load(String... args) {
        DemoCommand demo = new DemoCommand();
        String[] withData = java.util.stream.Stream.concat(
                        java.util.Arrays.stream(args),
                        java.util.stream.Stream.of(
                                "--data",
                                ROOT.resolve("data/sample/synthetic-readings.csv")
                                        .toString()))
                .toArray(String[]::new);
        new CommandLine(demo).parseArgs(withData);
        return demo.plan().load();
    }

    @Test
    void theWarmupDefaultsAndTheirOffSwitch() {
        // Full run: 60 s at 10 records/s on six detectors, then the 20,000 measured records, no cut.
        LoadPlan full = load();
        assertThat(full.records()).isEqualTo(20_000);
        assertThat(full.warmupRecords()).isEqualTo(3_600);
        assertThat(full.steadyAfter()).isZero();
        LoadPlan quick = load("--quick");
        assertThat(quick.records()).isEqualTo(1_800);
        assertThat(quick.warmupRecords()).isEqualTo(600);
        assertThat(quick.warmupDuration()).isEqualTo(Duration.ofSeconds(10));
        // --warmup 0: no warm-up records and the steady-state cut of before, 120 s or 10 s.
        assertThat(load("--warmup", "0").warmupRecords()).isZero();
        assertThat(load("--warmup", "0").steadyAfter()).isEqualTo(Duration.ofSeconds(120));
        assertThat(load("--warmup", "0", "--quick").steadyAfter()).isEqualTo(Duration.ofSeconds(10));
        assertThat(load("--warmup", "2s", "--rate", "5").warmupRecords()).isEqualTo(60);
        assertThat(load("--warmup-records", "7").warmupRecords()).isEqualTo(7);
        assertThat(load("--warmup-records", "7", "--steady-after", "30s").steadyAfter())
                .isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void optionsThatCannotWorkTogetherAreRefusedBeforeAnythingStarts(@TempDir Path dir) {
        String[][] wrong = {
            {"--pin", "gpu=0"},
            {"--pin", "flink=first"},
            {"--cluster-pid", "1"},
            {"--flink", "in-process", "--pin", "flink=0"},
            {"--bootstrap-servers", "127.0.0.1:1", "--broker-jvm-arg=-XX:+UseZGC"},
            {"--flink-rest", "http://127.0.0.1:1", "--flink-jvm-arg=-XX:+UseZGC"},
            {"--bootstrap-servers", "127.0.0.1:1", "--secure"},
            {"--kafka-config", dir.resolve("client.properties").toString()},
            {
                "--bootstrap-servers",
                "127.0.0.1:1",
                "--kafka-config",
                dir.resolve("absent.properties").toString()
            },
            {"--warmup", "10s", "--warmup-records", "60"},
            {"--warmup-records", "-1"},
        };
        String[] named = {
            "--pin (stack.pins): gpu: the parts are [broker, clients, flink]",
            "--pin (stack.pins): flink: a CPU list like 1, 0-1 or 0,2 is required, got first",
            "--cluster-pid (stack.flink.taskmanager_pid) goes with --flink-rest",
            "--pin (stack.pins): flink needs a cluster the run starts",
            "--broker-jvm-arg (stack.broker.jvm_args) is for a broker the run starts",
            "--flink-jvm-arg (stack.flink.jvm_args) is for a cluster the run starts",
            "--secure (stack.broker.secure) is for the broker the run starts",
            "--kafka-config (stack.broker.kafka_config) is for a Kafka cluster the run does not start",
            "absent.properties: no such file",
            "--warmup (load.warmup_records) and --warmup-records are mutually exclusive",
            "--warmup-records (load.warmup_records) must be >= 0, got -1"
        };
        try {
            Files.writeString(dir.resolve("client.properties"), "security.protocol=SASL_SSL\n");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        for (int i = 0; i < wrong.length; i++) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            CommandLine cmd = new CommandLine(new DemoCommand());
            cmd.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
            String[] args = java.util.stream.Stream.concat(
                            java.util.Arrays.stream(wrong[i]),
                            java.util.stream.Stream.of(
                                    "--out", dir.resolve("run" + i).toString()))
                    .toArray(String[]::new);
            assertThat(cmd.execute(args)).as(String.join(" ", wrong[i])).isEqualTo(2);
            assertThat(err.toString(StandardCharsets.UTF_8))
                    .as(String.join(" ", wrong[i]))
                    .contains(named[i]);
            assertThat(dir.resolve("run" + i)).doesNotExist();
        }
    }
}
