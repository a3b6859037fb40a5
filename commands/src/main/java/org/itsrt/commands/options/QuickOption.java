package org.itsrt.commands.options;

import picocli.CommandLine.Option;

/** {@code --quick}: each run 30 s of measured records after a 10 s warm-up ({@code LoadPlan.Builder#quick}). */
public final class QuickOption {

    @Option(
            names = "--quick",
            description =
                    "a 30-second run (each run, for an experiment): 30 s of measured records at the rate, after a "
                            + "10 s warm-up")
    boolean quick;

    public boolean given() {
        return quick;
    }
}
