package org.itsrt.commands.options;

import java.time.Duration;
import java.util.Map;
import org.itsrt.cli.DurationConverter;
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

    @Option(
            names = "--job-start-timeout",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            description = "how long the job may take from its submission to its first answer (its tasks' start, "
                    + "the model's load and warm-up), e.g. 15m for a cluster in an emulated machine (default: 120s)")
    Duration startTimeout;

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
        if (startTimeout != null) {
            job.startTimeout(startTimeout);
        }
    }
}
