package org.itsrt.commands.options;

import java.nio.file.Path;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.pipeline.plan.RunPlan;
import picocli.CommandLine.Option;

/** {@code --data FILE}: the canonical readings a run replays. */
public final class DataOption {

    @Option(
            names = "--data",
            paramLabel = "FILE",
            description = "canonical readings to replay (default: the committed synthetic sample, "
                    + ProjectPaths.SAMPLE_TABLE + ")")
    Path data;

    /** The file given, or null for the committed sample. */
    public Path given() {
        return data;
    }

    /** The file given, else the committed sample. */
    public Path path() {
        return data != null ? data : ProjectPaths.locate().sampleTable();
    }

    /** Sets the file given, if any, over the plan's load. */
    public void applyTo(RunPlan.Builder plan) {
        if (data != null) {
            plan.load().data(data);
        }
    }
}
