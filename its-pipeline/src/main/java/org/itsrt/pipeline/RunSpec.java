package org.itsrt.pipeline;

import java.nio.file.Path;

/**
 * One measured pipeline run: the stack it runs on, the load, the job, a hook that applies a
 * budget once the job is live, and the folder its reports go to.
 */
public record RunSpec(StackSpec stack, LoadSpec load, JobSpec job, BudgetHook budget, Path out) {

    public RunSpec {
        if (budget == null) {
            budget = BudgetHook.NONE;
        }
        if (out == null) {
            throw new IllegalArgumentException("a run needs an output folder");
        }
    }
}
