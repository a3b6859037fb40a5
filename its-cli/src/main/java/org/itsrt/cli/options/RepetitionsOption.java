package org.itsrt.cli.options;

import picocli.CommandLine.Option;

/** {@code --repetitions N}: runs per point of a search, or per row of an experiment, each command with its default. */
public final class RepetitionsOption {

    @Option(
            names = "--repetitions",
            paramLabel = "N",
            description = "runs per point of a search, which passes only if every run meets the SLO (default: tune 2, "
                    + "capacity 3), or per row of an experiment (default: the file's)")
    Integer repetitions;

    /** The repetitions given, or null for the command's default. */
    public Integer given() {
        return repetitions;
    }
}
