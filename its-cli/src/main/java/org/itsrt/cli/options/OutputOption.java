package org.itsrt.cli.options;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --out PATH}: where a command writes what it makes. */
public final class OutputOption {

    @Option(
            names = "--out",
            paramLabel = "PATH",
            description = "where the output goes: a run or report folder (default: one under results/ named after "
                    + "the command, with the start's UTC time for runs), the table import writes, or what generate "
                    + "writes: a table, or with --detectors a district's folder")
    Path out;

    /** The path given, or null for the command's default. */
    public Path path() {
        return out;
    }
}
