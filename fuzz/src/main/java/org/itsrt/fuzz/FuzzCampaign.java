package org.itsrt.fuzz;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.itsrt.job.config.JobSettings;
import org.itsrt.pipeline.RunningStack;

/**
 * A campaign on a running stack (docs/fuzz.md): first the clean run, a fresh job given only the
 * readings the job must advise; then the fuzz run, another fresh job given every record of the
 * plan, the same readings in the same order with the hostile records between them. Both jobs run
 * at parallelism 1 on the same topics, one after the other, each reading only what was sent after
 * it started.
 */
public final class FuzzCampaign {

    /**
     * Checkpoints of the campaign's jobs (at least once): a failure then restarts the job from its
     * last checkpoint, which {@code numRestarts} counts, instead of ending it, and the sequence
     * check's state is checkpointed as in a deployment that checkpoints.
     */
    static final long CHECKPOINT_INTERVAL_MS = 5_000;

    /** The consumer group of the campaign's jobs: a deployment's own group keeps its offsets. */
    static final String GROUP_ID = "its-fuzz";

    private final RunningStack stack;
    private final KafkaEnds ends;
    private final Path model;
    private final PrintStream log;
    private volatile JobRun current;
    private volatile boolean stopped;

    public FuzzCampaign(RunningStack stack, KafkaEnds ends, Path model, PrintStream log) {
        this.stack = stack;
        this.ends = ends;
        this.model = model;
        this.log = log;
    }

    /** The job's settings for a campaign on these ends. */
    static JobSettings jobSettings(KafkaEnds ends, Path model) {
        return jobSettings(ends, model, Map.of());
    }

    /** As {@link #jobSettings(KafkaEnds, Path)}, with a workload's own options ({@code workload}, {@code graph-meta}). */
    static JobSettings jobSettings(KafkaEnds ends, Path model, Map<String, String> workloadOptions) {
        Map<String, String> options = new LinkedHashMap<>(ends.jobOptions());
        options.putAll(workloadOptions);
        options.put("group-id", GROUP_ID);
        options.put("parallelism", "1");
        options.put("checkpoint-interval-ms", Long.toString(CHECKPOINT_INTERVAL_MS));
        // No deadlines: each answer is compared with the clean run's, and a request answered
        // `expired` in one run and routed in the other would be the host's speed, not a bad record.
        options.put("deadline-ms", "0");
        if (model != null) {
            options.put("model", model.toAbsolutePath().toString());
        }
        return JobSettings.fromMap(options);
    }

    /** The detectors a reading may come from: the routing graph's, as the job validates them. */
    public static long[] detectors(KafkaEnds ends, Path model) {
        return jobSettings(ends, model).routing().detectorIds();
    }

    /** Runs both jobs; the topics' size limits are raised first where the plan's largest record needs it. */
    public CampaignResult run(CampaignPlan plan) throws Exception {
        List<String> raised = ends.allowRecordsOf(plan.largestValue());
        raised.forEach(line -> log.println("its-fuzz: raised " + line));
        JobSettings settings = jobSettings(ends, model);
        JobRun.Outcome clean = runJob("clean run", plan.advised(), plan, settings);
        if (stopped) {
            throw new InterruptedException("stopped before the fuzz run");
        }
        JobRun.Outcome fuzz = runJob("fuzz run", plan.records(), plan, settings);
        return new CampaignResult(plan, fuzz, clean);
    }

    private JobRun.Outcome runJob(String name, List<FuzzRecord> records, CampaignPlan plan, JobSettings settings)
            throws Exception {
        JobRun run = new JobRun(stack, ends, settings, name, log);
        current = run;
        if (stopped) {
            run.stop();
        }
        try {
            return run.run(plan.warmup(), records, plan.largestValue());
        } finally {
            current = null;
        }
    }

    /** Ctrl-C: the run under way stops sending and reports what arrived. */
    public void stop() {
        stopped = true;
        JobRun run = current;
        if (run != null) {
            run.stop();
        }
    }
}
