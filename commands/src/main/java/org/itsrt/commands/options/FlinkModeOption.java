package org.itsrt.commands.options;

import org.itsrt.pipeline.plan.StackPlan;
import picocli.CommandLine.Option;

/** {@code --flink WHERE}: how the Flink cluster a run starts runs. */
public final class FlinkModeOption {

    @Option(
            names = "--flink",
            paramLabel = "WHERE",
            description = "where the job's cluster runs: standalone (a JobManager process and TaskManager processes "
                    + "from Flink's own entry points, the job jar submitted as to any real cluster; default), child "
                    + "(a MiniCluster in one child JVM) or in-process (a MiniCluster in this JVM)")
    String flink;

    /** Sets the mode given, if any, over the cluster's. */
    public void applyTo(StackPlan.Flink.Builder cluster) {
        if (flink != null) {
            cluster.mode(StackPlan.Flink.Mode.of(flink));
        }
    }
}
