package org.itsrt.sched.cli;

import org.itsrt.sched.budget.ComposeCpu;
import org.itsrt.sched.budget.DomainBudget;
import org.itsrt.sched.budget.StudyRow;

/**
 * What {@code its budget} prints: the plan, and where its numbers come from.
 *
 * @param plan the reservation worked out; null for a study row without a CPU limit
 * @param row the study row the reservation comes from; null when it was given or chosen by the rule
 * @param rowsFile the rows file as the user knows it (the repository-relative default, or as given)
 * @param composeFile the row's bundled override file; null when it has none
 * @param command the command line that rendered this, for the override file's header
 */
record Rendering(
        String domain,
        int vcpus,
        DomainBudget plan,
        StudyRow row,
        String rowsFile,
        String composeFile,
        String command) {

    /** The TaskManager container's setting: the plan's cgroup bandwidth, or no limit. */
    ComposeCpu compose() {
        return plan == null ? ComposeCpu.unlimited() : plan.settings().compose();
    }
}
