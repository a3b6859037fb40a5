package org.itsrt.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.itsrt.pipeline.plan.LoadPlan;
import org.itsrt.probe.report.ProbeSummary;
import org.itsrt.producers.send.ProducerSummary;
import org.itsrt.scheduling.linux.CpuLatencyRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** the pipeline library as a program calls it: one spec in, typed summaries out, no command line. */
class PipelineRunTest {

    private static final Path ROOT =
            Path.of(System.getProperty("itsrt.repo.root", "..")).toAbsolutePath();
    private static final Path SAMPLE = ROOT.resolve("data/sample/synthetic-readings.csv");
    private static final Path MODEL = ROOT.resolve("models/lstm-flow");

    /** A budget that only notes when it was applied (with the process) and restored. */
    private static BudgetHook recordedIn(List<String> calls) {
        return pid -> {
            calls.add("applied " + pid);
            return () -> calls.add("restored");
        };
    }

    private static StackSpec brokerAndClusterInProcess() {
        return new StackSpec(
                new StackSpec.Broker.Local("256m", List.of()), new StackSpec.Cluster.InProcess(), 1, Map.of());
    }

    @Test
    void oneCallRunsOneMeasuredPipelineAndAppliesTheBudgetWhileTheJobIsLive(@TempDir Path dir) throws Exception {
        List<String> hookCalls = new ArrayList<>();
        BudgetHook budget = recordedIn(hookCalls);
        StackSpec stack = brokerAndClusterInProcess();
        LoadSpec load = new LoadSpec(
                SAMPLE,
                LoadPlan.builder()
                        .rateHz(20)
                        .records(120)
                        .warmupRecords(0)
                        .steadyAfter(Duration.ZERO)
                        .build());
        JobSpec job = new JobSpec(MODEL, false, Map.of("engine", "linear"));
        ByteArrayOutputStream log = new ByteArrayOutputStream();

        RunResult result = new PipelineRun(new PrintStream(log, true, StandardCharsets.UTF_8))
                .run(new RunSpec(stack, load, job, budget, dir.resolve("run")));

        String progress = log.toString(StandardCharsets.UTF_8);
        assertThat(result.exitCode()).as(progress).isZero();
        ProbeSummary probe = result.probe();
        assertThat(probe.records().measured()).isEqualTo(120);
        assertThat(probe.records().shortfall()).isZero();
        assertThat(probe.stages().route().count()).isEqualTo(120);
        assertThat(probe.latency().fromIntended().all().p50Ms()).isPositive();
        ProducerSummary producers = result.producers();
        assertThat(producers.sent()).isEqualTo(120);
        assertThat(producers.acked()).isEqualTo(120);
        assertThat(producers.detectors()).isEqualTo(6);
        assertThat(result.deadLetters()).isEmpty();
        // The in-process cluster runs in this JVM: no other process to put a budget on.
        assertThat(hookCalls).containsExactly("applied " + OptionalLong.empty(), "restored");
        assertThat(ProducerSummary.read(result.dir().resolve("producer.json"))).isEqualTo(producers);
        assertThat(result.dir().resolve(PipelineRun.FLINK_TMP)).doesNotExist();
        assertThat(progress).contains("its-probe: 120 records");
        assertThat(progress).as("the load waited for every step to open").contains("every step open");
    }

    @Test
    void aJobThatIsNotReadyInItsStartTimeoutEndsTheRunInOneLineBeforeAnyBudget(@TempDir Path dir) {
        List<String> hookCalls = new ArrayList<>();
        BudgetHook budget = recordedIn(hookCalls);
        StackSpec stack = brokerAndClusterInProcess();
        LoadSpec load = new LoadSpec(
                SAMPLE,
                LoadPlan.builder().rateHz(20).records(120).warmupRecords(0).build());
        JobSpec job = new JobSpec(MODEL, false, Map.of("engine", "linear"), Duration.ofMillis(1));

        assertThatThrownBy(() -> new PipelineRun(
                                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                        .run(new RunSpec(stack, load, job, budget, dir.resolve("run"))))
                .isInstanceOf(JobStartException.class)
                .hasMessageEndingWith("; --job-start-timeout (job.start_timeout) allows longer than 1ms")
                .hasMessageNotContaining("\n");
        assertThat(hookCalls).isEmpty();
    }

    @Test
    void aStackHoldsItsCpuLatencyRequestWhileItRunsAndEndsItWhenClosed(@TempDir Path dir) throws Exception {
        Path device = CpuLatencyRequest.DEVICE;
        assumeTrue(Files.isWritable(device), device + " is missing or not writable here (it needs root)");
        OptionalInt before = CpuLatencyRequest.current(device);
        assumeTrue(before.isPresent() && before.getAsInt() > 0, "another process already holds the host at 0 us");
        StackSpec spec = new StackSpec(
                        new StackSpec.Broker.Local("256m", List.of()), new StackSpec.Cluster.InProcess(), 1, Map.of())
                .withCpuLatencyUs(0);
        ByteArrayOutputStream log = new ByteArrayOutputStream();

        try (RunningStack stack =
                RunningStack.start(spec, dir.resolve("flink"), new PrintStream(log, true, StandardCharsets.UTF_8))) {
            assertThat(CpuLatencyRequest.current(device)).hasValue(0);
            assertThat(stack.cpuLatencyRequest()).isPresent();
        }

        assertThat(CpuLatencyRequest.current(device)).hasValue(before.getAsInt());
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("CPU latency request 0 us");
    }

    @Test
    void aBadSpecFailsBeforeAnythingStartsNamingTheOption(@TempDir Path dir) {
        assertThatThrownBy(() ->
                        new LoadSpec(dir.resolve("none.csv"), LoadPlan.builder().build()))
                .hasMessageContaining("--data")
                .hasMessageContaining("none.csv");
        // The producers' rate bound, asked when the load is planned rather than once the stack runs.
        assertThatThrownBy(() -> new LoadSpec(
                        SAMPLE, LoadPlan.builder().rateHz(2e6).records(100).build()))
                .hasMessageContaining(
                        "--rate (load.rate_hz) must be in (0, 1000000] records/s per detector, got " + "2000000.0");
        assertThatThrownBy(() -> new StackSpec(
                        new StackSpec.Broker.Existing("kafka:9092"),
                        new StackSpec.Cluster.InProcess(),
                        1,
                        Map.of("broker", "0")))
                .hasMessageContaining("--pin broker");
        assertThatThrownBy(() -> new StackSpec(
                                new StackSpec.Broker.Existing("kafka:9092"),
                                new StackSpec.Cluster.InProcess(),
                                1,
                                Map.of())
                        .withCpuLatencyUs(-5))
                .hasMessageContaining("--cpu-latency-us")
                .hasMessageContaining("-5");
        assertThatThrownBy(() -> new StackSpec.Cluster.Child(dir.resolve("job.jar"), List.of()))
                .hasMessageContaining("--job-jar")
                .hasMessageContaining("job.jar");
        assertThatThrownBy(() -> PipelineRun.jobSettings(
                        new JobSpec(MODEL, false, Map.of("engine", "gpu")), "127.0.0.1:9092", 1))
                .hasMessageContaining("--engine");
    }
}
