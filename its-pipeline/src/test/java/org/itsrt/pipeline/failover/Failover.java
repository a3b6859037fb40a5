package org.itsrt.pipeline.failover;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.itsrt.pipeline.JobSpec;
import org.itsrt.pipeline.LoadHook;
import org.itsrt.pipeline.LoadSpec;
import org.itsrt.pipeline.RunResult;
import org.itsrt.pipeline.plan.LoadPlan;
import org.itsrt.probe.report.ProbeSummary;
import org.itsrt.probe.report.RunReport;
import org.itsrt.producers.ProducerRun;

/**
 * What the failover tests share: the load (the study's six detectors at 10 records/s for 40 s),
 * the job (predict and route with the linear predictor, so a restart does not wait for
 * TensorFlow; checkpoints every second, the restart strategy of the cluster's config.yaml), a
 * fault injected from a thread of its own while the load runs, and the checks: nothing lost,
 * duplicates counted, the outage measured.
 */
final class Failover {

    static final Path ROOT =
            Path.of(System.getProperty("itsrt.repo.root", "..")).toAbsolutePath();
    static final Path SAMPLE = ROOT.resolve("data/sample/synthetic-readings.csv");
    static final Path MODEL = ROOT.resolve("models/lstm-flow");
    static final Path JOB_JAR = Path.of(System.getProperty("itsrt.job.jar", "none"));

    static final double RATE = 10;
    static final long RECORDS = Math.round(RATE * ProducerRun.STUDY_DETECTORS.size() * 40);
    /** Into the load when the fault is injected: the job has checkpointed a few times by then. */
    static final Duration FAULT_AFTER = Duration.ofSeconds(10);
    /** The SLO of the report's windows: a recovering job is late by seconds, the steady one by milliseconds. */
    static final double SLO_MS = 100;
    /**
     * With exactly-once output a record is visible once the checkpoint after it commits: up to
     * the 1 s interval and the commit later. Recovery is judged against that.
     */
    static final double EXACTLY_ONCE_SLO_MS = 2000;

    /** Where each scenario's outcome is appended, one row each, for docs/results.md. */
    static final Path RESULTS = Path.of("target", "failover", "results.md");

    private Failover() {}

    static LoadSpec load(boolean readCommitted) {
        return load(readCommitted, RECORDS);
    }

    /** {@link #load(boolean)} with {@code records} in all, at the same rate. */
    static LoadSpec load(boolean readCommitted, long records) {
        return new LoadSpec(
                SAMPLE,
                LoadPlan.builder()
                        .rateHz(RATE)
                        .records(records)
                        .warmupRecords(0)
                        .steadyAfter(Duration.ZERO)
                        .sloMs(readCommitted ? EXACTLY_ONCE_SLO_MS : SLO_MS)
                        .consumerProperties(readCommitted ? Map.of("isolation.level", "read_committed") : Map.of())
                        .build());
    }

