package org.itsrt.cli.options;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code --repetitions N} and {@code --max-repetitions N}: runs per point of a search (tune,
 * capacity) and the noise rule's larger count, each search with its own defaults.
 */
public final class RepetitionsOptions {

    @Mixin
    RepetitionsOption repetitions;

    @Option(
            names = "--max-repetitions",
            paramLabel = "N",
            description = "runs per point when its first runs disagree (default: tune 4, capacity 5, or --repetitions "
                    + "if that is more)")
    Integer maxRepetitions;

    /** The repetitions given, else {@code otherwise}. */
    public int repetitionsOr(int otherwise) {
        return repetitions.given() != null ? repetitions.given() : otherwise;
    }

    /** The larger count given, or null for the search's default. */
    public Integer maxRepetitions() {
        return maxRepetitions;
    }

    /** The repetitions given, or null for the search's default. */
    public Integer repetitions() {
        return repetitions.given();
    }
}
