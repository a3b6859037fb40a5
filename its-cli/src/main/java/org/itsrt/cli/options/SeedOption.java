package org.itsrt.cli.options;

import picocli.CommandLine.Option;

/** {@code --seed N}: one seed, the very same generated output. */
public final class SeedOption {

    @Option(
            names = "--seed",
            paramLabel = "N",
            description = "the generator's seed: the same seed (and size) gives the very same output, byte for byte "
                    + "(default: the command's, in its description)")
    Long seed;

    /** The seed given, if one was. */
    public java.util.OptionalLong given() {
        return seed != null ? java.util.OptionalLong.of(seed) : java.util.OptionalLong.empty();
    }

    /** The seed given, else {@code otherwise}. */
    public long orElse(long otherwise) {
        return seed != null ? seed : otherwise;
    }
}
