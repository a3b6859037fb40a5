package org.itsrt.commands.options;

import java.nio.file.Path;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.pipeline.plan.RunPlan;
import picocli.CommandLine.Option;

/** {@code --model DIR}: the model bundle the job loads. */
public final class ModelOption {

    @Option(
            names = "--model",
            paramLabel = "DIR",
            description = "model bundle (default: the shipped one, " + ProjectPaths.MODEL_BUNDLE + ")")
    Path model;

    /** The bundle given, or null for the shipped one. */
    public Path given() {
        return model;
    }

    /** The bundle given, else the shipped one. */
    public Path path() {
        return model != null ? model : ProjectPaths.locate().modelBundle();
    }

    /** Sets the bundle given, if any, over the plan's job. */
    public void applyTo(RunPlan.Builder plan) {
        if (model != null) {
            plan.job().model(model);
        }
    }
}
