package org.itsrt.pipeline.failover;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.itsrt.cluster.FlinkRest;
import org.itsrt.pipeline.BudgetHook;
import org.itsrt.pipeline.LoadHook;
import org.itsrt.pipeline.RunResult;
import org.itsrt.pipeline.RunningStack;
import org.itsrt.pipeline.RunningStack.BrokerStop;
import org.itsrt.pipeline.StackSpec;
import org.itsrt.probe.report.ProbeSummary;
import org.itsrt.producers.ProducerRun;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stack with a single Kafka broker as the demo starts it (no other replica to go on with): under load the
 * broker's process is stopped, kept down for {@link #DOWN}, and started again on the same data
 * folder, cluster id, node id and ports. Producers retry into the restarted broker, the job and
 * the probe reconnect to it; the job runs exactly once, so whether or not Flink restarts it from a
 * checkpoint, a read_committed read of the advice holds every reading once. The probe's report
 * marks the window from the stop to the broker serving again.
 *
 * <p>Timings (gap, recovery, the job's restarts) are reported, in target/failover/, not judged.
 */
class BrokerRestartTest {

    /** How long the broker stays down, from its process's end to the start of the new one. */
    static final Duration DOWN = Duration.ofSeconds(20);

    /**
     * Into the load when the broker is stopped: the job, live and checkpointing every second since
     * before the load began, has checkpointed records of it.
     */
    static final Duration STOP_AFTER = Duration.ofSeconds(4);

    /**
     * 46 s of load: the broker is back 30 to 40 s after the stop (the stop, {@link #DOWN}, the
     * start; a killed broker recovers its logs first), and the load goes on a few seconds after
     * that, for the report to show whether and when latency recovered.
     */
    static final long RECORDS = Math.round(Failover.RATE * ProducerRun.STUDY_DETECTORS.size() * 46);

    /** Records fetched before the broker's process ended still come out of the consumer's buffer. */
    private static final Duration FETCHED_BEFORE_THE_END = Duration.ofMillis(250);

    @TempDir
    static Path dir;

    private static RunningStack stack;

    @BeforeAll
    static void startStack() throws Exception {
        // The broker is what this test stops; the job runs on a MiniCluster in this JVM, which
        // starts in seconds where a standalone cluster's processes take half a minute.
        stack = RunningStack.start(
                new StackSpec(
                        new StackSpec.Broker.Local(StackSpec.Broker.Local.DEFAULT_HEAP, List.of()),
                        new StackSpec.Cluster.InProcess(),
                        1,
                        Map.of()),
                dir.resolve("flink-tmp"),
                System.err);
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            long broker = stack.brokerPid().orElseThrow();
            stack.close();
            // The restarted broker is the stack's as the first one was: closing ends it.
            assertThat(ProcessHandle.of(broker).map(ProcessHandle::isAlive))
                    .as("the restarted broker's process after the stack closed")
                    .isNotEqualTo(java.util.Optional.of(true));
        }
    }

    @Test
    void aBrokerStoppedForTwentySecondsAndStartedAgainLosesAndDuplicatesNothing() throws Exception {
        restartUnderLoad(BrokerStop.TERM, "broker stopped (SIGTERM)");
    }

    @Test
    void aBrokerKilledForTwentySecondsAndStartedAgainLosesAndDuplicatesNothing() throws Exception {
        restartUnderLoad(BrokerStop.KILL, "broker killed (SIGKILL)");
    }

    private void restartUnderLoad(BrokerStop how, String label) throws Exception {
        Restart restart = new Restart(how, label);
        RunResult result = stack.measure(
                Failover.load(true, RECORDS), Failover.job(true), BudgetHook.NONE, restart, dir.resolve(how.name()));
        String report = result.dir().resolve("probe/summary.md").toString();

        // Every reading once: none lost, none twice, in a read of the committed advice.
        ProbeSummary probe = result.probe();
        ProbeSummary.Delivery total = probe.sequence().total();
        assertThat(result.exitCode()).as("the run completed; " + report).isZero();
        assertThat(result.producers().failed()).as("sends that failed").isZero();
        assertThat(total.distinct()).as("distinct readings arrived; " + report).isEqualTo(RECORDS);
        assertThat(total.lost()).as("lost; " + report).isZero();
        assertThat(total.duplicated()).as("duplicated; " + report).isZero();

        // The window is marked, from before the stop to the broker serving again.
        assertThat(probe.faults().marks()).as("fault marks; " + report).hasSize(1);
        ProbeSummary.Fault fault = probe.faults().marks().get(0);
        assertThat(fault.label()).isEqualTo(label);
        assertThat(fault.offsetS()).as("the stop's offset").isNotNull();
        assertThat(fault.endOffsetS()).as("the broker back, marked; " + report).isNotNull();
        assertThat(fault.endOffsetS() - fault.offsetS())
                .as("the window holds the stop, the %d s down and the start", DOWN.toSeconds())
                .isGreaterThanOrEqualTo(DOWN.toNanos() / 1e9);
        // Nothing can arrive while no broker process runs: from the old one's end (at most the
        // stop's duration after the mark) to the new one's start (at most the start's duration
        // before the end). The longest silence after the mark holds that stretch, give or take
        // records fetched just before the end that leave the consumer's buffer at its next poll.
        ProbeSummary.Silence silence = fault.silence();
        assertThat(silence).as("the silence after the stop; " + report).isNotNull();
        double stopTook = restart.stopTook.get().toNanos() / 1e9;
        double startTook = restart.startTook.get().toNanos() / 1e9;
        assertThat(silence.startS())
                .as("the last advice before the broker was gone")
                .isLessThanOrEqualTo(fault.offsetS() + stopTook + FETCHED_BEFORE_THE_END.toNanos() / 1e9);
        assertThat(silence.startS() + silence.lengthS())
                .as("the first advice after the broker was started again")
                .isGreaterThanOrEqualTo(fault.endOffsetS() - startTook);
        assertThat(fault.firstArrivalAfterS()).as("advice after the restart").isNotNull();

        report(how, probe, fault, restart);
        Failover.assertRecovered("single broker " + label + " " + DOWN.toSeconds() + " s", result, true, RECORDS);
    }

    /** One row per run, for a person: the numbers the test reports but does not judge. */
    private static void report(BrokerStop how, ProbeSummary probe, ProbeSummary.Fault fault, Restart restart)
            throws IOException {
        ProbeSummary.Delivery total = probe.sequence().total();
        String row = String.format(
                Locale.ROOT,
                "| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %s | %s | %d | %d | %d | %s |%n",
                how,
                restart.stopTook.get().toMillis() / 1e3,
                fault.endOffsetS() - fault.offsetS(),
                restart.startTook.get().toMillis() / 1e3,
                fault.gapS(),
                fault.silence().lengthS(),
                fault.recoveryS() == null
                        ? "not within the run"
                        : String.format(Locale.ROOT, "%.1f", fault.recoveryS()),
                fault.recoveryAfterEndS() == null ? "-" : String.format(Locale.ROOT, "%.1f", fault.recoveryAfterEndS()),
                total.lost(),
                total.duplicated(),
                total.reordered(),
                restart.restarts.get());
        System.err.print("broker restart result:\n" + row);
        Path file = Failover.RESULTS.resolveSibling("broker-restart.md");
        Files.createDirectories(file.getParent());
        if (!Files.exists(file)) {
            Files.writeString(
                    file,
                    "| stop | stop took s | window s | start took s | gap s | longest silence s | recovery s "
                            + "| after the end s | lost | duplicated | reordered | job restarts |\n"
                            + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                    StandardCharsets.UTF_8);
        }
        Files.writeString(file, row, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    /**
     * {@link #STOP_AFTER} into the load: marks the window's start, stops the broker, waits
     * {@link #DOWN}, starts it again and marks the window's end. When the probe has measured every
     * record, before the job is cancelled, reads the job's restarts from Flink's REST API.
     */
    private static final class Restart implements LoadHook {

        final BrokerStop how;
        final String label;
        final AtomicReference<Duration> stopTook = new AtomicReference<>();
        final AtomicReference<Duration> startTook = new AtomicReference<>();
        final AtomicReference<String> restarts = new AtomicReference<>("unknown");
        final AtomicReference<Boolean> stoppedAlive = new AtomicReference<>();

        Restart(BrokerStop how, String label) {
            this.how = how;
            this.label = label;
        }

        @Override
        public AutoCloseable loadStarting(FaultMarks marks) {
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread injector = new Thread(
                    () -> {
                        try {
                            Thread.sleep(STOP_AFTER.toMillis());
                            long before = stack.brokerPid().orElseThrow();
                            Window window = marks.begin(label);
                            long t0 = System.nanoTime();
                            stack.stopBroker(how);
                            stopTook.set(Duration.ofNanos(System.nanoTime() - t0));
                            stoppedAlive.set(ProcessHandle.of(before)
                                    .map(ProcessHandle::isAlive)
                                    .orElse(false));
                            System.err.println("broker restart test: " + label + " in " + stopTook.get());
                            Thread.sleep(DOWN.toMillis());
                            long t1 = System.nanoTime();
                            stack.startBroker();
                            startTook.set(Duration.ofNanos(System.nanoTime() - t1));
                            window.end();
                            System.err.println("broker restart test: broker serves again after " + startTook.get());
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } catch (Throwable e) {
                            failed.set(e);
                        }
                    },
                    "broker-restart");
            injector.start();
            return () -> {
                injector.join(Duration.ofMinutes(2).toMillis());
                if (failed.get() != null) {
                    throw new AssertionError("stopping and starting the broker failed", failed.get());
                }
                assertThat(stoppedAlive.get())
                        .as("the stopped broker's process is gone")
                        .isFalse();
                assertThat(startTook.get()).as("the broker was started again").isNotNull();
                restarts.set(Long.toString(numRestarts(stack.flinkRest())));
            };
        }
    }

    /**
     * The running job's {@code numRestarts} (Flink's job metric: restarts since it was submitted),
     * read over REST; the JobManager fetches metrics every few seconds, so it is asked until it has
     * one. -1 when it does not answer within 20 s.
     */
    static long numRestarts(URI rest) throws InterruptedException, IOException {
        List<FlinkRest.Job> running = new FlinkRest()
                .jobs(rest).stream().filter(j -> "RUNNING".equals(j.state())).toList();
        assertThat(running).as("the job runs at the end of the load").hasSize(1);
        URI metric = rest.resolve("/jobs/" + running.get(0).id() + "/metrics?get=numRestarts");
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> answer = http.send(
                    HttpRequest.newBuilder(metric)
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() == 200) {
                for (JsonNode value : new ObjectMapper().readTree(answer.body())) {
                    if ("numRestarts".equals(value.path("id").asText())) {
                        return value.path("value").asLong();
                    }
                }
            }
            Thread.sleep(500);
        }
        return -1;
    }
}
