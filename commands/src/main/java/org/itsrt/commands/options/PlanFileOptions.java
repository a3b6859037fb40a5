package org.itsrt.commands.options;

import java.nio.file.Path;
import org.itsrt.pipeline.plan.RunPlan;
import org.itsrt.pipeline.plan.RunPlanYaml;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code --plan FILE} and {@code --print-plan}: a run plan as the base, and the plan shown instead of run. */
public final class PlanFileOptions {

    @Option(
            names = "--plan",
            paramLabel = "FILE",
            description =
                    "a run plan (YAML, as --print-plan writes it; docs/pipeline.md, \"Run plans\"): demo runs it, "
                            + "fuzz runs its campaign on the plan's stack; options given beside it replace its fields")
    Path plan;

    @Mixin
    PrintPlanOption printPlan;

    /** The plan file's fields, or every default without one; options are set over it. */
    public RunPlan.Builder base() {
        return plan != null ? RunPlanYaml.builder(plan) : RunPlan.builder();
    }

    /** The plan file's fields, or {@code defaultFile}'s without one; options are set over it. */
    public RunPlan.Builder baseOr(Path defaultFile) {
        return RunPlanYaml.builder(plan != null ? plan : defaultFile);
    }

    public boolean printOnly() {
        return printPlan.given();
    }
}
