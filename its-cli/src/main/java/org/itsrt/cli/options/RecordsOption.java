package org.itsrt.cli.options;

import picocli.CommandLine.Option;

/** {@code --records N}: how many records a command sends, measures or generates. */
public final class RecordsOption {

    @Option(
            names = "--records",
            paramLabel = "N",
            description = "records: produce sends them, all detectors together; demo and tune measure them after the "
                    + "warm-up; probe stops after that many; fuzz sends that many malformed ones among as many valid "
                    + "readings (default: the command's, in its description)")
    Long records;

    /** The count given, or null. */
    public Long given() {
        return records;
    }

    /** The count given, else {@code otherwise}. */
    public long orElse(long otherwise) {
        return records != null ? records : otherwise;
    }
}
