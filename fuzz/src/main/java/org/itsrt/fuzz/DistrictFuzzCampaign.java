package org.itsrt.fuzz;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.itsrt.job.config.JobSettings;
import org.itsrt.pipeline.RunningStack;

/**
 * A district campaign on a running stack (docs/fuzz.md, "District campaign"): the district job
 * (its graph from the district's station metadata) run twice, as {@link FuzzCampaign} runs the
 * study's, first on the valid readings and requests alone, then on every record of the plan.
 */
public final class DistrictFuzzCampaign {

    private final RunningStack stack;
    private final KafkaEnds ends;
    private final Path model;
    private final Path graphMeta;
    private final PrintStream log;
    private volatile DistrictJobRun current;
    private volatile boolean stopped;

    /** @param graphMeta the district's station metadata, which the job routes over */
    public DistrictFuzzCampaign(RunningStack stack, KafkaEnds ends, Path model, Path graphMeta, PrintStream log) {
        this.stack = stack;
        this.ends = ends;
        this.model = model;
        this.graphMeta = graphMeta;
        this.log = log;
    }

    private JobSettings settings() {
        return FuzzCampaign.jobSettings(
                ends,
                model,
                Map.of(
                        "workload",
                        "district",
                        "graph-meta",
                        graphMeta.toAbsolutePath().toString()));
    }

    /** The district graph's stations: the readings' detectors and the requests' stations. */
    public long[] stations() {
        return settings().routing().detectorIds();
    }

    public DistrictCampaignResult run(DistrictCampaignPlan plan) throws Exception {
        List<String> raised = ends.allowRecordsOf(plan.largestValue());
        raised.forEach(line -> log.println("its-fuzz: raised " + line));
        JobSettings settings = settings();
        DistrictJobRun.Outcome clean = runJob("clean run", plan.answered(), plan, settings);
        if (stopped) {
            throw new InterruptedException("stopped before the fuzz run");
        }
        DistrictJobRun.Outcome fuzz = runJob("fuzz run", plan.items(), plan, settings);
        return new DistrictCampaignResult(plan, fuzz, clean);
    }

    private DistrictJobRun.Outcome runJob(
            String name, List<DistrictJobRun.Item> items, DistrictCampaignPlan plan, JobSettings settings)
            throws Exception {
        DistrictJobRun run = new DistrictJobRun(stack, ends, settings, name, log);
        current = run;
        if (stopped) {
            run.stop();
        }
        try {
            return run.run(plan.readings().warmup(), items, plan.largestValue());
        } finally {
            current = null;
        }
    }

    /** Ctrl-C: the run under way stops sending and reports what arrived. */
    public void stop() {
        stopped = true;
        DistrictJobRun run = current;
        if (run != null) {
            run.stop();
        }
    }
}
