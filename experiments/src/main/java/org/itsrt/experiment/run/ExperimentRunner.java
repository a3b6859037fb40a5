package org.itsrt.experiment.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import org.itsrt.cli.KafkaClientConfig;
import org.itsrt.experiment.backend.RowBackend;
import org.itsrt.experiment.backend.XenRowCommand;
import org.itsrt.experiment.spec.ExperimentSpec;
import org.itsrt.experiment.spec.ExperimentSpec.Row;
import org.itsrt.pipeline.BudgetHook;
import org.itsrt.pipeline.JobSpec;
import org.itsrt.pipeline.LoadSpec;
import org.itsrt.pipeline.PipelineRun;
import org.itsrt.pipeline.RunSpec;
import org.itsrt.pipeline.StackSpec;
import org.itsrt.producers.ProducerRun;
import org.itsrt.sched.linux.AppliedBudget;
import org.itsrt.sched.linux.InterferenceLoad;

/**
 * Runs an experiment: for every row and repetition, one measured pipeline run ({@link PipelineRun}:
 * a fresh broker and Flink cluster as child processes, or the ones that already run), the row applied to the
 * cluster's process once the job is live and before the first measured record, restored after
 * the last one. Each run gets its own folder; the backend's facts (what was set, throttling measured)
 * go beside the probe's report in {@code applied.json}.
 */
public final class ExperimentRunner {

    /**
     * What every run of the pipeline is given besides the experiment: the readings, the model, the
     * job jar, and where it runs - a fresh local broker and child cluster per run, or a broker and a
     * cluster that already run.
     *
     * @param bootstrapServers a Kafka cluster that already runs (e.g. the messaging VM's), or null for a
     *                         fresh local broker per run
     * @param flinkRest        a Flink cluster that already runs (e.g. http://rt-vm:8081), or null for a fresh
     *                         child cluster per run
     * @param clusterPid       with {@code flinkRest}: the TaskManager's process on this host, which
     *                         linux-* rows are applied to
     * @param rowCommand       for xen-* rows: the command that applies a row where the job runs ({@link XenRowCommand})
     * @param clusterDir       a cluster that {@code ./its cluster up} started: its brokers and JobManagers, rows
     *                         applied to its first TaskManager; null otherwise
     * @param kafkaConfig      a client properties file ({@code --kafka-config}) for every Kafka client of a run
     *                         on a cluster that already runs
     */
    public record Pipeline(
            Path data,
            Path model,
            Path jobJar,
            String bootstrapServers,
            URI flinkRest,
            OptionalLong clusterPid,
            String rowCommand,
            Path clusterDir,
            KafkaClientConfig kafkaConfig) {

        public Pipeline {
            if (kafkaConfig == null) {
                kafkaConfig = KafkaClientConfig.none();
            }
        }

        /** Without a client properties file: plaintext, no authentication. */
        public Pipeline(
                Path data,
                Path model,
                Path jobJar,
                String bootstrapServers,
                URI flinkRest,
                OptionalLong clusterPid,
                String rowCommand,
                Path clusterDir) {
            this(data, model, jobJar, bootstrapServers, flinkRest, clusterPid, rowCommand, clusterDir, null);
        }

        /** The same with a client properties file for every Kafka client ({@code --kafka-config}). */
        public Pipeline withKafkaConfig(KafkaClientConfig config) {
            return new Pipeline(
                    data, model, jobJar, bootstrapServers, flinkRest, clusterPid, rowCommand, clusterDir, config);
        }

        /** A fresh local broker and child cluster per run, rows applied on this host. */
        public static Pipeline local(Path data, Path model, Path jobJar) {
            return new Pipeline(data, model, jobJar, null, null, OptionalLong.empty(), null, null);
        }

        /** The same, on the cluster that {@code ./its cluster up} started in {@code clusterDir} (null: none). */
        public Pipeline onCluster(Path dir) {
            return new Pipeline(
                    data, model, jobJar, bootstrapServers, flinkRest, clusterPid, rowCommand, dir, kafkaConfig);
        }

        /** The stack one run starts or reaches. */
        public StackSpec stack() throws java.io.IOException, InterruptedException {
            if (clusterDir != null) {
                return StackSpec.onCluster(clusterDir, jobJar, 1, Map.of()).withKafkaConfig(kafkaConfig);
            }
            StackSpec.Broker broker = bootstrapServers != null
                    ? new StackSpec.Broker.Existing(bootstrapServers)
                    : new StackSpec.Broker.Local(StackSpec.Broker.Local.DEFAULT_HEAP, List.of());
            StackSpec.Cluster cluster = flinkRest != null
                    ? new StackSpec.Cluster.Existing(flinkRest, jobJar, clusterPid)
                    : new StackSpec.Cluster.Child(jobJar, List.of());
            return new StackSpec(broker, cluster, 1, Map.of()).withKafkaConfig(kafkaConfig);
        }
    }

