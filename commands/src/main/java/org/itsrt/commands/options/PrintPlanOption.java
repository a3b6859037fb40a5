package org.itsrt.commands.options;

import picocli.CommandLine.Option;

/** {@code --print-plan}: every run command prints what it would run, checked, and runs nothing. */
public final class PrintPlanOption {

    @Option(
            names = "--print-plan",
            description = "check the options (and the file), print the plan they make, and run nothing")
    boolean printPlan;

    public boolean given() {
        return printPlan;
    }
}
