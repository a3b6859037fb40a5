package org.itsrt.commands.options;

import java.nio.file.Files;
import java.nio.file.Path;
import org.itsrt.cli.options.JobJarOption;
import org.itsrt.cli.options.ModelOption;
import org.itsrt.cli.options.OutputOption;
import org.itsrt.pipeline.plan.PlanRunner;
import org.itsrt.pipeline.plan.RunPlan;
import picocli.CommandLine.Mixin;

/**
 * What a search over whole-pipeline runs (tune, capacity) takes beside its range: the options set
 * over every point's run plan (the load, the inputs, parts of the stack that already run) and the
 * results folder, with what must hold before its first run.
 */
public final class SearchRunOptions {

    @Mixin
    LoadPlanOptions load;

    @Mixin
    ModelOption model;

    @Mixin
    JobJarOption jobJar;

    @Mixin
    OutputOption output;

    @Mixin
    ExistingStackOptions existing;

    /** {@code plan} with the options given over it. */
    public RunPlan over(RunPlan.Builder plan) {
        load.applyTo(plan.load());
        if (model.given() != null) {
            plan.job().model(model.given());
        }
        if (jobJar.given() != null) {
            plan.stack().jobJar(jobJar.given());
        }
        existing.applyTo(plan);
        return plan.build();
    }

    /** The results folder given ({@code --out}), or null for the search's default. */
    public Path out() {
        return output.path();
    }

    /**
     * Why the search cannot start in {@code dir}, or null: the folder already holds a search's
     * {@code report}, or the points' plan lacks an input ({@link PlanRunner#prepare}), which only
     * matters when the points run the pipeline.
     *
     * @param search    what the report is of, in words ("a tune")
     * @param pipeline  whether the points run the pipeline (false: measured by a model of it)
     */
    public static String unusable(Path dir, String report, String search, RunPlan pointPlan, boolean pipeline)
            throws Exception {
        if (Files.exists(dir.resolve(report))) {
            return "--out " + dir + " already holds " + search + " (" + report + ")";
        }
        if (!pipeline) {
            return null;
        }
        try {
            PlanRunner.prepare(pointPlan);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
