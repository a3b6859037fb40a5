package org.itsrt.commands.options;

import java.util.Map;
import org.itsrt.cli.options.ModelOption;
import org.itsrt.pipeline.plan.JobPlan;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The job a run submits: the job part of a run plan. */
public final class JobPlanOptions {

    @Mixin
    ModelOption model;

    @Option(
            names = "--identity",
            description =
                    "replace predict and route by an identity step: the stack's own floor, same records, same path")
    boolean identity;

    @Option(
            names = "--job-arg",
            paramLabel = "KEY=VALUE",
            description = "a job option, passed as --KEY VALUE (repeatable), e.g. --job-arg engine=tensorflow")
    Map<String, String> jobArgs;

    /** Sets the options given over the plan's job. */
    public void applyTo(JobPlan.Builder job) {
        if (model.given() != null) {
            job.model(model.given());
        }
        if (identity) {
            job.identity(true);
        }
        if (jobArgs != null) {
            jobArgs.forEach(job::option);
        }
    }
}