    /** The full job (predict and route), checkpointing every second; exactly once with Kafka transactions. */
    static JobSpec job(boolean exactlyOnce) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("engine", "linear");
        options.put("checkpoint-interval-ms", "1000");
        if (exactlyOnce) {
            options.put("exactly-once", "true");
        }
        return new JobSpec(MODEL, false, options);
    }

    /** Something done to the cluster: a kill, a stop, a start. */
    @FunctionalInterface
    interface Action {
        void run() throws Exception;
    }

    /**
     * {@link #FAULT_AFTER} into the load: {@code fault}, marked on the probe's timeline as
     * {@code label}; then, {@code repairAfter} later, {@code repair} (null: none), marked too.
     */
    static LoadHook inject(String label, Action fault, Duration repairAfter, String repairLabel, Action repair) {
        return marks -> {
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread injector = new Thread(
                    () -> {
                        try {
                            Thread.sleep(FAULT_AFTER.toMillis());
                            fault.run();
                            marks.mark(label);
                            System.err.println("failover test: " + label);
                            if (repair != null) {
                                Thread.sleep(repairAfter.toMillis());
                                repair.run();
                                marks.mark(repairLabel);
                                System.err.println("failover test: " + repairLabel);
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } catch (Throwable e) {
                            failed.set(e);
                        }
                    },
                    "fault-injector");
            injector.start();
            return () -> {
                injector.join(Duration.ofMinutes(2).toMillis());
                if (failed.get() != null) {
                    throw new AssertionError("injecting '" + label + "' failed", failed.get());
                }
            };
        };
    }

    static LoadHook inject(String label, Action fault) {
        return inject(label, fault, Duration.ZERO, null, null);
    }

    /**
     * Every reading arrived at least once (exactly once when {@code exactlyOnce}), the run
     * completed, and the outage is in the probe's report; the outcome is appended to
     * {@link #RESULTS}.
     */
    static void assertRecovered(String scenario, RunResult result, boolean exactlyOnce) throws IOException {
        assertRecovered(scenario, result, exactlyOnce, RECORDS);
    }

    /** {@link #assertRecovered(String, RunResult, boolean)} for a load of {@code records}. */
    static void assertRecovered(String scenario, RunResult result, boolean exactlyOnce, long records)
            throws IOException {
        ProbeSummary probe = result.probe();
        ProbeSummary.Delivery total = probe.sequence().total();
        String report = result.dir().resolve("probe/summary.md").toString();
        assertThat(result.exitCode()).as("the run completed; " + report).isZero();
        assertThat(total.distinct()).as("distinct readings arrived; " + report).isEqualTo(records);
        assertThat(total.lost()).as("lost; " + report).isZero();
        if (exactlyOnce) {
            assertThat(total.duplicated())
                    .as("duplicates in a read_committed read of exactly-once output; " + report)
                    .isZero();
        }
        assertThat(probe.faults().marks())
                .as("the fault is marked in the probe's summary")
                .isNotEmpty();
        ProbeSummary.Fault fault = probe.faults().marks().get(0);
        assertThat(fault.gapS())
                .as("the time from the last advice before the fault to the first after; " + report)
                .isNotNull();
        assertThat(fault.firstArrivalAfterS())
                .as("advice after the fault: the job went on")
                .isNotNull();
        record(scenario, exactlyOnce, probe);
        keepReport(scenario, exactlyOnce, result);
    }

    /** The probe's summary and timeline of each scenario beside {@link #RESULTS}, for a person to look at. */
    private static void keepReport(String scenario, boolean exactlyOnce, RunResult result) throws IOException {
        String name = (scenario + (exactlyOnce ? " exactly once" : " at least once"))
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "-");
        Path probeDir = result.dir().resolve("probe");
        Files.copy(
                probeDir.resolve("summary.md"),
                RESULTS.resolveSibling(name + ".md"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path timeline = probeDir.resolve(RunReport.TIMELINE + ".png");
        if (Files.exists(timeline)) {
            Files.copy(
                    timeline,
                    RESULTS.resolveSibling(name + "-timeline.png"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** One row per mark: a fault and, where the test repairs it, the repair. */
    private static void record(String scenario, boolean exactlyOnce, ProbeSummary probe) throws IOException {
        ProbeSummary.Delivery total = probe.sequence().total();
        StringBuilder rows = new StringBuilder();
        for (ProbeSummary.Fault mark : probe.faults().marks()) {
            rows.append(String.format(
                    Locale.ROOT,
                    "| %s: %s | %s | %s | %s | %s | %d | %s | %d | %d |%n",
                    scenario,
                    mark.label(),
                    exactlyOnce ? "exactly once" : "at least once",
                    seconds(mark.gapS()),
                    mark.silence() == null ? "-" : seconds(mark.silence().lengthS()),
                    mark.recoveryS() == null ? "not within the run" : seconds(mark.recoveryS()),
                    mark.delayed(),
                    mark.peakLatencyMs() == null ? "-" : String.format(Locale.ROOT, "%.0f", mark.peakLatencyMs()),
                    total.lost(),
                    mark.duplicated()));
        }
        System.err.print("failover result:\n" + rows);
        Files.createDirectories(RESULTS.getParent());
        if (!Files.exists(RESULTS)) {
            Files.writeString(
                    RESULTS,
                    "| scenario: mark | delivery | gap s | longest silence s | recovery s | delayed | peak ms | lost "
                            + "| duplicated |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
                    StandardCharsets.UTF_8);
        }
        Files.writeString(RESULTS, rows.toString(), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    private static String seconds(Double s) {
        return s == null ? "-" : String.format(Locale.ROOT, "%.1f", s);
    }
}
