package org.itsrt.experiments.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.itsrt.experiments.spec.ExperimentSpec;
import org.itsrt.experiments.spec.ExperimentSpec.Row;
import org.itsrt.pipeline.BudgetHook;
import org.itsrt.pipeline.PipelineRun;
import org.itsrt.pipeline.RunSpec;
import org.itsrt.pipeline.budget.Budgets;
import org.itsrt.pipeline.plan.OutputPlan;
import org.itsrt.pipeline.plan.PlanRunner;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.scheduling.linux.InterferenceLoad;

/**
 * Runs an experiment: for every row and repetition, one measured pipeline run ({@link PipelineRun}:
 * a fresh broker and Flink cluster as child processes, or the ones that already run), the row applied to the
 * cluster's process once the job is live and before the first measured record, restored after
 * the last one. Each run gets its own folder; the backend's facts (what was set, throttling measured)
 * go beside the probe's report in {@code applied.json}.
 */
public final class ExperimentRunner {

    private final ExperimentSpec spec;
    private final PrintStream log;

    /** @param spec the experiment, each row's plan as it runs (a command's options already over it) */
    public ExperimentRunner(ExperimentSpec spec, PrintStream log) {
        this.spec = spec;
        this.log = log;
    }

    /**
     * Runs every row's repetitions into {@code out}/runs, in rounds: each round runs every row once,
     * in the file's order. A drift of the host over the experiment (another load, a warmer
     * machine) then falls on every row alike instead of on the rows that happen to run last.
     * Returns the runs in the order they ran; stops at the first run that fails.
     */
    public List<RowRun> run(Path out) throws Exception {
        List<RowRun> results = new ArrayList<>();
        int total = spec.rows().size() * spec.repetitions();
        int done = 0;
        long started = System.nanoTime();
        for (int rep = 1; rep <= spec.repetitions(); rep++) {
            for (int i = 0; i < spec.rows().size(); i++) {
                Row row = spec.rows().get(i);
                Path dir = out.resolve("runs").resolve(folderName(i, row)).resolve("rep-" + rep);
                log.printf(
                        Locale.ROOT,
                        "experiment %s: run %d of %d: row %s, repetition %d: %s%n",
                        spec.name(),
                        done + 1,
                        total,
                        row.label(),
                        rep,
                        Budgets.describe(row.budget()));
                RowRun result = runOne(row, rep, dir);
                results.add(result);
                done++;
                // A run whose job never got ready has no figures to show; the stop below says why.
                if (result.steady().count() > 0 || result.exitCode() == 0) {
                    double perRunS = (System.nanoTime() - started) / 1e9 / done;
                    log.printf(
                            Locale.ROOT,
                            "experiment %s: row %s rep %d: steady p50 %.2f p99 %.2f max %.2f ms%s; "
                                    + "%d of %d runs done, ETA %s%n",
                            spec.name(),
                            row.label(),
                            rep,
                            result.steady().p50(),
                            result.steady().p99(),
                            result.steady().max(),
                            throttleNote(result.applied()),
                            done,
                            total,
                            org.itsrt.cli.Progress.time(perRunS * (total - done)));
                }
                if (result.exitCode() != 0) {
                    log.println("experiment " + spec.name() + ": the run exited with " + result.exitCode()
                            + "; stopping (its folder: " + dir + ")");
                    return results;
                }
            }
        }
        return results;
    }

    /**
     * One run of {@code row} into {@code dir}, as {@link #run} does for each row and repetition;
     * for callers that choose the next row from the results so far ({@code ./its tune}).
     */
    public RowRun runOnce(Row row, int repetition, Path dir) throws Exception {
        return runOne(row, repetition, dir);
    }

