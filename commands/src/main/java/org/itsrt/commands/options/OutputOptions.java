package org.itsrt.commands.options;

import java.nio.file.Path;
import org.itsrt.pipeline.plan.OutputPlan;
import picocli.CommandLine.Option;

/** Where a run's reports go: the output part of a run plan. */
public final class OutputOptions {

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "the folder reports go to (default: results/COMMAND/YYYYMMDD-HHMMSS, UTC, under where the "
                    + "command runs)")
    Path out;

    /** The folder given, or null for the command's default. */
    public Path dir() {
        return out;
    }

    public void applyTo(OutputPlan.Builder output) {
        if (out != null) {
            output.dir(out);
        }
    }
}