    private final ExperimentSpec spec;
    private final Pipeline pipeline;
    private final PrintStream log;

    public ExperimentRunner(ExperimentSpec spec, Pipeline pipeline, PrintStream log) {
        this.spec = spec;
        this.pipeline = pipeline;
        this.log = log;
    }

    /**
     * Runs every row's repetitions into {@code out}/runs, in rounds: each round runs every row once,
     * in the file's order. A drift of the host over the experiment (another load, a warmer
     * machine) then falls on every row alike instead of on the rows that happen to run last.
     * Returns the runs in the order they ran; stops at the first run that fails.
     */
    public List<RunResult> run(Path out) throws Exception {
        List<RunResult> results = new ArrayList<>();
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
                        RowBackend.plan(spec, row));
                RunResult result = runOne(row, rep, dir);
                results.add(result);
                done++;
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
                        eta(perRunS * (total - done)));
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
    public RunResult runOnce(Row row, int repetition, Path dir) throws Exception {
        return runOne(row, repetition, dir);
    }

    private RunResult runOne(Row row, int rep, Path dir) throws Exception {
        Files.createDirectories(dir);
        RowBackend.RowApplier applier = RowBackend.applier(spec, row, pipeline.rowCommand());
        AtomicReference<Map<String, Object>> facts = new AtomicReference<>(Map.of());
        BudgetHook budget = pid -> {
            AppliedBudget applied = applier.apply(pid);
            log.println("experiment " + spec.name() + ": applied " + applied.description());
            return () -> {
                // Facts first: after close the group is gone.
                Map<String, Object> during = new LinkedHashMap<>(applied.facts());
                facts.set(during);
                applied.close();
                during.putAll(applied.restoreFacts());
                facts.set(during);
            };
        };
        long warmupRecords = spec.warmup().recordsAt(spec.load().rateHz(), ProducerRun.STUDY_DETECTORS.size());
        LoadSpec load = new LoadSpec(
                pipeline.data(),
                ProducerRun.STUDY_DETECTORS,
                spec.load().rateHz(),
                spec.records(),
                spec.warmup().steadyAfterDuration(),
                spec.slo().windowP95Ms(),
                Map.of(),
                Map.of(),
                warmupRecords);
        JobSpec job = new JobSpec(pipeline.model(), row.identity(), row.jobOptions(spec.job()));
        org.itsrt.pipeline.RunResult run;
        try (InterferenceLoad load0 = startInterference()) {
            StackSpec stack = row.cpuLatencyUs() == null
                    ? pipeline.stack()
                    : pipeline.stack().withCpuLatencyUs(row.cpuLatencyUs());
            run = new PipelineRun(log).run(new RunSpec(stack, load, job, budget, dir));
            if (load0 != null) {
                Map<String, Object> withLoad = new LinkedHashMap<>(facts.get());
                withLoad.put("interference", load0.facts());
                facts.set(withLoad);
            }
        }
        writeApplied(dir, row, run.exitCode(), facts.get());
        return RunResult.of(row, rep, dir, run.exitCode(), run.probe(), facts.get());
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
        json.put("plan", RowBackend.plan(spec, row));
        json.put("identity", row.identity());
        json.put("job_options", row.jobOptions(spec.job()));
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
    public static List<RunResult> readExisting(ExperimentSpec spec, Path out) throws IOException {
        List<RunResult> results = new ArrayList<>();
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
                results.add(RunResult.read(row, rep, dir, exit, facts == null ? Map.of() : facts));
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

    private static String eta(double seconds) {
        long s = Math.round(seconds);
        return s >= 60 ? (s / 60) + " min " + (s % 60) + " s" : s + " s";
    }
}
