package org.itsrt.scheduling.cli;

import org.itsrt.scheduling.budget.ComposeCpu;
import org.itsrt.scheduling.budget.DomainBudget;
import org.itsrt.scheduling.budget.StudyRow;

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

    /** The command as typed, for the header of an override file: how to render it again. */
    static String commandLine(picocli.CommandLine cmd) {
        StringBuilder line = new StringBuilder("./its budget");
        for (String arg : cmd.getParseResult().originalArgs()) {
            line.append(' ').append(shellWord(arg));
        }
        return line.toString();
    }

    private static String shellWord(String arg) {
        return Rendering.SHELL_PLAIN.matcher(arg).matches() ? arg : "'" + arg.replace("'", "'\\''") + "'";
    }

    /** A word the shell reads as itself, unquoted. */
    static final java.util.regex.Pattern SHELL_PLAIN = java.util.regex.Pattern.compile("[A-Za-z0-9_./:=,@%+-]+");

    /** The exit code of a reservation refused: a limit it breaks, named. */
    static final int REFUSED = 2;

    /** Says why a reservation is refused, naming the constraint; returns {@link #REFUSED}. */
    static int refused(picocli.CommandLine cmd, String constraint, String message) {
        cmd.getErr().println("its budget: refused (" + constraint + "): " + message);
        cmd.getErr().flush();
        return REFUSED;
    }
}