    private RowRun runOne(Row row, int rep, Path dir) throws Exception {
        Files.createDirectories(dir);
        RunPlan plan =
                row.plan().toBuilder().output(OutputPlan.builder().dir(dir)).build();
        PlanRunner.Prepared prepared = PlanRunner.prepare(plan);
        AtomicReference<Map<String, Object>> facts = new AtomicReference<>(Map.of());
        BudgetHook budget = Budgets.hook(plan.budget(), facts, log);
        org.itsrt.pipeline.RunResult run;
        try (InterferenceLoad load0 = startInterference()) {
            try {
                run = new PipelineRun(log)
                        .run(new RunSpec(prepared.stack(), prepared.load(), prepared.job(), budget, dir));
            } catch (org.itsrt.pipeline.JobStartException e) {
                log.println("experiment " + spec.name() + ": row " + row.label() + " rep " + rep
                        + ": the job did not get ready, nothing was measured: " + e.getMessage());
                writeApplied(dir, row, org.itsrt.pipeline.RunResult.FAILED, facts.get());
                return RowRun.notMeasured(row, rep, dir, facts.get());
            }
            if (load0 != null) {
                Map<String, Object> withLoad = new LinkedHashMap<>(facts.get());
                withLoad.put("interference", load0.facts());
                facts.set(withLoad);
            }
        }
        writeApplied(dir, row, run.exitCode(), facts.get());
        return RowRun.of(row, rep, dir, run.exitCode(), run.probe(), facts.get());
    }

    private InterferenceLoad startInterference() {
        ExperimentSpec.Interference i = spec.interference();
        if (i == null) {
            return null;
        }
        InterferenceLoad.Spec load = "cpu".equals(i.kind())
                ? InterferenceLoad.Spec.cpu(i.threads())
                : InterferenceLoad.Spec.io(Path.of(System.getProperty("java.io.tmpdir")));
        if (i.cpus() != null) {
            load = load.pinnedTo(i.cpus());
        }
        return InterferenceLoad.start(load);
    }

    private void writeApplied(Path dir, Row row, int exit, Map<String, Object> facts) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("backend", spec.backend().yamlName);
        json.put("row", row.label());
        json.put("exit_code", exit);
        json.put("plan", Budgets.describe(row.budget()));
        json.put("identity", row.identity());
        json.put("job_options", row.jobOptions());
        json.put("cpu_latency_us", row.cpuLatencyUs());
        json.put("facts", facts);
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(dir.resolve("applied.json").toFile(), json);
    }

    /**
     * The runs already in a results folder, for rewriting its report (new plots, the study's
     * files added) without running anything again. Runs without a probe report are left out.
     */
    public static List<RowRun> readExisting(ExperimentSpec spec, Path out) throws IOException {
        List<RowRun> results = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (int i = 0; i < spec.rows().size(); i++) {
            Row row = spec.rows().get(i);
            for (int rep = 1; rep <= spec.repetitions(); rep++) {
                Path dir = out.resolve("runs").resolve(folderName(i, row)).resolve("rep-" + rep);
                if (!Files.exists(dir.resolve("probe").resolve("summary.json"))) {
                    continue;
                }
                Map<String, Object> facts = Map.of();
                int exit = 0;
                Path applied = dir.resolve("applied.json");
                if (Files.exists(applied)) {
                    var node = json.readTree(applied.toFile());
                    facts = json.convertValue(
                            node.path("facts"),
                            new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() {});
                    exit = node.path("exit_code").asInt(0);
                }
                results.add(RowRun.read(row, rep, dir, exit, facts == null ? Map.of() : facts));
            }
        }
        return results;
    }

    static String folderName(int index, Row row) {
        return String.format(Locale.ROOT, "%02d-%s", index + 1, row.label().replaceAll("[^A-Za-z0-9._-]+", "_"));
    }

    /** " throttled in x% of periods" where the backend measured it. */
    static String throttleNote(Map<String, Object> facts) {
        Object share = facts.get("throttled_share");
        return share instanceof Number n
                ? String.format(Locale.ROOT, ", throttled in %.1f%% of periods", n.doubleValue() * 100)
                : "";
    }
}
