package org.itsrt.commands.options;

import java.nio.file.Path;
import java.util.Map;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.pipeline.plan.JobPlan;
import picocli.CommandLine.Option;

/** The job a run submits: the job part of a run plan. */
public final class JobOptions {

    @Option(
            names = "--model",
            paramLabel = "DIR",
            description = "model bundle (default: the shipped one, " + ProjectPaths.MODEL_BUNDLE + ")")
    Path model;

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
        if (model != null) {
            job.model(model);
        }
        if (identity) {
            job.identity(true);
        }
        if (jobArgs != null) {
            jobArgs.forEach(job::option);
        }
    }
}
